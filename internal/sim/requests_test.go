package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/timeline"
	"reflect"
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
	keys, reqs := 0, int64(0)
	dk, dr := make([]int, n), make([]int64, n)
	for j, tr := range sr.Transfers {
		if tr.Keys <= 0 || tr.From == tr.To {
			t.Fatalf("%s step %d: bad transfer %+v", label, i, tr)
		}
		if j > 0 && (sr.Transfers[j-1].From > tr.From || sr.Transfers[j-1].From == tr.From && sr.Transfers[j-1].To >= tr.To) {
			t.Fatalf("%s step %d: transfers out of order: %+v", label, i, sr.Transfers)
		}
		keys += tr.Keys
		reqs += tr.Requests
		dk[tr.To] += tr.Keys
		dk[tr.From] -= tr.Keys
		dr[tr.To] += tr.Requests
		dr[tr.From] -= tr.Requests
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

// TestPairCounterMap: the map counter of large node tables gives what
// the dense one gives.
func TestPairCounterMap(t *testing.T) {
	dense, sparse := newPairCounter(4), newPairCounter(4)
	sparse.keys, sparse.reqs, sparse.m = nil, nil, map[uint32]*Transfer{}
	for _, c := range [][3]int{{3, 1, 5}, {0, 2, 1}, {3, 1, 2}, {0, 1, 0}, {2, 0, 9}} {
		dense.add(timeline.NodeID(c[0]), timeline.NodeID(c[1]), uint32(c[2]))
		sparse.add(timeline.NodeID(c[0]), timeline.NodeID(c[1]), uint32(c[2]))
	}
	a, ma := dense.flush(nil)
	b, mb := sparse.flush(nil)
	if !reflect.DeepEqual(a, b) || ma != mb || ma != 17 || len(a) != 4 || a[3] != (Transfer{3, 1, 2, 7}) {
		t.Fatalf("dense %v %d, map %v %d", a, ma, b, mb)
	}
	if c, _ := dense.flush(nil); c != nil {
		t.Fatalf("flush did not clear: %v", c)
	}
}

// TestRequestMetrics: the request metrics are known only with weights.
func TestRequestMetrics(t *testing.T) {
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
