package report

import (
	"bytes"
	"encoding/csv"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
)

// MigrationTable is one compared pair of rules: at every step, the keys
// (and requests) whose owner differs between the two on the same
// membership — what switching the clients from one rule to the other
// would move if it were done at that step.
type MigrationTable struct {
	// From and To are the two rules' labels.
	From, To string
	// Rows holds one row per step shown in full (Report.Steps);
	// migrations.csv has every step.
	Rows []MigrationRow
}

// MigrationRow is one step of a MigrationTable.
type MigrationRow struct {
	Step int
	// Change says what the step did, as the per-step table does.
	Change string
	// Differ is the keys whose owner differs; Fraction is Differ / K.
	Differ   int
	Fraction float64
	// Requests is the requests of those keys and RequestFraction their
	// share; both 0 when the keys carry no request counts.
	Requests        int
	RequestFraction float64
}

// migrationTables builds one table per compared pair, with a row for
// each of steps.
func migrationTables(res *sim.Result, steps []int) []MigrationTable {
	var out []MigrationTable
	for _, mr := range res.Migrations {
		t := MigrationTable{From: mr.From, To: mr.To}
		for _, i := range steps {
			st := mr.Steps[i]
			row := MigrationRow{Step: i, Change: change(res, i), Differ: st.Differ, Fraction: ratio(st.Differ, res.Keys.Len()),
				Requests: int(st.DifferRequests)}
			if res.Keys.Requests > 0 {
				row.RequestFraction = float64(st.DifferRequests) / float64(res.Keys.Requests)
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return out
}

// MigrationsCSVHeader is the header of migrations.csv, written beside
// steps.csv when a scenario compares rules: one row per (step, pair).
var MigrationsCSVHeader = []string{"step", "op", "from", "to", "differ", "differ_fraction", "differ_requests"}

// MigrationsCSV renders migrations.csv, or nil when the scenario compares
// no rules. The rule labels go through CSVCell.
func MigrationsCSV(res *sim.Result) ([]byte, error) {
	if len(res.Migrations) == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(MigrationsCSVHeader)
	for i := range res.Timeline.States {
		for _, mr := range res.Migrations {
			reqs := ""
			if res.Keys.Weight != nil {
				reqs = strconv.FormatInt(mr.Steps[i].DifferRequests, 10)
			}
			w.Write([]string{strconv.Itoa(i), res.Timeline.States[i].Op.String(), CSVCell(mr.From), CSVCell(mr.To),
				strconv.Itoa(mr.Steps[i].Differ), csvFloat(ratio(mr.Steps[i].Differ, res.Keys.Len())), reqs})
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}
