package sim

import (
	"maps"
	"slices"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file measures who ships keys to whom, and the request loads, from
// the keys that changed owner in a step. The tracker's undo log of the
// step already lists them (sparse: each moved key and its old owner;
// dense, when more than a third moved: the whole previous assignment), so
// the transfers are one pass over the log after the step, and a step that
// moves few keys costs little here too.
//
// A rule that reshuffles (modulo, jump's renumbering) moves keys between
// almost every pair of nodes, n² pairs a step, so a step keeps its pairs
// bounded (Transfers): the largest TopTransfers, the sums of the rest and
// each node's keys received, and every pair only while the whole replay
// has at most MaxKeptPairs of them.

// TopTransfers is the most from → to pairs a step's Transfers keeps by
// name: the pairs that moved the most keys. data.json lists them
// (report.MaxJSONTransfers) and the report the first few of them;
// Transfers.Rest counts and sums the others.
const TopTransfers = 100

// MaxKeptPairs is the most transfer pairs, summed over every step and
// rule, whose whole lists (Transfers.All) a replay keeps; past it the
// replay keeps none (Result.AllTransfers reports false). Their one reader
// is transfers.csv, a row of at least 11 bytes a pair, so past this many
// pairs the file would pass report.TransfersCSVLimit, and the build leaves
// it out whether or not the lists were kept (report checks the relation
// at compile time). Options.AllPairs keeps every list whatever their
// number, for `render transfers-csv`. 2¹⁹ pairs hold 12 MiB.
const MaxKeptPairs = 1 << 19

// Transfers is one step's moved keys by old and new owner, in a size
// that grows with the nodes rather than with their square.
type Transfers struct {
	// Top is the TopTransfers pairs that moved the most keys, ties going
	// to the earlier pair by From then To, sorted by From then To: every
	// pair when there are no more.
	Top []Transfer
	// Rest counts the pairs Top leaves out and sums their keys and
	// requests.
	Rest TransferRest
	// All is every pair with at least one key, sorted by From then To
	// (node-table order), while the replay keeps them (see MaxKeptPairs
	// and Result.AllTransfers); nil otherwise, and when nothing moved.
	All []Transfer
	// Received is, by NodeID, the keys each node received at the step by
	// why they moved, as the strips count them (strips.ReasonGained, …);
	// nil when nothing moved.
	Received [][strips.NumReasons]int32
}

// TransferRest is what Transfers.Top leaves out: how many pairs, and the
// keys and requests they moved.
type TransferRest struct {
	Pairs    int
	Keys     int
	Requests int64
}

// Pairs is the number of (from, to) pairs between which keys moved.
func (t *Transfers) Pairs() int { return len(t.Top) + t.Rest.Pairs }

// NodeTransfer is what one node received and sent over a whole run under
// one rule: keys, and their requests (0 when the keys carry none).
type NodeTransfer struct {
	In, Out                 int
	InRequests, OutRequests int64
}

// AllTransfers reports whether every step's Transfers.All holds every
// pair: the replay kept at most MaxKeptPairs of them, or Options.AllPairs
// asked for all of every step.
func (r *Result) AllTransfers() bool { return !r.pairsDropped && r.pairsStep == 0 }

// AllTransfersAt reports whether step i's Transfers.All holds every pair
// (Options.AllPairsStep may have kept another step's alone).
func (r *Result) AllTransfersAt(i int) bool {
	return !r.pairsDropped && (r.pairsStep == 0 || i == r.pairsStep || i == 0)
}

// keepPairs counts n more pairs kept in full and reports whether the
// replay still keeps them. Rules run concurrently; whatever they kept is
// dropped at the end once the count passes MaxKeptPairs (dropPairs), so
// the result does not depend on scheduling.
func (r *Result) keepPairs(n int) bool {
	return r.pairsKept.Add(int64(n)) <= MaxKeptPairs
}

// dropPairs drops every step's whole pair list when the replay counted
// more than MaxKeptPairs of them.
func (r *Result) dropPairs() {
	if r.allPairs || r.pairsKept.Load() <= MaxKeptPairs {
		return
	}
	r.pairsDropped = true
	for i := range r.Rules {
		for j := range r.Rules[i].Steps {
			r.Rules[i].Steps[j].Transfers.All = nil
		}
	}
}

// pairKeeper turns each step's whole pair list of one rule into its
// bounded Transfers and sums every node's transfers over the run.
type pairKeeper struct {
	res    *Result
	keep   bool // the replay still keeps whole lists
	totals []NodeTransfer
	heap   []int32 // topPairs' scratch
}

func newPairKeeper(res *Result) *pairKeeper {
	return &pairKeeper{res: res, keep: true, totals: make([]NodeTransfer, len(res.Timeline.Nodes))}
}

// measure returns the Transfers of step i whose every pair is all (sorted
// by From then To; the caller may reuse it), given who was live before
// and after the step (by NodeID).
func (k *pairKeeper) measure(i int, all []Transfer, before, after []bool) Transfers {
	if len(all) == 0 {
		return Transfers{}
	}
	var tr Transfers
	tr.All = k.whole(i, all)
	if len(all) <= TopTransfers && tr.All != nil {
		tr.Top = tr.All
	} else {
		top, rest := topPairs(all, TopTransfers, &k.heap)
		tr.Top, tr.Rest = slices.Clone(top), rest
	}
	tr.Received = make([][strips.NumReasons]int32, len(before))
	for _, t := range all {
		tr.Received[t.To][moveReasonOf(t.From, t.To, before, after)] += int32(t.Keys)
		k.total(t)
	}
	return tr
}

// whole returns a copy of step i's pairs all while the replay keeps
// whole lists, else nil.
func (k *pairKeeper) whole(i int, all []Transfer) []Transfer {
	if r := k.res; r.allPairs {
		if r.pairsStep != 0 && i != r.pairsStep {
			return nil
		}
		return slices.Clone(all)
	}
	if k.keep {
		k.keep = k.res.keepPairs(len(all))
	}
	if !k.keep {
		return nil
	}
	return slices.Clone(all)
}

// total adds one pair to its nodes' run totals.
func (k *pairKeeper) total(t Transfer) {
	in, out := &k.totals[t.To], &k.totals[t.From]
	in.In += t.Keys
	in.InRequests += t.Requests
	out.Out += t.Keys
	out.OutRequests += t.Requests
}

// moveReasonOf is why a key moved from old to cur, given the live sets
// before and after the step: forced off a node that is not live after it,
// else gained by one that was not live before it, else collateral.
func moveReasonOf(old, cur timeline.NodeID, before, after []bool) int {
	return int(reasonOf[placer.B2i(!after[old])<<1|placer.B2i(!before[cur])])
}

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

// keyWeight returns key k's weight, 0 when w is nil.
func keyWeight(w []uint32, k int) uint32 {
	if w == nil {
		return 0
	}
	return w[k]
}

// transfers measures the step's transfers and moved requests from the
// open undo log and the new primary owners (unless moves1 counted them
// already), and updates t.reqs. It must run after the step's changes are
// applied and before the log closes.
func (t *tracker) transfers(i int, acc *stepAcc) {
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
	all, moved := pc.flush(t.reqs)
	acc.sr.Transfers, acc.sr.MovedRequests = t.keeper.measure(i, all, acc.before, acc.after), moved
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
// nil at step 0), before and after being the live sets: a map over every
// key, sorted at the end, the largest pairs picked by a stable sort of
// them all, and each node's keys received counted key by key. The run
// totals and whether to keep step i's whole list go through k.
func fullTransfers(res *Result, i int, prev, cur []timeline.NodeID, before, after []bool, k *pairKeeper, sr *StepResult) {
	w := res.Keys.Weight
	if w != nil {
		sr.Requests = make([]int64, len(res.Timeline.Nodes))
		for key, o := range cur {
			sr.Requests[o] += int64(w[key])
		}
	}
	sr.HotOwners = hotOwners(res.Keys.Hot, cur)
	if prev == nil {
		return
	}
	pairs := map[[2]timeline.NodeID]*Transfer{}
	var received [][strips.NumReasons]int32
	for key := range cur {
		if prev[key] == cur[key] {
			continue
		}
		if received == nil {
			received = make([][strips.NumReasons]int32, len(res.Timeline.Nodes))
		}
		received[cur[key]][moveReasonOf(prev[key], cur[key], before, after)]++
		pk := [2]timeline.NodeID{prev[key], cur[key]}
		if pairs[pk] == nil {
			pairs[pk] = &Transfer{From: prev[key], To: cur[key]}
		}
		pairs[pk].Keys++
		pairs[pk].Requests += int64(keyWeight(w, key))
		sr.MovedRequests += int64(keyWeight(w, key))
	}
	var all []Transfer
	for _, pk := range slices.SortedFunc(maps.Keys(pairs), func(a, b [2]timeline.NodeID) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	}) {
		all = append(all, *pairs[pk])
	}
	sr.Transfers = referenceTop(all)
	sr.Transfers.Received = received
	if sr.Transfers.All = k.whole(i, all); len(all) <= TopTransfers && sr.Transfers.All != nil {
		sr.Transfers.Top = sr.Transfers.All
	}
	for _, t := range all {
		k.total(t)
	}
}

// referenceTop is the reference of topPairs: all sorted by keys, most
// first, stably (ties in From, To order), cut at TopTransfers and sorted
// back by From then To.
func referenceTop(all []Transfer) Transfers {
	var tr Transfers
	if len(all) == 0 {
		return tr
	}
	by := slices.Clone(all)
	slices.SortStableFunc(by, func(a, b Transfer) int { return b.Keys - a.Keys })
	n := min(len(by), TopTransfers)
	for _, t := range by[n:] {
		tr.Rest.Pairs++
		tr.Rest.Keys += t.Keys
		tr.Rest.Requests += t.Requests
	}
	tr.Top = by[:n:n]
	slices.SortFunc(tr.Top, func(a, b Transfer) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
	return tr
}
