package sim

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestBoundedNeverAboveCapacity: at every step, including failures,
// removals and weight changes, no live node holds more than
// ⌈(1+ε)·K·w_i/Σw⌉ keys; failed and removed nodes hold none.
func TestBoundedNeverAboveCapacity(t *testing.T) {
	for _, spec := range []placer.RuleSpec{
		{Kind: "bounded"}, {Kind: "bounded", Epsilon: 0.01, VNodes: 8}, {Kind: "bounded", Epsilon: 0.1, Hash: "crc32"},
		{Kind: "bounded", Epsilon: 2, VNodes: 1},
	} {
		s := churnScenario(10007)
		s.Rules = []placer.RuleSpec{spec}
		res := mustReplay(t, s)
		for i, sr := range res.Rules[0].Steps {
			st := &res.Timeline.States[i]
			W := totalWeight(st)
			live := liveSet(st, len(res.Timeline.Nodes))
			for id, load := range sr.Loads {
				m, _ := st.Member(timeline.NodeID(id))
				limit := 0
				if live[id] {
					eps := spec.Epsilon
					if eps == 0 {
						eps = ringrules.DefaultEpsilon
					}
					// ⌈(1+ε)·K·w/W⌉ in integers: ε is a multiple of 10⁻⁶ here.
					num := uint64((1+eps)*ringrules.EpsScale+0.5) * 10007 * uint64(m.Weight)
					den := uint64(ringrules.EpsScale * W)
					limit = int((num + den - 1) / den)
				}
				if load > limit {
					t.Errorf("%+v step %d: node %d holds %d keys, capacity %d", spec, i, id, load, limit)
				}
			}
		}
	}
}

// TestBoundedTightCapacity: with ε = 10⁻⁶ on 1000 keys and 3 nodes every
// node is at capacity ⌈1000/3⌉ = 334 or close, and the loads sum to K.
func TestBoundedTightCapacity(t *testing.T) {
	s := &Scenario{Name: "b", Title: "b", Seed: 1, Keys: keys.KeySpec{Count: 1000}, Nodes: names("a", "b", "c"),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "bounded", Epsilon: 1e-6}}}
	loads := mustReplay(t, s).Rules[0].Steps[0].Loads
	if loads[0]+loads[1]+loads[2] != 1000 || max(loads[0], loads[1], loads[2]) > 334 || min(loads[0], loads[1], loads[2]) < 332 {
		t.Errorf("loads %v, want each within [332, 334]", loads)
	}
}

// TestBoundedEqualsRingWhenLoose: with a huge ε no capacity binds and the
// rule is the ring.
func TestBoundedEqualsRingWhenLoose(t *testing.T) {
	s := churnScenario(3000)
	s.Rules = []placer.RuleSpec{{Kind: "bounded", Epsilon: 1000, VNodes: 16}, {Kind: "ring", VNodes: 16}}
	res := mustReplay(t, s)
	for i := range res.Timeline.States {
		if res.Rules[0].Steps[i].Fingerprint != res.Rules[1].Steps[i].Fingerprint {
			t.Errorf("step %d: bounded with ε = 1000 differs from the ring", i)
		}
	}
}
