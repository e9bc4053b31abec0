package sim

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestMultiprobeBrute: every key goes to the node whose live point
// follows one of its k probes most closely, by brute force over all
// points.
func TestMultiprobeBrute(t *testing.T) {
	s := &Scenario{Name: "m", Title: "m", Seed: 4, Keys: keys.KeySpec{Count: 3000}, Nodes: names("a", "b", "c", "d", "e", "f"),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "multiprobe", Probes: 5}}, Steps: []timeline.Step{fail("b")}}
	res := mustReplay(t, s)
	e := res.env()
	p, _ := ringrules.NewMultiprobe(placer.RuleSpec{Kind: "multiprobe", Probes: 5}, e)
	p.Update(&res.Timeline.States[1])
	owners := ownersAt(res, 0, 1)
	for i, h := range res.Keys.Pos {
		d := keys.Fmix32(h+0x9e3779b9) | 1
		best, bestD := timeline.NoNode, uint64(1<<33)
		for j := range uint32(5) {
			x := h + j*d
			for _, pt := range p.R.Pts {
				if dist := uint64(pt.Pos - x); p.R.Live[pt.Node] && dist < bestD {
					best, bestD = pt.Node, dist
				}
			}
		}
		if owners[i] != best {
			t.Fatalf("key %d: owner %d, brute force %d", i, owners[i], best)
		}
	}
}

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
