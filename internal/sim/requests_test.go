package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// withWeights returns s with Zipf-weighted keys, or with a weighted key list
// when list is set.
func withWeights(s *Scenario, list bool) *Scenario {
	c := *s
	if list {
		n := s.Keys.Count
		c.Keys = keys.KeySpec{List: make([]string, n), Weights: make([]uint32, n)}
		for i := range n {
			c.Keys.List[i] = "k" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
			c.Keys.Weights[i] = uint32(i * 7 % 13)
		}
		return &c
	}
	c.Keys.Zipf, c.Keys.Requests = 0.6+float64(s.Seed%5)*0.3, 5000
	return &c
}

// TestIncrementalMatchesFullWeighted: with weighted keys, the request
// loads, moved requests, transfers and hot owners of the fast replay equal
// the reference's.
func TestIncrementalMatchesFullWeighted(t *testing.T) {
	t.Parallel()
	compareReplays(t, withWeights(churnScenario(700), false))
	for seed := range int64(30) {
		compareReplays(t, withWeights(randomScenario(seed), seed%3 == 0))
	}
}

// TestTransferInvariants: at every step of every rule, request loads sum
// to the key set's requests, transfers sum to moved (and moved requests),
// and every node's keys received minus keys sent is its change in load
// (requests likewise).
func TestTransferInvariants(t *testing.T) {
	for seed := range int64(20) {
		s := withWeights(randomScenario(seed), seed%4 == 1)
		res := mustReplay(t, s)
		for _, rr := range res.Rules {
			for i, sr := range rr.Steps {
				checkTransfers(t, res, rr.Spec.Label, i, rr.Steps)
				_ = sr
			}
		}
	}
	res := mustReplay(t, churnScenario(300))
	for _, rr := range res.Rules {
		for i, sr := range rr.Steps {
			if sr.Requests != nil || sr.HotOwners != nil || sr.MovedRequests != 0 {
				t.Fatalf("unweighted %s step %d has request figures", rr.Spec.Label, i)
			}
			checkTransfers(t, res, rr.Spec.Label, i, rr.Steps)
		}
	}
}

func checkTransfers(t *testing.T, res *Result, label string, i int, steps []StepResult) {
	t.Helper()
	sr := &steps[i]
	n := len(res.Timeline.Nodes)
	if sr.Requests != nil {
		var sum int64
		for _, r := range sr.Requests {
			sum += r
		}
		if sum != res.Keys.Requests {
			t.Fatalf("seed %d %s step %d: requests sum to %d, want %d", res.Scenario.Seed, label, i, sum, res.Keys.Requests)
		}
	}
	if !res.AllTransfers() {
		t.Fatalf("%s step %d: a small replay dropped its pairs", label, i)
	}
	all := sr.Transfers.All
	keys, reqs := 0, int64(0)
	dk, dr := make([]int, n), make([]int64, n)
	received := make([]int, n)
	for id, by := range sr.Transfers.Received {
		for _, c := range by {
			received[id] += int(c)
		}
	}
	for j, tr := range all {
		if tr.Keys <= 0 || tr.From == tr.To {
			t.Fatalf("%s step %d: bad transfer %+v", label, i, tr)
		}
		if j > 0 && (all[j-1].From > tr.From || all[j-1].From == tr.From && all[j-1].To >= tr.To) {
			t.Fatalf("%s step %d: transfers out of order: %+v", label, i, all)
		}
		keys += tr.Keys
		reqs += tr.Requests
		dk[tr.To] += tr.Keys
		dk[tr.From] -= tr.Keys
		dr[tr.To] += tr.Requests
		dr[tr.From] -= tr.Requests
		received[tr.To] -= tr.Keys
	}
	if slices.ContainsFunc(received, func(n int) bool { return n != 0 }) {
		t.Fatalf("%s step %d: keys received by reason %v differ from the pairs' by %v", label, i, sr.Transfers.Received, received)
	}
	if got := sr.Transfers.Pairs(); got != len(all) {
		t.Fatalf("%s step %d: %d pairs in Top and Rest, %d in All", label, i, got, len(all))
	}
	if keys != sr.Moved || reqs != sr.MovedRequests {
		t.Fatalf("%s step %d: transfers hold %d keys, %d requests; moved %d, %d", label, i, keys, reqs, sr.Moved, sr.MovedRequests)
	}
	if i == 0 {
		return
	}
	prev := &steps[i-1]
	for id := range n {
		if got := sr.Loads[id] - prev.Loads[id]; got != dk[id] {
			t.Fatalf("%s step %d node %d: in − out = %d, load change %d", label, i, id, dk[id], got)
		}
		if sr.Requests != nil && sr.Requests[id]-prev.Requests[id] != dr[id] {
			t.Fatalf("%s step %d node %d: requests in − out = %d, change %d", label, i, id, dr[id], sr.Requests[id]-prev.Requests[id])
		}
	}
}

// TestPairCounterSorted: the sorted counter of large node tables gives
// what the dense one gives, through a comparison sort (few moves) and
// through the radix passes (many), and flush clears both.
func TestPairCounterSorted(t *testing.T) {
	for _, moves := range []int{5, 3 * radixMin} {
		dense, sorted := newPairCounter(300), newPairCounter(300)
		sorted.keys, sorted.reqs = nil, nil
		rng := rand.New(rand.NewPCG(uint64(moves), 1))
		for range moves {
			from, to, w := timeline.NodeID(rng.IntN(300)), timeline.NodeID(rng.IntN(40)), uint32(rng.IntN(1000))
			dense.add(from, to, w)
			sorted.add(from, to, w)
		}
		a, ma := dense.flush(nil)
		b, mb := sorted.flush(nil)
		if !reflect.DeepEqual(a, b) || ma != mb || len(a) < 2 {
			t.Fatalf("%d moves: dense %v %d, sorted %v %d", moves, a, ma, b, mb)
		}
		if c, _ := dense.flush(nil); len(c) != 0 {
			t.Fatalf("flush did not clear: %v", c)
		}
		if c, _ := sorted.flush(nil); len(c) != 0 {
			t.Fatalf("flush did not clear: %v", c)
		}
	}
}

// TestTopPairs: the pairs kept by name are the largest, ties to the
// earlier pair, in From, To order, and Rest sums the others; a step with
// few pairs keeps them all.
func TestTopPairs(t *testing.T) {
	var ts []Transfer
	for i := range 20 {
		ts = append(ts, Transfer{From: timeline.NodeID(i), To: timeline.NodeID(i + 1), Keys: 5 + i%2, Requests: int64(i)})
	}
	var heap []int32
	kept, rest := topPairs(ts, 7, &heap)
	want := []int{1, 3, 5, 7, 9, 11, 13} // the ten 6s, the earliest seven of them
	if len(kept) != len(want) {
		t.Fatalf("kept %v", kept)
	}
	for i, k := range kept {
		if int(k.From) != want[i] {
			t.Fatalf("kept %v, want froms %v", kept, want)
		}
	}
	if rest.Pairs != 13 || rest.Keys != 3*6+10*5 || rest.Requests != 190-(1+3+5+7+9+11+13) {
		t.Errorf("rest %+v", rest)
	}
	if ref := referenceTop(ts); len(ts) <= TopTransfers && (len(ref.Top) != 20 || ref.Rest != (TransferRest{})) {
		t.Errorf("reference %+v", ref)
	}
	if kept, rest := topPairs(ts, 20, &heap); len(kept) != 20 || rest != (TransferRest{}) {
		t.Errorf("all kept: %d, rest %+v", len(kept), rest)
	}
}

// TestRequestMetrics: the request metrics are known only with weights.
func TestRequestMetrics(t *testing.T) {
	t.Parallel()
	plain := mustReplay(t, churnScenario(200))
	if _, ok := plain.Metric("request_peak_to_mean", 0, 0); ok {
		t.Errorf("unweighted replay has request_peak_to_mean")
	}
	res := mustReplay(t, withWeights(churnScenario(200), false))
	for _, name := range []string{"moved_requests", "request_peak_to_mean", "request_worst_deviation"} {
		if _, ok := res.Metric(name, 0, 1); !ok {
			t.Errorf("weighted replay lacks %s", name)
		}
	}
	b, _ := res.RequestBalance(0, 0)
	if b.PeakToMean < 1 || b.WorstDeviation < b.PeakToMean-1 {
		t.Errorf("request balance %+v", b)
	}
}

// TestTransfersManyNodes: over more nodes than a dense pair table holds
// (the sorted counter), a rule that reshuffles (modulo, jump's
// renumbering) and one that does not give the reference's transfers:
// the largest pairs, the rest, every pair, the keys received by reason
// and the run totals, with and without request counts.
func TestTransfersManyNodes(t *testing.T) {
	t.Parallel()
	n := DenseTransferNodes + 88
	s := &Scenario{Name: "many", Title: "many", Seed: 2, Keys: keys.KeySpec{Count: 40_000}, Nodes: nodeNames(n), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "modulo"}, {Kind: "jump"}, {Kind: "ring", VNodes: 4}},
		Steps: []timeline.Step{add("extra"), remove(benchNode(3)), fail(benchNode(9)), recover_(benchNode(9))}}
	compareReplays(t, s)
	compareReplays(t, withWeights(s, false))
	res := mustReplay(t, s)
	if p := res.Rules[0].Steps[1].Transfers.Pairs(); p < 10*TopTransfers {
		t.Fatalf("modulo moved keys between %d pairs; the test wants many more than %d", p, TopTransfers)
	}
}

// TestPairBudget: a replay with more than MaxKeptPairs pairs in all keeps
// no whole list, and the same bounded transfers; with AllPairs it keeps
// every list.
func TestPairBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200,000 keys over 800 nodes three times")
	}
	s := &Scenario{Name: "budget", Title: "budget", Seed: 4, Keys: keys.KeySpec{Count: 200_000}, Nodes: nodeNames(800), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "modulo"}}, Steps: []timeline.Step{add("x"), add("y"), add("z"), add("w")}}
	bounded := mustReplay(t, s)
	all, err := ReplayWith(s, Options{AllPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	pairs := 0
	for i, sr := range all.Rules[0].Steps {
		pairs += len(sr.Transfers.All)
		got := bounded.Rules[0].Steps[i].Transfers
		if got.All != nil {
			t.Fatalf("step %d keeps %d pairs past the budget", i, len(got.All))
		}
		want := sr.Transfers
		want.All = nil
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: bounded transfers differ from those of the replay keeping every pair", i)
		}
	}
	if pairs <= MaxKeptPairs || bounded.AllTransfers() || !all.AllTransfers() {
		t.Fatalf("%d pairs against a budget of %d: all kept %v, with AllPairs %v", pairs, MaxKeptPairs, bounded.AllTransfers(), all.AllTransfers())
	}
	one, err := ReplayWith(s, Options{AllPairs: true, AllPairsStep: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, sr := range one.Rules[0].Steps {
		want := all.Rules[0].Steps[i].Transfers.All
		if i != 2 {
			want = nil
		}
		if !reflect.DeepEqual(sr.Transfers.All, want) || one.AllTransfersAt(i) != (i == 2 || i == 0) {
			t.Fatalf("AllPairsStep 2, step %d: %d pairs kept (at %v), want %d", i, len(sr.Transfers.All), one.AllTransfersAt(i), len(want))
		}
	}
	if one.AllTransfers() || bounded.AllTransfersAt(2) || !all.AllTransfersAt(2) {
		t.Errorf("AllTransfers with one step kept: %v; bounded at step 2: %v; all at step 2: %v", one.AllTransfers(), bounded.AllTransfersAt(2), all.AllTransfersAt(2))
	}
}

// TestLocalKindsMoveOnlyNamedNodes: a kind whose footprint says Local
// (the cost model bounds its transfer pairs by it) moves keys at an add,
// remove, fail or recover only to or from the nodes the step names, in
// random scenarios that replay every such kind.
func TestLocalKindsMoveOnlyNamedNodes(t *testing.T) {
	t.Parallel()
	membership := map[timeline.Op]bool{timeline.OpAdd: true, timeline.OpRemove: true, timeline.OpFail: true, timeline.OpRecover: true}
	tested := map[string]bool{}
	for seed := range int64(40) {
		res := mustReplay(t, randomScenario(seed))
		for _, rr := range res.Rules {
			k := registry.KindOf(rr.Spec.Kind)
			if k == nil || !k.Footprint.Local {
				continue
			}
			tested[k.Name] = true
			for i, sr := range rr.Steps {
				st := &res.Timeline.States[i]
				if !membership[st.Op] {
					continue
				}
				for _, tr := range sr.Transfers.All {
					if !slices.Contains(st.Named, tr.From) && !slices.Contains(st.Named, tr.To) {
						t.Fatalf("seed %d, %s step %d (%v %v): %d keys moved from %d to %d, neither named", seed, rr.Spec.Label, i, st.Op, st.Named, tr.Keys, tr.From, tr.To)
					}
				}
			}
		}
	}
	for _, k := range registry.Kinds {
		if k.Footprint.Local && !tested[k.Name] {
			t.Errorf("kind %s says Local but randomScenario does not replay it", k.Name)
		}
	}
}
