package sim

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestMultiprobeBalance: with 21 probes and one point per node, the
// peak-to-mean load over 100,000 keys and 50 nodes stays near the paper's
// 1.05 (allowing sampling noise: under 1.15); with one probe it is far
// worse.
func TestMultiprobeBalance(t *testing.T) {
	nodes := nodeNames(50)
	s := &Scenario{Name: "m", Title: "m", Seed: 4, Keys: keys.KeySpec{Count: 100000}, Nodes: nodes, Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "multiprobe"}, {Kind: "multiprobe", Probes: 1}}}
	res := mustReplay(t, s)
	if p := res.Balance(0, 0).PeakToMean; p > 1.15 {
		t.Errorf("21 probes: peak-to-mean %.3f, want ≤ 1.15", p)
	}
	if p := res.Balance(1, 0).PeakToMean; p < 2 {
		t.Errorf("1 probe: peak-to-mean %.3f, want the plain ring's ≥ 2", p)
	}
}

// TestMultiprobeWeights: a node of weight w puts w points and gets about
// w/Σw of the keys.
func TestMultiprobeWeights(t *testing.T) {
	s := &Scenario{Name: "m", Title: "m", Seed: 4, Keys: keys.KeySpec{Count: 100000}, Replicas: 1,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}, Rules: []placer.RuleSpec{{Kind: "multiprobe"}},
		Steps: []timeline.Step{{Op: timeline.OpVNodes, Value: 10}}}
	res := mustReplay(t, s)
	if got := float64(res.Rules[0].Steps[0].Loads[1]) / 100000; got < 0.70 || got > 0.80 {
		t.Errorf("weight-3 node share %.3f, want 0.75 ± 0.05", got)
	}
	if sr := res.Rules[0].Steps[1]; sr.Moved != 0 || len(sr.Notes) != 1 {
		t.Errorf("vnodes step: moved %d, notes %q; want no move and a note", sr.Moved, sr.Notes)
	}
}
