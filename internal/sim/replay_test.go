package sim

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// walkthrough is the "Ring" demo's opening: 900 keys, five nodes, ring
// against modulo.
func walkthrough(steps ...timeline.Step) *Scenario {
	return &Scenario{Name: "w", Title: "w", Seed: 1, Keys: keys.KeySpec{Count: 900},
		Nodes: names("a", "b", "c", "d", "e"), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "ring"}, {Kind: "modulo"}}, Steps: steps}
}

func TestLoadsSumToK(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), fail("b"), timeline.Step{Op: timeline.OpVNodes, Value: 1},
		timeline.Step{Op: timeline.OpReplicas, Value: 3}, recover_("b"), remove("a"), timeline.Step{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "c", Weight: 3}}}))
	for r, rr := range res.Rules {
		for i, sr := range rr.Steps {
			sum := 0
			for _, l := range sr.Loads {
				sum += l
			}
			if sum != 900 {
				t.Errorf("%s step %d: loads sum to %d, want 900", rr.Spec.Label, i, sum)
			}
			if i > 0 && sr.Moved < sr.Needed {
				t.Errorf("rule %d step %d: moved %d < needed %d", r, i, sr.Moved, sr.Needed)
			}
		}
	}
}

// TestRingAddMovesOnlyToNewNode: adding a node to a ring moves exactly the
// keys the new node now owns, all of them "gained", none collateral.
func TestRingAddMovesOnlyToNewNode(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), add("g", "h")))
	for i := 1; i <= 2; i++ {
		sr := res.Rules[0].Steps[i]
		newLoad := 0
		for _, id := range res.Timeline.States[i].Named {
			newLoad += sr.Loads[id]
		}
		if sr.Moved != newLoad || sr.Needed != sr.Moved || sr.Collateral() != 0 {
			t.Errorf("step %d: moved %d, needed %d, new nodes own %d; want all equal", i, sr.Moved, sr.Needed, newLoad)
		}
		lit := 0
		for _, c := range sr.Strip.KeyOrder {
			if c != 0 && c.Reason() != strips.ReasonGained {
				t.Fatalf("step %d: a cell shows keys moved for reason %d", i, c.Reason())
			}
			lit += c.Level() / strips.ShadeLevels // one key per cell: all of it or nothing
		}
		if got := sr.Strip.Moved; got != [strips.NumReasons]int{strips.ReasonGained: sr.Moved} || lit != sr.Moved {
			t.Errorf("step %d: strip counts %v moved keys in %d lit cells, want %d gained", i, got, lit, sr.Moved)
		}
	}
}

// TestRingRecurrences: fail then recover, and remove then re-add, return
// the ring to an earlier placement exactly; modulo does not return after
// a re-add because the node rejoins at the end of the order.
func TestRingRecurrences(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), fail("b"), recover_("b"), remove("c"), add("c")))
	ring, mod := res.Rules[0].Steps, res.Rules[1].Steps
	for _, tc := range []struct{ step, ring, mod int }{
		{1, -1, -1}, {2, -1, -1}, {3, 1, 1}, {4, -1, -1}, {5, 1, -1},
	} {
		if ring[tc.step].Recurs != tc.ring || mod[tc.step].Recurs != tc.mod {
			t.Errorf("step %d recurs: ring %d, modulo %d; want %d, %d",
				tc.step, ring[tc.step].Recurs, mod[tc.step].Recurs, tc.ring, tc.mod)
		}
	}
	if !slices.Equal(ownersAt(res, 0, 5), ownersAt(res, 0, 1)) {
		t.Error("ring after remove and re-add differs from before")
	}
	if ring[5].Fingerprint != ring[1].Fingerprint {
		t.Error("equal assignments have different fingerprints")
	}
}

// TestRecurrenceWithoutSnapshots checks the recompute path of exact
// recurrence detection gives the same answers as snapshots.
func TestRecurrenceWithoutSnapshots(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), fail("b"), recover_("b")))
	tr := newTracker(res, nil)
	tr.cur = [][]timeline.NodeID{ownersAt(res, 0, 3)}
	e := res.env()
	fp := res.Rules[0].Steps[1].Fingerprint
	tr.seen[fp] = []int{1} // no snapshot kept for step 1
	got := tr.recurs(3, fp, func(step int) [][]timeline.NodeID { return replayTo(res.Rules[0].Spec, e, res.Timeline, step) })
	if got != 1 {
		t.Errorf("recurs = %d, want 1", got)
	}
}

// TestModuloAddMovesNOverNPlusOne: growing modulo from n to n+1 buckets
// keeps a key only when h mod n = h mod (n+1), i.e. for n of every
// n(n+1) hash values, so n/(n+1) of keys move. On 100,000 keys the
// binomial standard deviation is under 0.0013; the tolerance is 0.006.
func TestModuloAddMovesNOverNPlusOne(t *testing.T) {
	for _, n := range []int{2, 5, 10} {
		s := &Scenario{Name: "m", Title: "m", Seed: 3, Keys: keys.KeySpec{Count: 100000},
			Nodes: nodeNames(n), Rules: []placer.RuleSpec{{Kind: "modulo"}}, Steps: []timeline.Step{add("extra")}}
		res := mustReplay(t, s)
		got := float64(res.Rules[0].Steps[1].Moved) / 100000
		want := float64(n) / float64(n+1)
		if math.Abs(got-want) > 0.006 {
			t.Errorf("n=%d: moved fraction %.4f, want %.4f ± 0.006", n, got, want)
		}
	}
}

// TestRingIndependentOfJoinOrder: the ring depends on the node set only.
func TestRingIndependentOfJoinOrder(t *testing.T) {
	a := mustReplay(t, &Scenario{Name: "a", Seed: 1, Keys: keys.KeySpec{Count: 2000},
		Nodes: names("a", "b", "c"), Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 50}}})
	b := mustReplay(t, &Scenario{Name: "b", Seed: 1, Keys: keys.KeySpec{Count: 2000},
		Nodes: names("c", "a", "b"), Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 50}}})
	if a.Rules[0].Steps[0].Fingerprint != b.Rules[0].Steps[0].Fingerprint {
		t.Error("ring assignment depends on join order")
	}
}

// TestRingCollisionTiebreak: "n512789#0" and "n749192#0" hash to the same
// position (96934822, found by search). A key at exactly that position
// must go to the smaller name whichever joined first.
func TestRingCollisionTiebreak(t *testing.T) {
	const pos = 96934822
	if keys.Hash32("n512789#0") != pos || keys.Hash32("n749192#0") != pos {
		t.Fatal("the colliding names no longer collide")
	}
	for _, order := range [][]string{{"n512789", "n749192"}, {"n749192", "n512789"}} {
		res := mustReplay(t, &Scenario{Name: "c", Seed: 1, Keys: keys.KeySpec{Count: 1},
			Nodes: names(order...), Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 1}}})
		e := res.env()
		p := ringrules.NewRing(placer.RuleSpec{VNodes: 1}, e)
		notes := p.Update(&res.Timeline.States[0])
		if got := res.Timeline.Nodes[p.Pts[p.First(pos)].Node]; got != "n512789" {
			t.Errorf("join order %v: position %d goes to %s, want n512789", order, pos, got)
		}
		if len(notes) != 1 {
			t.Errorf("join order %v: notes %q, want one collision note", order, notes)
		}
	}
}

func TestIdealExact(t *testing.T) {
	members := func(n int) timeline.State {
		var st timeline.State
		for i := range n {
			st.Members = append(st.Members, timeline.Member{ID: timeline.NodeID(i), Weight: 1})
		}
		return st
	}
	six := members(6)
	if got := ideal([]int{180, 180, 180, 180, 180, 0}, &six, 900); got != 150 {
		t.Errorf("5→6 nodes on 900 keys: ideal %d, want 150", got)
	}
	three := members(3)
	// Shares 333⅓: the best target is 334/333/333, reached in 333 moves.
	if got := ideal([]int{500, 500, 0}, &three, 1000); got != 333 {
		t.Errorf("ideal = %d, want 333", got)
	}
	three.Members[2].Failed = true
	// Two live nodes, shares 500: the failed node's 40 keys must move.
	if got := ideal([]int{480, 480, 40}, &three, 1000); got != 40 {
		t.Errorf("ideal with a failed node = %d, want 40", got)
	}
}

func TestReplicas(t *testing.T) {
	s := walkthrough(timeline.Step{Op: timeline.OpReplicas, Value: 3}, fail("a"), fail("b"), fail("c"), recover_("a"))
	res := mustReplay(t, s)
	ring := res.Rules[0].Steps
	if ring[1].Moved != 0 || ring[1].Copies != 1800 || ring[1].ReplicaMoved != 900 {
		t.Errorf("replicas 1→3: moved %d copies %d replica_moved %d; want 0, 1800, 900",
			ring[1].Moved, ring[1].Copies, ring[1].ReplicaMoved)
	}
	if ring[3].UnderReplicated != 0 || ring[4].UnderReplicated != 900 {
		t.Errorf("under-replicated with 3 then 2 live nodes: %d, %d; want 0, 900",
			ring[3].UnderReplicated, ring[4].UnderReplicated)
	}
}

// TestWithoutFigureData: the copy drops strips and geometry, keeps every
// other field, and leaves the original untouched.
func TestWithoutFigureData(t *testing.T) {
	s := &Scenario{Name: "t", Title: "t", Seed: 1, Keys: keys.KeySpec{Count: 500}, Nodes: nodeNames(4),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 8}}, Steps: []timeline.Step{add("x")}}
	res, err := Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	lean := res.WithoutFigureData()
	for j, sr := range res.Rules[0].Steps {
		got := lean.Rules[0].Steps[j]
		if got.Arcs != nil || got.Points != nil || got.Strip.KeyOrder != nil || got.Strip.HashOrder != nil {
			t.Errorf("step %d keeps figure data", j)
		}
		if sr.Points == nil || sr.Strip.KeyOrder == nil && j > 0 {
			t.Errorf("step %d: the original lost its figure data", j)
		}
		sr.Strip, sr.Arcs, sr.Points = strips.Strip{}, nil, nil
		if !reflect.DeepEqual(got, sr) {
			t.Errorf("step %d differs beyond figure data:\n%+v\n%+v", j, got, sr)
		}
	}
	if lean.Keys != res.Keys || lean.Timeline != res.Timeline || lean.Scenario != res.Scenario {
		t.Error("the copy does not share the inputs")
	}
}

// TestStreams checks the replica streaming against the copies: every copy
// has one receiver and one live sender or is unsourced, and growing the
// preference list from 1 to 3 streams every key's two new copies from its
// primary.
func TestStreams(t *testing.T) {
	s := walkthrough(timeline.Step{Op: timeline.OpReplicas, Value: 3}, fail("a"), fail("b"), recover_("a"), add("f"), remove("c"))
	res := mustReplay(t, s)
	for r, rr := range res.Rules {
		for i, sr := range rr.Steps[1:] {
			st := sr.Streams
			if st == nil {
				t.Fatalf("%s step %d: no streams with replicas 3", rr.Spec.Label, i+1)
			}
			in, out := sum(st.Received), sum(st.Sent)
			if in != sr.Copies || out+st.Unsourced != sr.Copies {
				t.Errorf("%s step %d: %d copies, received %d, sent %d + unsourced %d", rr.Spec.Label, i+1, sr.Copies, in, out, st.Unsourced)
			}
			for id, n := range st.Sent {
				if n > 0 && !isLive(&res.Timeline.States[i+1], timeline.NodeID(id)) {
					t.Errorf("%s step %d: failed or gone node %s sends %d copies", rr.Spec.Label, i+1, res.Timeline.Nodes[id], n)
				}
			}
		}
		if r == 0 {
			if st := rr.Steps[1].Streams; sum(st.Sent) != 1800 || st.Unsourced != 0 {
				t.Errorf("replicas 1→3: sent %d, unsourced %d; want 1800, 0", sum(st.Sent), st.Unsourced)
			}
		}
	}
	if res.Rules[0].Steps[0].Streams != nil {
		t.Error("streams at step 0")
	}
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

func isLive(s *timeline.State, id timeline.NodeID) bool {
	m, ok := s.Member(id)
	return ok && !m.Failed
}
