package sim

import (
	"fmt"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/timeline"
	"math/rand/v2"
	"slices"
	"testing"
)

// churnyScenario is a random scenario for delta tests: adds with weights,
// removals, failures and recoveries of one or several nodes at once,
// weight, replicas and vnodes steps, over a few hundred to a few thousand
// keys (sometimes an explicit list with duplicates).
func churnyScenario(seed int64, spec RuleSpec) *Scenario {
	r := rand.New(rand.NewPCG(uint64(seed), 17))
	s := &Scenario{Name: "d", Title: "d", Seed: uint64(seed), Replicas: 1 + r.IntN(3),
		Keys: keys.KeySpec{Count: 100 + r.IntN(2500)}, Rules: []RuleSpec{spec}}
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
	e := &env{keys: keys.NewKeySet(s.Keys, s.Seed), nodes: tl.Nodes}
	p, err := newPlacer(spec, e)
	if err != nil {
		t.Fatal(err)
	}
	dp := p.(deltaPlacer)
	var cur [][]timeline.NodeID
	var d delta
	deltas := 0
	for i := range tl.States {
		st := &tl.States[i]
		p.update(st)
		d.reset(st.Replicas)
		if i > 0 && len(cur) == st.Replicas && dp.delta(&d) {
			deltas++
			seen := map[uint32]bool{}
			for j, k := range d.keys {
				if seen[k] {
					t.Fatalf("seed %d step %d: key %d twice in a delta", s.Seed, i, k)
				}
				seen[k] = true
				for r := range cur {
					cur[r][k] = d.lists[r][j]
				}
			}
		} else {
			cur = makeLists(st.Replicas, e.keys.Len())
			p.assign(cur)
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
	deltas := 0
	for seed := range int64(60) {
		spec := RuleSpec{Kind: "multiprobe", Probes: []int{0, 1, 2, 5, 21, 40}[seed%6], VNodes: 1 + int(seed/6)%3}
		if seed%5 == 4 {
			spec.Hash = keys.HashNames[seed/5%int64(len(keys.HashNames))]
		}
		deltas += checkDeltaMatchesScratch(t, churnyScenario(seed, spec))
	}
	if deltas < 300 {
		t.Errorf("only %d steps came from a delta", deltas)
	}
}

// TestProbeGap: probeGap is the minimum over the probes, for every probe
// count including those that are not a multiple of its three lanes.
func TestProbeGap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, d, k := r.Uint32(), r.Uint32()|1, 1+r.IntN(50)
		want := ^uint32(0)
		for j := range uint32(k) {
			want = min(want, a-j*d)
		}
		if got := probeGap(a, d, k); got != want {
			t.Fatalf("probeGap(%d, %d, %d) = %d, want %d", a, d, k, got, want)
		}
	}
}

// TestGapBound: the bucketed bound never exceeds the exact least distance
// from a key's probes to the arrivals (so no capture is missed), and
// equals it for probes with no arrival after them in their bucket.
func TestGapBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := &multiprobe{k: 21}
	for trial := range 300 {
		arrive := make([]uint32, 1+r.IntN(300))
		for i := range arrive {
			arrive[i] = r.Uint32()
			if trial%3 == 0 {
				arrive[i] >>= 20 // crowded near 0, many per bucket
			}
		}
		slices.Sort(arrive)
		ix := newArrivalIndex(arrive)
		for range 50 {
			h := r.Uint32()
			exact, bound := p.gap(h, arrive), p.gapBound(h, ix)
			if bound > exact {
				t.Fatalf("trial %d, h %d: bound %d above the exact gap %d", trial, h, bound, exact)
			}
			if bound < exact && !p.sharesBucket(h, arrive, ix) {
				t.Fatalf("trial %d, h %d: bound %d below the exact gap %d with no arrival after a probe in its bucket", trial, h, bound, exact)
			}
		}
	}
}

// sharesBucket reports whether a probe of the key at h has an arrival at
// or after it in its bucket.
func (p *multiprobe) sharesBucket(h uint32, arrive []uint32, ix *arrivalIndex) bool {
	d := keys.Fmix32(h+0x9e3779b9) | 1
	for j := range uint32(p.k) {
		x := h + j*d
		for _, q := range arrive {
			if q>>ix.shift == x>>ix.shift && q >= x {
				return true
			}
		}
	}
	return false
}
