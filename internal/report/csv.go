package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
)

// CSVHeader is the header row of steps.csv; the columns mean what the
// data.json fields of the same names mean (SCHEMA.md).
var CSVHeader = []string{
	"step", "op", "rule", "moved", "moved_fraction", "needed", "collateral", "ideal",
	"peak_to_mean", "worst_deviation", "cv", "noise_cv", "total_moved", "fingerprint",
	"recurs", "replica_moved", "copies", "under_replicated",
	"moved_requests", "request_peak_to_mean", "request_worst_deviation",
	"below_quorum", "unavailable", "zone_collisions", "repartitioned",
}

// CSV renders steps.csv: the header, then one row per (step, rule), steps
// outermost and rules in scenario order. Floats have FloatDecimals
// decimals; recurs is empty when the placement is new. Rule labels go
// through CSVCell, so that a spreadsheet shows them rather than running
// them; data.json keeps them exactly. The header is the
// same for every scenario: the request columns are empty when the keys
// carry no request counts.
func CSV(res *sim.Result) ([]byte, error) {
	var buf bytes.Buffer
	if err := WriteCSV(&buf, res); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteCSV writes CSV's steps.csv to w row by row. It checks res before
// it writes anything.
func WriteCSV(w io.Writer, res *sim.Result) error {
	if err := check(res); err != nil {
		return fmt.Errorf("cannot build steps.csv: %w", err)
	}
	cw := csv.NewWriter(w)
	cw.Write(CSVHeader)
	row := make([]string, len(CSVHeader))
	for i := range res.Timeline.States {
		for r := range res.Rules {
			cw.Write(csvRow(row, res, r, i))
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("cannot write steps.csv: %w", err)
	}
	return nil
}

// csvRow fills row with rule r's row of step i and returns it.
func csvRow(row []string, res *sim.Result, r, i int) []string {
	sr := &res.Rules[r].Steps[i]
	b := res.Balance(r, i)
	f, d := csvFloat, strconv.Itoa
	recurs := ""
	if sr.Recurs >= 0 {
		recurs = d(sr.Recurs)
	}
	reqs := [3]string{}
	if rb, ok := res.RequestBalance(r, i); ok {
		reqs = [3]string{strconv.FormatInt(sr.MovedRequests, 10), f(rb.PeakToMean), f(rb.WorstDeviation)}
	}
	return append(row[:0],
		d(i), res.Timeline.States[i].Op.String(), CSVCell(res.Rules[r].Spec.Label),
		d(sr.Moved), f(ratio(sr.Moved, res.Keys.Len())), d(sr.Needed), d(sr.Collateral()), d(sr.Ideal),
		f(b.PeakToMean), f(b.WorstDeviation), f(b.CV), f(b.NoiseCV), d(sr.TotalMoved),
		fingerprint(sr.Fingerprint), recurs, d(sr.ReplicaMoved), d(sr.Copies), d(sr.UnderReplicated),
		reqs[0], reqs[1], reqs[2], d(sr.BelowQuorum), d(sr.Unavailable), d(sr.ZoneCollisions), d(sr.Repartitioned))
}

// csvFloat formats x with FloatDecimals decimals; empty when not finite.
func csvFloat(x float64) string {
	s := fixed(FloatDecimals, x)
	if s == "—" {
		return ""
	}
	return s
}
