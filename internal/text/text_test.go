package text

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
	"math"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/sim"
)

var _ = golden.Update // every test binary accepts -update

func TestNumbers(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(0), "0"}, {Count(999), "999"}, {Count(1000), "1,000"}, {Count(-1234567), "-1,234,567"},
		{Fixed(2, 1.005), "1.00"}, {Fixed(1, -0.04), "0.0"}, {Fixed(3, math.NaN()), "—"},
		{Grouped(1, 9901), "9,901.0"}, {Grouped(1, 999.96), "1,000.0"}, {Grouped(2, -1234.5), "-1,234.50"},
		{Grouped(1, -0.5), "-0.5"}, {Grouped(0, 12345.4), "12,345"}, {Grouped(1, math.Inf(1)), "—"},
		{Pct(0.1234), "12.3%"}, {SignedPct(0.015), "+1.5%"}, {SignedPct(-0.003), "−0.3%"}, {SignedPct(0), "0.0%"},
		{Times(2.6), "2.60×"}, {Times(Ratio(1, 0)), "—"},
		{Plural(1, "key", "keys"), "1 key"}, {Plural(1200, "key", "keys"), "1,200 keys"},
		{List(nil), ""}, {List([]string{"a"}), "a"}, {List([]string{"a", "b", "c"}), "a, b and c"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestChange(t *testing.T) {
	s := &sim.Scenario{Name: "c", Title: "c", Seed: 1, Replicas: 1, Keys: keys.KeySpec{Count: 10},
		Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b", Weight: 2}, {Name: "c"}, {Name: "d"}, {Name: "e"}},
		Rules: []placer.RuleSpec{{Kind: "modulo", Label: "modulo"}},
		Steps: []timeline.Step{
			{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "f", Weight: 3}}},
			{Op: timeline.OpRemove, Random: true},
			{Op: timeline.OpFail, Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b"}}},
			{Op: timeline.OpRecover, All: true},
			{Op: timeline.OpRecover, All: true},
			{Op: timeline.OpVNodes, Value: 240},
			{Op: timeline.OpReplicas, Value: 3},
			{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 2}}},
		}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start with a (weight 1), b (weight 2), +3 more",
		"add f (weight 3)",
		"remove d (random)",
		"fail a, b",
		"recover all: a, b",
		"recover all (none had failed)",
		"points per node → 240",
		"replicas → 3",
		"weight a → 2",
	}
	for i, w := range want {
		if got := Change(res, i, 2); got != w {
			t.Errorf("step %d: %q, want %q", i, got, w)
		}
	}
}

func TestOutcomeWording(t *testing.T) {
	e := sim.Expectation{Step: 1, Rule: "ring", Metric: "moved_fraction", Op: "<=", Value: 0.2}
	if got, want := Expectation(e), "moved_fraction <= 0.2 at step 1 for ring"; got != want {
		t.Errorf("Expectation = %q, want %q", got, want)
	}
	all := sim.Expectation{Step: -1, Metric: "recurs", Op: "!=", Value: -1}
	if got, want := Expectation(all), "recurs != none at every step for every rule"; got != want {
		t.Errorf("Expectation = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		o    sim.Outcome
		want string
	}{
		{sim.Outcome{Expectation: e, Checked: 1, Step: 1, Rule: "ring", Value: 0.185556}, "passed (measured 0.185556 at step 1 for ring)"},
		{sim.Outcome{Expectation: e, Checked: 4, Step: 2, Rule: "ring", Value: 0.1}, "passed all 4 checks (closest: 0.1 at step 2 for ring)"},
		{sim.Outcome{Expectation: e, Checked: 4, Failed: 3, Step: 1, Rule: "modulo", Value: 0.8566667}, "failed 3 of 4 checks; first: 0.856667 at step 1 for modulo"},
	} {
		if got := Verdict(tc.o); got != tc.want {
			t.Errorf("Verdict = %q, want %q", got, tc.want)
		}
	}
}
