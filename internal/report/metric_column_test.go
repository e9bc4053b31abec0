package report

import (
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
)

// TestToyMetricEverywhere: a metric appended to the metric table (here a
// test-only one, twice the moved keys) is a column of steps.csv, a field
// of every rule's step in data.json and a column of report.md's step
// table, with no other change.
func TestToyMetricEverywhere(t *testing.T) {
	saved := sim.Metrics
	t.Cleanup(func() { sim.Metrics = saved })
	sim.Metrics = append(saved[:len(saved):len(saved)], sim.Metric{
		Name: "toy_twice_moved", Doc: "twice moved, for a test",
		Column:  &sim.Column{Heading: "Toy twice moved"},
		Compute: func(a *sim.At) sim.Value { return sim.Value{N: 2 * int64(a.S.Moved), OK: true} },
	})
	res := replay(t, ringWalkthrough())
	const step, rule = 1, 0
	want := 2 * res.Rules[rule].Steps[step].Moved
	if want == 0 {
		t.Fatalf("the walkthrough's step %d moves nothing", step)
	}

	b, err := CSV(res)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(b))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := len(rows[0]) - 1
	if rows[0][col] != "toy_twice_moved" {
		t.Fatalf("steps.csv's last column is %q", rows[0][col])
	}
	if got := rows[1+step*len(res.Rules)+rule][col]; got != strconv.Itoa(want) {
		t.Errorf("steps.csv: toy_twice_moved %q, want %d", got, want)
	}

	b, err = JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Steps []struct {
			Rules map[string]map[string]any `json:"rules"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Steps[step].Rules[res.Rules[rule].Spec.Label]["toy_twice_moved"]
	if n, ok := got.(float64); !ok || int(n) != want {
		t.Errorf("data.json: toy_twice_moved %v, want %d", got, want)
	}

	md, err := Markdown(res, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Step 0 has no moves table: the first table with the toy column is
	// step 1's, its header, alignment row and then one row per rule.
	lines := strings.Split(string(md), "\n")
	h := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, " Toy twice moved |") })
	if h < 0 || h+2+rule >= len(lines) {
		t.Fatal("report.md's step tables have no toy column")
	}
	if !strings.HasSuffix(lines[h], " | Toy twice moved |") || !strings.HasSuffix(lines[h+1], "|--:|") {
		t.Errorf("the toy column is not the last right-aligned one: %q, %q", lines[h], lines[h+1])
	}
	row := lines[h+2+rule]
	if !strings.HasPrefix(row, "| "+res.Rules[rule].Spec.Label+" | "+count(want/2)+" |") || !strings.HasSuffix(row, " | "+count(want)+" |") {
		t.Errorf("step %d's row of rule %d: %q, want it to end with %s", step, rule, row, count(want))
	}
}
