package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// monotoneKinds are the rules for which a membership change moves only
// keys that must move: collateral is 0 on add, remove, fail, recover.
var monotoneKinds = []string{"ring", "rendezvous", "multiprobe"}

// restoringKinds are the rules under which a failure and its recovery
// restore the placement before the failure exactly: the history-free ones
// (rulekind.Kind.HistoryFree) and slots, whose recovery gives a failed
// node's slots back.
var restoringKinds = []string{"ring", "modulo", "jump", "rendezvous", "maglev", "multiprobe", "bounded", "ketama", "slots"}

// randomScenario builds a valid scenario from seed: 1–6 nodes, 50–400
// keys, up to 12 membership steps chosen among those that are possible.
func randomScenario(seed int64) *Scenario {
	r := rand.New(rand.NewPCG(uint64(seed), 99))
	s := &Scenario{Name: "f", Title: "f", Seed: uint64(seed), Replicas: 1 + r.IntN(2),
		Keys: keys.KeySpec{Count: 50 + r.IntN(350)}, Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 1 + r.IntN(40)}, {Kind: "modulo"},
			{Kind: "jump"}, {Kind: "rendezvous"}, {Kind: "maglev", M: 251}, {Kind: "multiprobe"}, {Kind: "bounded"},
			{Kind: "ketama"}, {Kind: "slots"}}}
	members, failed := []string{}, map[string]bool{}
	next := 0
	newName := func() string { next++; return fmt.Sprintf("n%d", next) }
	for range 1 + r.IntN(6) {
		n := newName()
		members = append(members, n)
		s.Nodes = append(s.Nodes, timeline.NodeSpec{Name: n, Weight: 1})
	}
	live := func() []string {
		var out []string
		for _, m := range members {
			if !failed[m] {
				out = append(out, m)
			}
		}
		return out
	}
	for range r.IntN(13) {
		l := live()
		switch k := r.IntN(5); {
		case k == 0 || len(members) == 1:
			n := newName()
			members = append(members, n)
			s.Steps = append(s.Steps, add(n))
		case k == 1 && len(l) > 1:
			v := l[r.IntN(len(l))]
			members = slices.DeleteFunc(members, func(m string) bool { return m == v })
			s.Steps = append(s.Steps, remove(v))
		case k == 2 && len(l) > 1:
			v := l[r.IntN(len(l))]
			failed[v] = true
			s.Steps = append(s.Steps, fail(v))
			if r.IntN(2) == 0 {
				delete(failed, v)
				s.Steps = append(s.Steps, recover_(v))
			}
		case k == 3:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpVNodes, Value: 1 + r.IntN(30)})
		default:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpReplicas, Value: 1 + r.IntN(3)})
		}
	}
	return s
}

// FuzzReplay replays random step sequences and checks the invariants
// every rule must keep.
func FuzzReplay(f *testing.F) {
	for seed := range int64(20) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		s := randomScenario(seed)
		res, err := Replay(s)
		if err != nil {
			t.Fatalf("valid random scenario rejected: %v", err)
		}
		for _, rr := range res.Rules {
			checkInvariants(t, res, rr)
		}
	})
}

func checkInvariants(t *testing.T, res *Result, rr RuleResult) {
	t.Helper()
	k := res.Keys.Len()
	for i, sr := range rr.Steps {
		st := &res.Timeline.States[i]
		live := liveSet(st, len(res.Timeline.Nodes))
		sum := 0
		for id, l := range sr.Loads {
			sum += l
			if l > 0 && !live[id] {
				t.Fatalf("%s step %d: node %s is not live but owns %d keys", rr.Spec.Label, i, res.Timeline.Nodes[id], l)
			}
		}
		if sum != k {
			t.Fatalf("%s step %d: loads sum to %d, want %d", rr.Spec.Label, i, sum, k)
		}
		if sr.Moved < sr.Needed || sr.Ideal > sr.Needed+k {
			t.Fatalf("%s step %d: moved %d, needed %d, ideal %d", rr.Spec.Label, i, sr.Moved, sr.Needed, sr.Ideal)
		}
		membership := st.Op == timeline.OpAdd || st.Op == timeline.OpRemove || st.Op == timeline.OpFail || st.Op == timeline.OpRecover
		if membership && slices.Contains(monotoneKinds, rr.Spec.Kind) && sr.Collateral() != 0 {
			t.Fatalf("%s step %d (%v): collateral %d on a monotone rule", rr.Spec.Label, i, st.Op, sr.Collateral())
		}
		if i >= 2 && restores(res.Timeline, i) && slices.Contains(restoringKinds, rr.Spec.Kind) {
			// The placement before the failure, or an earlier identical one.
			if j := sr.Recurs; j < 0 || j > i-2 || rr.Steps[j].Fingerprint != rr.Steps[i-2].Fingerprint {
				t.Fatalf("%s step %d: recover after fail recurs %d, want step %d's placement", rr.Spec.Label, i, j, i-2)
			}
		}
	}
}

// restores reports whether step i recovers exactly what step i−1 failed.
func restores(tl *timeline.Timeline, i int) bool {
	a, b := &tl.States[i-1], &tl.States[i]
	return a.Op == timeline.OpFail && b.Op == timeline.OpRecover && slices.Equal(a.Named, b.Named)
}
