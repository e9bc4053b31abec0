package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// formulaLabels are rule labels and node names that a spreadsheet would
// run as a formula if a CSV cell started with them (OWASP's CSV injection
// list: =, +, -, @, tab, carriage return).
var formulaLabels = []string{"=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tHYPERLINK", "\rx"}

// TestCSVOutputsNeutraliseFormulas renders every CSV a scenario gets
// (steps.csv, migrations.csv, transfers.csv, owners.csv) for rules and
// nodes named like formulas: no text cell may start with a formula
// character (numbers such as -0.5 are numbers), every hostile name is
// there behind an apostrophe, and data.json keeps the exact labels.
func TestCSVOutputsNeutraliseFormulas(t *testing.T) {
	var rules []placer.RuleSpec
	for i, l := range formulaLabels {
		kind := []string{"ring", "modulo", "jump"}[i%3]
		rules = append(rules, placer.RuleSpec{Kind: kind, Label: l, VNodes: 8})
	}
	s := &sim.Scenario{Name: "formulas", Title: "formulas", Seed: 4, Keys: keys.KeySpec{Count: 300}, Replicas: 1,
		Nodes: names("=a", "+b", "-c", "@d"), Rules: rules,
		Steps:      []timeline.Step{{Op: timeline.OpAdd, Nodes: names("=HYPERLINK(\"x\")")}, {Op: timeline.OpRemove, Nodes: names("-c")}},
		Migrations: []sim.Migration{{From: formulaLabels[0], To: formulaLabels[1]}, {From: formulaLabels[2], To: formulaLabels[3]}}}
	res := replay(t, s)
	steps, err := CSV(res)
	if err != nil {
		t.Fatal(err)
	}
	mig, err := MigrationsCSV(res)
	if err != nil {
		t.Fatal(err)
	}
	tr, ok, err := TransfersCSV(res)
	if err != nil || !ok {
		t.Fatalf("transfers.csv: %v %v", ok, err)
	}
	owners, err := OwnersCSV(res, 1)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"steps.csv": steps, "migrations.csv": mig, "transfers.csv": tr, "owners.csv": owners} {
		rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, row := range rows {
			for _, cell := range row {
				if cell == "" || !strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
					continue
				}
				if _, err := strconv.ParseFloat(cell, 64); err != nil {
					t.Errorf("%s: cell %q would run as a formula", name, cell)
				}
			}
		}
	}
	for _, l := range formulaLabels {
		if !bytes.Contains(steps, []byte("'"+l)) {
			t.Errorf("steps.csv lacks the neutralised label %q", l)
		}
	}
	for _, l := range formulaLabels[:4] {
		if !bytes.Contains(mig, []byte(",'"+l)) && !bytes.Contains(mig, []byte(`,"'`+strings.ReplaceAll(l, `"`, `""`))) {
			t.Errorf("migrations.csv lacks the neutralised label %q:\n%s", l, mig)
		}
	}
	js, err := JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rules []struct {
			Label string `json:"label"`
		} `json:"rules"`
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatal(err)
	}
	for i, r := range doc.Rules {
		if r.Label != formulaLabels[i] {
			t.Errorf("data.json rule %d label %q, want the exact %q", i, r.Label, formulaLabels[i])
		}
	}
}
