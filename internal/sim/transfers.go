package sim

import (
	"maps"
	"slices"

	"github.com/ringreport/ringreport/internal/timeline"
)

// This file measures who ships keys to whom, and the request loads, from
// the keys that changed owner in a step. The tracker's undo log of the
// step already lists them (sparse: each moved key and its old owner;
// dense, when more than a third moved: the whole previous assignment), so
// the transfers are one pass over the log after the step, and a step that
// moves few keys costs little here too.

// denseTransferNodes is the largest node table whose transfer counts are
// kept in an n×n array; larger tables count in a map.
const denseTransferNodes = 512

// pairCounter counts moved keys and their requests per (from, to) pair.
type pairCounter struct {
	n       int
	keys    []int32 // n×n, by from·n + to, when n ≤ denseTransferNodes
	reqs    []int64
	touched []uint32 // cells of keys that are non-zero
	m       map[uint32]*Transfer
}

func newPairCounter(n int) pairCounter {
	p := pairCounter{n: n}
	if n <= denseTransferNodes {
		p.keys, p.reqs = make([]int32, n*n), make([]int64, n*n)
	} else {
		p.m = map[uint32]*Transfer{}
	}
	return p
}

// add counts one key of weight w moved from one node to another.
func (p *pairCounter) add(from, to timeline.NodeID, w uint32) {
	if p.m != nil {
		key := uint32(from)<<16 | uint32(to)
		t := p.m[key]
		if t == nil {
			t = &Transfer{From: from, To: to}
			p.m[key] = t
		}
		t.Keys++
		t.Requests += int64(w)
		return
	}
	c := int(from)*p.n + int(to)
	if p.keys[c] == 0 {
		p.touched = append(p.touched, uint32(c))
	}
	p.keys[c]++
	p.reqs[c] += int64(w)
}

// flush returns the counted pairs sorted by from then to (nil when there
// are none), moves their requests in reqs (when non-nil) and the total
// moved requests, and clears the counter.
func (p *pairCounter) flush(reqs []int64) ([]Transfer, int64) {
	var out []Transfer
	if p.m != nil {
		for _, key := range slices.Sorted(maps.Keys(p.m)) {
			out = append(out, *p.m[key])
		}
		clear(p.m)
	} else {
		slices.Sort(p.touched)
		if len(p.touched) > 0 {
			out = make([]Transfer, 0, len(p.touched))
		}
		for _, c := range p.touched {
			out = append(out, Transfer{From: timeline.NodeID(int(c) / p.n), To: timeline.NodeID(int(c) % p.n),
				Keys: int(p.keys[c]), Requests: p.reqs[c]})
			p.keys[c], p.reqs[c] = 0, 0
		}
		p.touched = p.touched[:0]
	}
	var moved int64
	for _, t := range out {
		moved += t.Requests
		if reqs != nil {
			reqs[t.From] -= t.Requests
			reqs[t.To] += t.Requests
		}
	}
	return out, moved
}

// keyWeight returns key k's weight, 0 when w is nil.
func keyWeight(w []uint32, k int) uint32 {
	if w == nil {
		return 0
	}
	return w[k]
}

// transfers measures the step's transfers and moved requests from the
// open undo log and the new primary owners (unless moves1 counted them
// already), and updates t.reqs. It must
// run after the step's changes are applied and before the log closes.
func (t *tracker) transfers(sr *StepResult) {
	u, now, w, pc := t.hist.Log(), t.cur[0], t.w, &t.pairs
	switch {
	case t.counted:
		t.counted = false
	case u.IsDense():
		for k, o := range u.Dense() {
			if c := now[k]; c != o {
				pc.add(o, c, keyWeight(w, k))
			}
		}
	default:
		keys, old := u.Sparse()
		for e, k := range keys {
			pc.add(old[e], now[k], keyWeight(w, int(k)))
		}
	}
	sr.Transfers, sr.MovedRequests = pc.flush(t.reqs)
}

// startRequests computes the request loads of the current assignment.
func (t *tracker) startRequests() {
	if t.w == nil {
		return
	}
	t.reqs = make([]int64, len(t.nodeHash))
	for k, o := range t.cur[0] {
		t.reqs[o] += int64(t.w[k])
	}
}

// hotOwners returns the primary owners of the hot keys in owners, or nil
// when there are none.
func hotOwners(hot []int, owners []timeline.NodeID) []timeline.NodeID {
	if len(hot) == 0 {
		return nil
	}
	out := make([]timeline.NodeID, len(hot))
	for j, k := range hot {
		out[j] = owners[k]
	}
	return out
}

// fullTransfers is the reference measurement of transfers, moved
// requests and request loads from two whole primary assignments (prev is
// nil at step 0): a map over every key, sorted at the end.
func fullTransfers(res *Result, prev, cur []timeline.NodeID, sr *StepResult) {
	w := res.Keys.Weight
	if w != nil {
		sr.Requests = make([]int64, len(res.Timeline.Nodes))
		for k, o := range cur {
			sr.Requests[o] += int64(w[k])
		}
	}
	sr.HotOwners = hotOwners(res.Keys.Hot, cur)
	if prev == nil {
		return
	}
	pairs := map[[2]timeline.NodeID]*Transfer{}
	for k := range cur {
		if prev[k] == cur[k] {
			continue
		}
		key := [2]timeline.NodeID{prev[k], cur[k]}
		if pairs[key] == nil {
			pairs[key] = &Transfer{From: prev[k], To: cur[k]}
		}
		pairs[key].Keys++
		pairs[key].Requests += int64(keyWeight(w, k))
		sr.MovedRequests += int64(keyWeight(w, k))
	}
	for _, key := range slices.SortedFunc(maps.Keys(pairs), func(a, b [2]timeline.NodeID) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	}) {
		sr.Transfers = append(sr.Transfers, *pairs[key])
	}
}
