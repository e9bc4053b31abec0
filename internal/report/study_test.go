package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
)

// studyScenario is eight nodes under a ring and modulo, with a ninth
// joining: the base of the sweep and seeds golden tests.
func studyScenario(name string) *sim.Scenario {
	return &sim.Scenario{
		Name: name, Title: "Points per node, swept", Seed: 5, Keys: sim.KeySpec{Count: 3000},
		Nodes: sweep.GeneratedNodes(8), Replicas: 1,
		Rules: []sim.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "modulo", Label: "modulo"}},
		Steps: []sim.Step{{Op: sim.OpAdd, Nodes: names("node-9")}},
	}
}

// TestStudyGolden renders report.md of a points-per-node sweep over 4
// seeds, and of the same scenario with seeds only, against
// testdata/golden/{sweep,seeds}.md.
func TestStudyGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		plan sweep.Plan
	}{
		{"sweep", sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 8, 64, 512}, Seeds: 4}},
		{"seeds", sweep.Plan{Seeds: 4}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := studyScenario(tt.name)
			st, err := sweep.Execute(s, tt.plan, sweep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			figs := append(testFigures(), svg.SweepFigures(st)...)
			md, err := Markdown(replay(t, s), figs, Options{Study: st})
			if err != nil {
				t.Fatal(err)
			}
			golden.Tables(t, toHTML(t, md))
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".md"), md)
			text := string(md)
			if tt.name == "sweep" && (!strings.Contains(text, "## Sweep") || !strings.Contains(text, "](sweep-cv.svg)")) {
				t.Errorf("no Sweep section with its chart")
			}
			if tt.name == "seeds" && strings.Contains(text, "## Sweep") {
				t.Errorf("a Sweep section without a sweep")
			}
		})
	}
}
