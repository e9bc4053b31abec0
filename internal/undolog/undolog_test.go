package undolog

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

// replayed records steps of random changes to an assignment of k keys
// over 4 owners into a history of the given budget, the way the tracker
// does, and returns it with the assignment after every step. Step s
// changes few keys (a sparse log) when s is odd, most of them (a dense
// one) when s%4 == 2, and returns to step s−2's assignment when s%4 == 0,
// which it notes as a recurrence (Bridge).
func replayed(k, steps, budget int) (*History, [][]timeline.NodeID) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := New(k, budget)
	cur := make([]timeline.NodeID, k)
	states := [][]timeline.NodeID{slices.Clone(cur)}
	for s := 1; s < steps; s++ {
		next := slices.Clone(cur)
		switch {
		case s%4 == 0:
			next = slices.Clone(states[s-2])
		case s%2 == 1:
			for range 3 {
				next[rng.IntN(k)] = timeline.NodeID(rng.IntN(4))
			}
		default:
			for key := range next {
				next[key] = timeline.NodeID(rng.IntN(4))
			}
		}
		h.Open(s, cur)
		for key, o := range next {
			if cur[key] != o {
				h.Record(key, cur[key])
				cur[key] = o
			}
		}
		h.Close()
		if s%4 == 0 {
			h.Bridge(s, s-2)
		}
		h.Trim()
		states = append(states, slices.Clone(cur))
	}
	return h, states
}

// TestEqualsAtMatchesAssignments: through sparse logs, dense logs and
// mixes of both, EqualsAt tells whether an earlier step's assignment
// equals the last one exactly when the two assignments are equal.
func TestEqualsAtMatchesAssignments(t *testing.T) {
	const k, steps = 60, 13 // the last step returns to step 10's assignment
	h, states := replayed(k, steps, 1<<20)
	last := steps - 1
	cur := slices.Clone(states[last])
	equal := 0
	for j := range last {
		p, ok := h.Path(j, last)
		if !ok {
			t.Fatalf("step %d: no path back from step %d within an ample budget", j, last)
		}
		want := slices.Equal(states[j], states[last])
		if got := h.EqualsAt(cur, p); got != want {
			t.Errorf("step %d: EqualsAt %v, assignments equal %v", j, got, want)
		}
		if !slices.Equal(cur, states[last]) {
			t.Fatalf("step %d: EqualsAt changed the current assignment", j)
		}
		equal += b2i(want)
	}
	if equal == 0 {
		t.Fatal("no earlier step equals the last: the test checks only inequality")
	}
}

// TestBudgetDropsOldLogs: a budget too small for every log drops the
// oldest, so that a walk back to step 0 reports a dropped log rather
// than comparing wrongly.
func TestBudgetDropsOldLogs(t *testing.T) {
	const k, steps = 60, 12
	h, _ := replayed(k, steps, 2*k)
	if _, ok := h.Path(0, steps-1); ok {
		t.Fatalf("a path back to step 0 within %d bytes, which hold one dense log", 2*k)
	}
	if _, ok := h.Path(steps-2, steps-1); !ok {
		t.Fatal("the last step's own log was dropped")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
