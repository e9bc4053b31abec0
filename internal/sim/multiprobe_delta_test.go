package sim

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
)

// churnyScenario is a random scenario for delta tests: adds with weights,
// removals, failures and recoveries of one or several nodes at once,
// weight, replicas and vnodes steps, over a few hundred to a few thousand
// keys (sometimes an explicit list with duplicates).
func churnyScenario(seed int64, spec placer.RuleSpec) *Scenario {
	r := rand.New(rand.NewPCG(uint64(seed), 17))
	s := &Scenario{Name: "d", Title: "d", Seed: uint64(seed), Replicas: 1 + r.IntN(3),
		Keys: keys.KeySpec{Count: 100 + r.IntN(2500)}, Rules: []placer.RuleSpec{spec}}
	if r.IntN(4) == 0 {
		for i := range s.Keys.Count {
			s.Keys.List = append(s.Keys.List, fmt.Sprintf("k%d", i%(1+s.Keys.Count/3)))
		}
		s.Keys.Count = 0
	}
	var members []string
	failed := map[string]bool{}
	next := 0
	newNode := func() timeline.NodeSpec {
		next++
		return timeline.NodeSpec{Name: fmt.Sprintf("n%d", next), Weight: 1 + r.IntN(3)*r.IntN(2)}
	}
	for range 1 + r.IntN(8) {
		n := newNode()
		members = append(members, n.Name)
		s.Nodes = append(s.Nodes, n)
	}
	pick := func(want bool) []string { // members whose failed state is want
		var out []string
		for _, m := range members {
			if failed[m] == want {
				out = append(out, m)
			}
		}
		return out
	}
	for range 4 + r.IntN(20) {
		live, down := pick(false), pick(true)
		switch k := r.IntN(9); {
		case k <= 1 || len(live) < 2:
			var ns []timeline.NodeSpec
			for range 1 + r.IntN(2) {
				n := newNode()
				members = append(members, n.Name)
				ns = append(ns, n)
			}
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpAdd, Nodes: ns})
		case k == 2:
			v := live[r.IntN(len(live))]
			members = slices.DeleteFunc(members, func(m string) bool { return m == v })
			s.Steps = append(s.Steps, remove(v))
		case k == 3:
			v := live[r.IntN(len(live))]
			failed[v] = true
			s.Steps = append(s.Steps, fail(v))
		case k == 4 && len(down) > 0:
			for _, v := range down {
				delete(failed, v)
			}
			s.Steps = append(s.Steps, recover_(down...))
		case k == 5:
			v := members[r.IntN(len(members))]
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: v, Weight: 1 + r.IntN(4)}}})
		case k == 6:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpReplicas, Value: 1 + r.IntN(3)})
		case k == 7:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpVNodes, Value: 1 + r.IntN(12)})
		default:
			v := live[r.IntN(len(live))]
			failed[v] = true
			s.Steps = append(s.Steps, fail(v))
			if r.IntN(2) == 0 {
				delete(failed, v)
				s.Steps = append(s.Steps, recover_(v))
			}
		}
	}
	return s
}

// checkDeltaMatchesScratch replays s's one rule as the fast replay does
// (delta when the placer gives one, assign otherwise) and requires every
// step's lists to equal those of a new placer brought to that step and
// assigned from scratch. It returns how many steps came from a delta.
func checkDeltaMatchesScratch(t *testing.T, s *Scenario) int {
	t.Helper()
	tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	spec := s.Rules[0]
	e := &placer.Env{Keys: keys.NewKeySet(s.Keys, s.Seed), Nodes: tl.Nodes}
	p, err := registry.NewPlacer(spec, e)
	if err != nil {
		t.Fatal(err)
	}
	dp := p.(placer.DeltaPlacer)
	var cur [][]timeline.NodeID
	var d placer.Delta
	deltas := 0
	for i := range tl.States {
		st := &tl.States[i]
		p.Update(st)
		d.Reset(st.Replicas)
		if i > 0 && len(cur) == st.Replicas && dp.Delta(&d) {
			deltas++
			seen := map[uint32]bool{}
			for j, k := range d.Keys {
				if seen[k] {
					t.Fatalf("seed %d step %d: key %d twice in a delta", s.Seed, i, k)
				}
				seen[k] = true
				for r := range cur {
					cur[r][k] = d.Lists[r][j]
				}
			}
		} else {
			cur = placer.MakeLists(st.Replicas, e.Keys.Len())
			p.Assign(cur)
		}
		want := replayTo(spec, e, tl, i)
		for r := range want {
			if k := firstDiff(cur[r], want[r]); k >= 0 {
				t.Fatalf("seed %d step %d (%v): key %d rank %d: %d incrementally, %d from scratch",
					s.Seed, i, st.Op, k, r, cur[r][k], want[r][k])
			}
		}
	}
	return deltas
}

func firstDiff(a, b []timeline.NodeID) int {
	for k := range a {
		if a[k] != b[k] {
			return k
		}
	}
	return -1
}

// TestMultiprobeDeltaMatchesScratch: multiprobe's incremental steps give
// exactly the lists of a placement from scratch, on random scenarios with
// varied probe counts and points per unit of weight.
func TestMultiprobeDeltaMatchesScratch(t *testing.T) {
	t.Parallel()
	deltas := 0
	for seed := range int64(60) {
		spec := placer.RuleSpec{Kind: "multiprobe", Probes: []int{0, 1, 2, 5, 21, 40}[seed%6], VNodes: 1 + int(seed/6)%3}
		if seed%5 == 4 {
			spec.Hash = keys.HashNames[seed/5%int64(len(keys.HashNames))]
		}
		deltas += checkDeltaMatchesScratch(t, churnyScenario(seed, spec))
	}
	if deltas < 300 {
		t.Errorf("only %d steps came from a delta", deltas)
	}
}
