package sim

import (
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestRendezvousIncremental: the incremental updates (one score per key
// for a joining node, re-ranking only the keys of a departing one) give
// exactly what a full ranking gives, with replicas and weights.
func TestRendezvousIncremental(t *testing.T) {
	for _, R := range []int{1, 2, 4} {
		s := churnScenario(3000)
		s.Replicas = R
		s.Rules = []placer.RuleSpec{{Kind: "rendezvous"}, {Kind: "rendezvous", Hash: "xxhash64"}}
		res := mustReplay(t, s)
		for r := range res.Rules {
			for i := range res.Timeline.States {
				e := res.env()
				z, _ := registry.NewPlacer(res.Rules[r].Spec, e)
				z.Update(&res.Timeline.States[i]) // a fresh placer ranks everything
				lists := make([][]timeline.NodeID, res.Timeline.States[i].Replicas)
				for k := range lists {
					lists[k] = make([]timeline.NodeID, res.Keys.Len())
				}
				z.Assign(lists)
				got := ownersAt(res, r, i)
				if !slices.Equal(got, lists[0]) {
					t.Fatalf("R=%d rule %d step %d: incremental differs from full ranking", R, r, i)
				}
			}
		}
	}
}

// TestRendezvousWeights: with weights 1, 2, 3, 4 a node's share is about
// w/Σw, and adding a heavy node moves keys only to it.
func TestRendezvousWeights(t *testing.T) {
	s := &Scenario{Name: "r", Title: "r", Seed: 2, Keys: keys.KeySpec{Count: 100000}, Replicas: 1,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}, {Name: "c", Weight: 3}, {Name: "d", Weight: 4}}, Rules: []placer.RuleSpec{{Kind: "rendezvous"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "e", Weight: 5}}}, remove("b")}}
	res := mustReplay(t, s)
	for id, l := range res.Rules[0].Steps[0].Loads[:4] {
		want := float64(id+1) / 10
		if got := float64(l) / 100000; got < want-0.01 || got > want+0.01 {
			t.Errorf("node %d share %.3f, want %.2f ± 0.01", id, got, want)
		}
	}
	for i, sr := range res.Rules[0].Steps[1:] {
		if sr.Moved != sr.Needed {
			t.Errorf("step %d: moved %d, needed %d", i+1, sr.Moved, sr.Needed)
		}
	}
}
