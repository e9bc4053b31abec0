package sim

import (
	"slices"

	"github.com/ringreport/ringreport/internal/timeline"
)

// This file counts a step's moved keys by (from, to) pair of nodes, and
// picks the pairs that moved the most keys: no map, and no sort of every
// pair. Up to DenseTransferNodes a table of every pair counts them;
// beyond, each moved key's pair is listed and the list sorted in two
// radix passes over the node table.

// topPairs returns the k pairs of ts (sorted by From then To) that moved
// the most keys, ties going to the earlier pair, still sorted by From
// then To, and the count and sums of the others; ts itself when it has at
// most k pairs. It selects with a heap of k entries (heap is its
// scratch), so a step of n² pairs costs n² log k, not a sort of them all.
func topPairs(ts []Transfer, k int, heap *[]int32) ([]Transfer, TransferRest) {
	if len(ts) <= k {
		return ts, TransferRest{}
	}
	// h is a min-heap of indices into ts by rank, so that its root is the
	// weakest of the best k so far: fewer keys, or as many and a later pair.
	weaker := func(a, b int32) bool {
		ka, kb := ts[a].Keys, ts[b].Keys
		return ka < kb || ka == kb && a > b
	}
	h := (*heap)[:0]
	for i := range ts {
		j := int32(i)
		switch {
		case len(h) < k:
			h = append(h, j)
			siftUp(h, len(h)-1, weaker)
		case weaker(h[0], j):
			h[0] = j
			siftDown(h, 0, weaker)
		}
	}
	*heap = h
	slices.Sort(h)
	kept := make([]Transfer, len(h))
	var rest TransferRest
	for _, t := range ts {
		rest.Pairs++
		rest.Keys += t.Keys
		rest.Requests += t.Requests
	}
	for i, j := range h {
		kept[i] = ts[j]
		rest.Pairs--
		rest.Keys -= ts[j].Keys
		rest.Requests -= ts[j].Requests
	}
	return kept, rest
}

// siftUp restores the heap order of h from its entry c up.
func siftUp(h []int32, c int, weaker func(a, b int32) bool) {
	for c > 0 {
		p := (c - 1) / 2
		if !weaker(h[c], h[p]) {
			return
		}
		h[c], h[p] = h[p], h[c]
		c = p
	}
}

// siftDown restores the heap order of h from its entry i down.
func siftDown(h []int32, i int, weaker func(a, b int32) bool) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		if r := l + 1; r < len(h) && weaker(h[r], h[l]) {
			l = r
		}
		if !weaker(h[l], h[i]) {
			return
		}
		h[i], h[l] = h[l], h[i]
		i = l
	}
}

// DenseTransferNodes is the largest node table whose transfer counts are
// kept in an n×n array; larger tables list each moved key's pair and
// sort the list (pairCounter.sortMoves).
const DenseTransferNodes = 512

// pairCounter counts moved keys and their requests per (from, to) pair.
type pairCounter struct {
	n       int
	keys    []int32 // n×n, by from·n + to, when n ≤ DenseTransferNodes
	reqs    []int64
	touched []uint32 // cells of keys that are non-zero
	// moves holds, above DenseTransferNodes, one entry per moved key:
	// from<<48 | to<<32 | its weight; sorted is sortMoves' scratch.
	moves, sorted []uint64
	buckets       []int      // radixPass's scratch
	out           []Transfer // flush's result, reused from step to step
}

func newPairCounter(n int) pairCounter {
	p := pairCounter{n: n}
	if n <= DenseTransferNodes {
		p.keys, p.reqs = make([]int32, n*n), make([]int64, n*n)
	}
	return p
}

// add counts one key of weight w moved from one node to another.
func (p *pairCounter) add(from, to timeline.NodeID, w uint32) {
	if p.keys == nil {
		p.moves = append(p.moves, uint64(from)<<48|uint64(to)<<32|uint64(w))
		return
	}
	c := int(from)*p.n + int(to)
	if p.keys[c] == 0 {
		p.touched = append(p.touched, uint32(c))
	}
	p.keys[c]++
	p.reqs[c] += int64(w)
}

// flush returns the counted pairs sorted by from then to (empty when
// there are none; the slice is reused by the next flush), moves their
// requests in reqs (when non-nil) and returns the total moved requests,
// and clears the counter.
func (p *pairCounter) flush(reqs []int64) ([]Transfer, int64) {
	out := p.out[:0]
	if p.keys == nil {
		out = appendRuns(out, p.sortMoves())
		p.moves = p.moves[:0]
	} else {
		slices.Sort(p.touched)
		for _, c := range p.touched {
			out = append(out, Transfer{From: timeline.NodeID(int(c) / p.n), To: timeline.NodeID(int(c) % p.n),
				Keys: int(p.keys[c]), Requests: p.reqs[c]})
			p.keys[c], p.reqs[c] = 0, 0
		}
		p.touched = p.touched[:0]
	}
	p.out = out
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

// radixMin is the fewest moves sortMoves sorts by radix rather than by
// comparisons.
const radixMin = 256

// sortMoves sorts the moves by from then to: two stable counting passes
// over the node table, by to and then by from, O(moves + nodes), where a
// comparison sort would take moves·log(moves).
func (p *pairCounter) sortMoves() []uint64 {
	m := p.moves
	if len(m) < radixMin {
		slices.Sort(m)
		return m
	}
	p.sorted = slices.Grow(p.sorted[:0], len(m))[:len(m)]
	p.radixPass(m, p.sorted, 32)
	p.radixPass(p.sorted, m, 48)
	return m
}

// radixPass writes src into dst stably sorted by the node at bit shift.
func (p *pairCounter) radixPass(src, dst []uint64, shift uint) {
	b := slices.Grow(p.buckets[:0], p.n+1)[:p.n+1]
	clear(b)
	for _, v := range src {
		b[int(v>>shift&0xffff)+1]++
	}
	for i := 1; i < len(b); i++ {
		b[i] += b[i-1]
	}
	for _, v := range src {
		d := int(v >> shift & 0xffff)
		dst[b[d]] = v
		b[d]++
	}
	p.buckets = b
}

// appendRuns appends to out one Transfer per run of sorted moves with
// the same pair.
func appendRuns(out []Transfer, m []uint64) []Transfer {
	for i := 0; i < len(m); {
		pair := m[i] >> 32
		t := Transfer{From: timeline.NodeID(pair >> 16), To: timeline.NodeID(pair & 0xffff)}
		for ; i < len(m) && m[i]>>32 == pair; i++ {
			t.Keys++
			t.Requests += int64(uint32(m[i]))
		}
		out = append(out, t)
	}
	return out
}
