package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/keys"
import "testing"

// TestEstimateMemory: the estimate of the benchmark scenario's replay
// (10⁶ keys, five rules, 100 steps) is at least the peak resident set
// measured for it (about 300 MB) and grows linearly with the keys.
func TestEstimateMemory(t *testing.T) {
	s := func(k int) *Scenario {
		var steps []timeline.Step
		for i := range 100 {
			steps = append(steps, add(benchNode(100+i)))
		}
		return &Scenario{Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(100), Steps: steps,
			Rules: []placer.RuleSpec{{Kind: "ring"}, {Kind: "jump"}, {Kind: "rendezvous"}, {Kind: "maglev"}, {Kind: "ketama"}}}
	}
	e6, e7 := EstimateMemory(s(1e6)), EstimateMemory(s(1e7))
	if e6 < 300<<20 || e6 > 1<<30 {
		t.Errorf("estimate for 10⁶ keys = %d MB, want 300 MB to 1 GB", e6>>20)
	}
	if per := (e7 - e6) / 9e6; per < 100 || per > 400 {
		t.Errorf("estimate grows by %d bytes per key, want 100 to 400 (five rules)", per)
	}
	t.Logf("10⁶ keys: %d MB, 10⁷ keys: %d MB", e6>>20, e7>>20)
}

// TestEstimateRendezvousWeights: rendezvous keeps 6 bytes per key with one
// replica and equal weights, 10 per list entry otherwise, and the estimate
// follows.
func TestEstimateRendezvousWeights(t *testing.T) {
	s := &Scenario{Keys: keys.KeySpec{Count: 1e6}, Nodes: nodeNames(10), Rules: []placer.RuleSpec{{Kind: "rendezvous"}},
		Steps: []timeline.Step{add("x")}}
	even := EstimateMemory(s)
	s.Steps = []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "x", Weight: 2}}}}
	if d := EstimateMemory(s) - even; d != 4e6*3/2 {
		t.Errorf("a heavier node adds %d bytes, want %d", d, int64(4e6*3/2))
	}
	if !uniformWeights(&Scenario{Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b", Weight: 1}}, Steps: []timeline.Step{add("c")}}) {
		t.Error("weights 0 (the default, 1) and 1 are not uniform")
	}
}
