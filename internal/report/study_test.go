package report

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

// studyScenario is eight nodes under a ring and modulo, with a ninth
// joining: the base of the sweep and seeds golden tests.
func studyScenario(name string) *sim.Scenario {
	return &sim.Scenario{
		Name: name, Title: "Points per node, swept", Seed: 5, Keys: keys.KeySpec{Count: 3000},
		Nodes: sweep.GeneratedNodes(8), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "modulo", Label: "modulo"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: names("node-9")}},
	}
}

// TestStudyGolden renders report.md and data.json of a points-per-node
// sweep over 4 seeds, and of the same scenario with seeds only, against
// testdata/golden/{sweep,seeds}.{md,json}.
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
			js, err := JSONStudy(replay(t, s), st)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "golden", tt.name+".json"), js)
			checkSweepJSON(t, js, st)
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

// checkSweepJSON decodes data.json's "sweep" and checks its shape and a
// few numbers against st.
func checkSweepJSON(t *testing.T, js []byte, st *sweep.Result) {
	t.Helper()
	type band struct{ Mean, Min, Max, P10, P90, Theory *float64 }
	var d struct {
		Sweep *struct {
			Param   *string
			Values  []float64
			Seeds   []uint64
			Metrics []struct {
				Metric string
				Step   int
			}
			Points []struct {
				Value   *float64
				NoiseCV float64 `json:"noise_cv"`
				Rules   map[string]map[string]band
			}
		}
	}
	if err := json.Unmarshal(js, &d); err != nil {
		t.Fatal(err)
	}
	sw := d.Sweep
	if sw == nil {
		t.Fatal(`"sweep" is null`)
	}
	if (sw.Param == nil) != (st.Plan.Param == "") || len(sw.Values) != len(st.Plan.Values) || len(sw.Seeds) != st.Plan.SeedCount() {
		t.Fatalf("param %v, %d values, %d seeds", sw.Param, len(sw.Values), len(sw.Seeds))
	}
	if len(sw.Points) != st.Plan.Points() || len(sw.Metrics) != 4 {
		t.Fatalf("%d points, %d metrics", len(sw.Points), len(sw.Metrics))
	}
	for i, p := range sw.Points {
		if (p.Value == nil) != (st.Plan.Param == "") {
			t.Errorf("point %d: value %v", i, p.Value)
		}
		for r, rs := range st.Rules {
			for _, m := range sw.Metrics {
				b, ok := p.Rules[rs.Label][m.Metric]
				if !ok || b.Mean == nil || b.Min == nil || b.Max == nil || b.P10 == nil || b.P90 == nil {
					t.Fatalf("point %d, rule %s, %s: missing or null %+v", i, rs.Label, m.Metric, b)
				}
				want := st.Band(m.Metric, i, m.Step, r)
				if math.Abs(*b.Mean-want.Mean) > 1e-6 || *b.Min > *b.P10 || *b.P10 > *b.P90 || *b.P90 > *b.Max {
					t.Errorf("point %d, rule %s, %s: %+v, want mean %v", i, rs.Label, m.Metric, b, want.Mean)
				}
				// ring has a cv theory and both rules a moved one (one node joins).
				hasTheory := m.Metric == "moved_fraction" || (m.Metric == "cv" && rs.Kind == "ring")
				if (b.Theory != nil) != hasTheory {
					t.Errorf("point %d, rule %s, %s: theory %v", i, rs.Label, m.Metric, b.Theory)
				}
			}
		}
	}
}

// TestJSONWithoutStudy: data.json of a scenario without sweep: or
// seeds: has "sweep": null as its last member.
func TestJSONWithoutStudy(t *testing.T) {
	js, err := JSON(replay(t, studyScenario("plain")))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(js), "  \"sweep\": null\n}\n") {
		t.Errorf("data.json does not end in \"sweep\": null:\n%s", js[len(js)-80:])
	}
}
