package sim

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

// TestOptimum pins the classic optimum on the walkthrough (900 keys, five
// nodes a–e of weight 1) at every kind of step, against values worked
// out by hand.
func TestOptimum(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), fail("b"), recover_("b"),
		timeline.Step{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 4}}}, timeline.Step{Op: timeline.OpVNodes, Value: 8},
		timeline.Step{Op: timeline.OpReplicas, Value: 2}, remove("c", "d"), add("g", "h", "i")))
	id := func(name string) timeline.NodeID { return timeline.NodeID(slices.Index(res.Timeline.Nodes, name)) }
	for r, rr := range res.Rules {
		held := func(i int, names ...string) int {
			n := 0
			for _, name := range names {
				n += rr.Steps[i].Loads[id(name)]
			}
			return n
		}
		want := []struct {
			n  int
			ok bool
		}{
			{0, false},                // step 0: nothing changed
			{150, true},               // add f to five: 900/6
			{held(1, "b"), true},      // fail b: the keys b held under this rule
			{150, true},               // recover b: 900/6
			{250, true},               // a's weight 1 → 4 (W' = 9): a 150 → 400, five others 150 → 100: ½·(250 + 5·50)
			{0, false},                // vnodes: a reconfiguration
			{0, false},                // replicas: a reconfiguration
			{held(6, "c", "d"), true}, // remove c and d: what they held
			{270, true},               // add g, h, i to a (4), b, e, f: 900·3/10
		}
		for i, w := range want {
			n, ok := res.Optimum(r, i)
			if n != w.n || ok != w.ok {
				t.Errorf("%s step %d (%v): optimum %d, %v; want %d, %v", rr.Spec.Label, i, res.Timeline.States[i].Op, n, ok, w.n, w.ok)
			}
		}
		if rr.Spec.Kind == "ring" && held(1, "b") == 150 {
			t.Errorf("ring holds exactly b's fair share on b: the failure's case cannot tell held keys from shares")
		}
	}
}

// TestOptimumRounds checks the rounding of a fair share: 900 keys over
// eight nodes is 112.5 per node, which rounds up, and 1,000 over seven is
// 142.86, which rounds to 143.
func TestOptimumRounds(t *testing.T) {
	for _, tc := range []struct{ keys, nodes, want int }{{900, 7, 113}, {1000, 6, 143}, {1000, 7, 125}} {
		s := walkthrough(add("new"))
		s.Keys.Count, s.Nodes = tc.keys, nodeNames(tc.nodes)
		res := mustReplay(t, s)
		if n, ok := res.Optimum(0, 1); n != tc.want || !ok {
			t.Errorf("%d keys, %d nodes + 1: optimum %d, %v; want %d", tc.keys, tc.nodes, n, ok, tc.want)
		}
	}
}

// TestShareShiftExact compares shareShift with the same sum in exact
// rational arithmetic on random memberships at the limits: weights up to
// 10,000, up to 2,000 nodes, up to 2⁴⁰ keys, where k·P overflows 64 bits.
func TestShareShiftExact(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(16, 1))
	for trial := range 300 {
		n := 1 + rng.IntN(2000)
		k := 1 + rng.IntN(1<<40)
		prev, st := &timeline.State{}, &timeline.State{}
		for id := range n {
			m := timeline.Member{ID: timeline.NodeID(id), Weight: 1 + rng.IntN(10_000), Failed: rng.IntN(4) == 0}
			if rng.IntN(3) > 0 {
				prev.Members = append(prev.Members, m)
			}
			m.Weight, m.Failed = 1+rng.IntN(10_000), rng.IntN(4) == 0
			if rng.IntN(3) > 0 {
				st.Members = append(st.Members, m)
			}
		}
		if totalWeight(prev) == 0 || totalWeight(st) == 0 {
			continue
		}
		if got, want := shareShift(prev, st, n, k), exactShift(prev, st, n, k); got != want {
			t.Fatalf("trial %d (%d nodes, %d keys): shareShift %d, exact %d", trial, n, k, got, want)
		}
	}
}

// exactShift is ½·Σ|T'_i − T_i| rounded half up, in exact arithmetic:
// with T_i = k·w_i/W and T'_i = k·w'_i/W' (0 for a node not live), each
// term is k·|w'_i·W − w_i·W'| / (W·W'), an integer over one denominator,
// so the sum is k·S/(W·W') with S a sum of integers below 2⁶³, and the
// rational is rounded once.
func exactShift(prev, st *timeline.State, n, k int) int {
	weights := func(s *timeline.State) ([]int64, int64) {
		w, total := make([]int64, n), int64(0)
		for _, m := range s.Members {
			if !m.Failed {
				w[m.ID] = int64(m.Weight)
				total += int64(m.Weight)
			}
		}
		return w, total
	}
	a, wa := weights(prev)
	b, wb := weights(st)
	var sum int64
	for i := range n {
		d := b[i]*wa - a[i]*wb
		sum += max(d, -d)
	}
	shift := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(k)), big.NewInt(sum)), new(big.Int).Mul(big.NewInt(wa), big.NewInt(wb)))
	shift.Mul(shift, big.NewRat(1, 2)).Add(shift, big.NewRat(1, 2))
	return int(new(big.Int).Quo(shift.Num(), shift.Denom()).Int64())
}

// TestCheckSkipsUndefined checks that an expectation on optimum covers
// only the steps where it is defined, and that one covering none of them
// has not passed.
func TestCheckSkipsUndefined(t *testing.T) {
	s := walkthrough(add("f"), timeline.Step{Op: timeline.OpVNodes, Value: 8})
	s.Expect = []Expectation{
		{Step: -1, Rule: "ring", Metric: "optimum", Op: ">", Value: 0},
		{Step: 2, Metric: "optimum", Op: ">=", Value: 0},
	}
	got := mustReplay(t, s).Check()
	if o := got[0]; o.Checked != 1 || !o.Passed() || o.Step != 1 || o.Value != 150 {
		t.Errorf("optimum > 0 at every step: %+v; want step 1 alone checked, 150, passed", o)
	}
	if o := got[1]; o.Checked != 0 || o.Passed() {
		t.Errorf("optimum at a vnodes step: %+v; want nothing checked and not passed", o)
	}
}
