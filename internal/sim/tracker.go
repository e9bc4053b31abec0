package sim

import (
	"slices"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
	"github.com/ringreport/ringreport/internal/undolog"
)

// tracker turns consecutive assignments of one rule into StepResults.
//
// It keeps one assignment, the current one, and the running metrics of it
// (loads, fingerprint, under-replicated keys). A step reaches it either as
// a delta, the keys whose lists a placer says may have changed, or as a
// whole new assignment, which the tracker diffs against the current one.
// Either way every metric is updated from the changed keys alone, so a
// step that moves few keys costs little; fullMeasure in tracker_reference.go
// recomputes everything from scratch and serves as the tests' oracle.
type tracker struct {
	res      *Result
	k        int
	nodeHash []uint64
	rank     []uint32            // canonical key → rank in the rule's order, or nil
	cur      [][]timeline.NodeID // the assignment as of the last step
	next     [][]timeline.NodeID // scratch for whole assignments after step 0
	loads    []int               // primary loads of cur, by NodeID
	fp       uint64              // fingerprint of cur
	under    int                 // keys of cur with fewer than R live nodes
	total    int
	seen     map[uint64][]int // fingerprint → distinct steps having it
	hist     *undolog.History
	cells    strips.Index
	w        []uint32 // key weights by canonical index, or nil
	reqs     []int64  // request loads of cur, by NodeID, when weighted
	pairs    pairCounter
	keeper   *pairKeeper // bounds each step's pairs, sums them per node
	counted  bool        // moves1 counted this step's transfers into pairs
	// strip counts the step's moved keys; every step reuses it, zeroed
	// when the step's Strip is shaded from it (shadeStrip). With
	// keepCounts, each StepResult keeps a copy (replayOptions.counts).
	strip      *strips.Counts
	keepCounts bool
	// noStrips leaves every StepResult's Strip empty (metricsOnly): the
	// counts are still taken, by the same loops, and cleared unshaded.
	noStrips bool
	// movesDense's scratch: the pair table and the flat strip.
	pairScratch  *[1 << (2 * pairShift)]uint32
	stripScratch *flatStrip
}

func newTracker(res *Result, rank []uint32) *tracker {
	t := &tracker{res: res, k: res.Keys.Len(), rank: rank, seen: map[uint64][]int{}}
	for _, name := range res.Timeline.Nodes {
		t.nodeHash = append(t.nodeHash, keys.NameHash64(name))
	}
	t.hist = undolog.New(t.k, undolog.Budget(t.k))
	t.cells = strips.NewIndex(t.k)
	t.w = res.Keys.Weight
	t.pairs = newPairCounter(len(t.nodeHash))
	t.keeper = newPairKeeper(res)
	t.strip = strips.NewCounts(t.k)
	return t
}

// stepAcc accumulates one step's counts while changes are applied.
type stepAcc struct {
	sr            *StepResult
	before, after []bool // live sets, by NodeID
}

// lists returns space for a whole assignment of lists of length r: the
// current assignment at step 0, scratch afterwards.
func (t *tracker) lists(first bool, r int) [][]timeline.NodeID {
	if first {
		t.cur = placer.MakeLists(r, t.k)
		return t.cur
	}
	for len(t.next) < r {
		t.next = append(t.next, make([]timeline.NodeID, t.k))
	}
	t.next = t.next[:r]
	return t.next
}

// start measures step 0 from the assignment written into t.cur.
func (t *tracker) start() StepResult {
	t.loads = make([]int, len(t.nodeHash))
	t.fp, t.under = 0, 0
	for k, o := range t.cur[0] {
		t.loads[o]++
		t.fp += t.term(k, o)
	}
	t.under = placer.CountNoNode(t.cur[len(t.cur)-1])
	t.startRequests()
	sr := StepResult{Recurs: -1}
	t.shadeStrip(&sr)
	return t.finish(&sr)
}

// term is key k's part of the fingerprint when node o owns it.
func (t *tracker) term(k int, o timeline.NodeID) uint64 {
	return keys.Mix64(t.nodeHash[o] + uint64(k)*fpStep)
}

// fpStep is what a key's place adds to its owner's hash in its term: φ
// scaled to 2⁶⁴, so that the keys' offsets are spread evenly.
const fpStep = 0x9e3779b97f4a7c15

// shadeStrip gives sr the Strip of the step's counts, and a copy of the
// counts when the tracker keeps them, and zeroes them for the next step.
func (t *tracker) shadeStrip(sr *StepResult) {
	if t.noStrips {
		t.strip.Clear()
		return
	}
	sr.Strip = t.strip.Shade(t.k)
	if t.keepCounts {
		sr.counts = t.strip.Clone()
	}
	t.strip.Clear()
}

// begin starts step i's accumulator.
func (t *tracker) begin(i int) (*stepAcc, []int) {
	states := t.res.Timeline.States
	n := len(t.nodeHash)
	sr := &StepResult{Recurs: -1}
	acc := &stepAcc{sr: sr, before: liveSet(&states[i-1], n), after: liveSet(&states[i], n)}
	if len(t.cur) > 1 || states[i].Replicas > 1 {
		sr.Streams = newStreams(n)
	}
	t.hist.Open(i, t.cur[0])
	return acc, append([]int(nil), t.loads...)
}

// applyDelta measures step i from a placer's delta and updates t.cur.
func (t *tracker) applyDelta(i int, d *placer.Delta) StepResult {
	acc, prev := t.begin(i)
	if len(t.cur) == 1 && len(d.Lists) == 1 {
		t.moves1(acc, d.Keys, d.Lists[0], true)
		return t.end(i, acc, prev)
	}
	for j, k := range d.Keys {
		if t.differs(int(k), d.Lists, j) {
			t.change(acc, int(k), d.Lists, j)
			t.store(int(k), d.Lists, j)
		}
	}
	return t.end(i, acc, prev)
}

// applyWhole measures step i from a whole new assignment in t.next and
// makes it current.
func (t *tracker) applyWhole(i int) StepResult {
	acc, prev := t.begin(i)
	next := t.next
	if len(t.cur) == 1 && len(next) == 1 {
		t.moves1(acc, nil, next[0], false)
	} else {
		for k := range t.k {
			if t.differs(k, next, k) {
				t.change(acc, k, next, k)
			}
		}
	}
	t.cur, t.next = next, t.cur
	if len(t.next) != len(t.cur) {
		t.under = placer.CountNoNode(t.cur[len(t.cur)-1])
	}
	return t.end(i, acc, prev)
}

// differs reports whether key k's current list differs from lists[·][j];
// missing ranks count as NoNode.
func (t *tracker) differs(k int, lists [][]timeline.NodeID, j int) bool {
	for r := range max(len(t.cur), len(lists)) {
		if at2(t.cur, r, k) != at2(lists, r, j) {
			return true
		}
	}
	return false
}

// at2 returns lists[r][j], or NoNode past the lists' length.
func at2(lists [][]timeline.NodeID, r, j int) timeline.NodeID {
	if r < len(lists) {
		return lists[r][j]
	}
	return timeline.NoNode
}

// store writes key k's new lists into t.cur.
func (t *tracker) store(k int, lists [][]timeline.NodeID, j int) {
	for r, l := range t.cur {
		l[k] = lists[r][j]
	}
}

// change folds one key's change, from t.cur to lists[·][j], into the step.
func (t *tracker) change(acc *stepAcc, k int, lists [][]timeline.NodeID, j int) {
	if len(t.cur) == 1 && len(lists) == 1 {
		// One owner, old ≠ new: the set changed and needs one copy.
		acc.sr.ReplicaMoved++
		acc.sr.Copies++
	} else {
		t.replicaChange(acc, k, lists, j)
	}
	if len(lists) == len(t.cur) {
		last := len(lists) - 1
		t.under += placer.B2i(lists[last][j] == timeline.NoNode) - placer.B2i(t.cur[last][k] == timeline.NoNode)
	}
	if old, cur := t.cur[0][k], lists[0][j]; old != cur {
		t.move(acc, k, old, cur)
	}
}

// move counts key k's change of owner from old to cur.
func (t *tracker) move(acc *stepAcc, k int, old, cur timeline.NodeID) {
	t.hist.Record(k, old)
	t.loads[old]--
	t.loads[cur]++
	t.fp += t.term(k, cur) - t.term(k, old)
	why := strips.ReasonCollateral
	switch {
	case !acc.after[old]:
		why = strips.ReasonForced
	case !acc.before[cur]:
		why = strips.ReasonGained
	}
	acc.sr.Moved++
	strip := t.strip
	strip.KeyOrder[t.cells.Of(t.res.Keys.Gen[k])][why]++
	h := uint32(k)
	if t.rank != nil {
		h = t.rank[k]
	}
	strip.HashOrder[t.cells.Of(h)][why]++
}

// replicaChange counts whether key k's replica set changed, and the
// copies its new set needs.
func (t *tracker) replicaChange(acc *stepAcc, k int, lists [][]timeline.NodeID, j int) {
	sr := acc.sr
	var buf [8]timeline.NodeID
	oldSet := buf[:0]
	for _, l := range t.cur {
		if l[k] != timeline.NoNode {
			oldSet = append(oldSet, l[k])
		}
	}
	n, live := 0, 0
	for _, l := range lists {
		if id := l[j]; id != timeline.NoNode {
			live++
			if !containsID(oldSet, id) {
				n++
				if sr.Streams != nil {
					sr.Streams.count(id, oldSet, acc.after)
				}
			}
		}
	}
	if n > 0 || live != len(oldSet) {
		sr.ReplicaMoved++
	}
	sr.Copies += n
}

func containsID(s []timeline.NodeID, id timeline.NodeID) bool {
	for _, x := range s {
		if x == id {
			return true
		}
	}
	return false
}

// end completes step i: the counts that follow from the loads.
func (t *tracker) end(i int, acc *stepAcc, prev []int) StepResult {
	sr := acc.sr
	sr.Needed = halfAbsDiff(prev, t.loads)
	sr.Ideal = ideal(prev, &t.res.Timeline.States[i], t.k)
	t.transfers(i, acc)
	t.hist.Close()
	t.shadeStrip(sr)
	return t.finish(sr)
}

// finish fills the running totals and the loads.
func (t *tracker) finish(sr *StepResult) StepResult {
	sr.Loads = append([]int(nil), t.loads...)
	sr.Fingerprint = t.fp
	sr.UnderReplicated = t.under
	if t.reqs != nil {
		sr.Requests = append([]int64(nil), t.reqs...)
	}
	sr.HotOwners = hotOwners(t.res.Keys.Hot, t.cur[0])
	t.total += sr.Moved
	sr.TotalMoved = t.total
	return *sr
}

// liveSet marks the live members of st by NodeID.
func liveSet(st *timeline.State, n int) []bool {
	live := make([]bool, n)
	for _, m := range st.Members {
		live[m.ID] = !m.Failed
	}
	return live
}

func halfAbsDiff(a, b []int) int {
	sum := 0
	for i := range b {
		d := b[i]
		if i < len(a) {
			d -= a[i]
		}
		sum += max(d, -d)
	}
	return sum / 2
}

// stripOffsets returns, for every key, the offset stripStride·⌊g·n/K⌋ of
// the strip cell of its place g in a strip's order (see Strip), so that
// the tracker counts a moved key with one load rather than a multiply.
func stripOffsets(places []uint32) []uint16 {
	cells := strips.NewIndex(len(places))
	out := make([]uint16, len(places))
	for k, g := range places {
		out[k] = uint16(cells.Of(g) * stripStride)
	}
	return out
}

// The largest offset stripOffsets writes fits a uint16.
var _ = [1]int{}[(strips.MaxCells*stripStride-1)>>16]

// recurs returns the earliest earlier step with the identical primary
// assignment, comparing key by key: through the undo logs when they
// reach back that far, else recompute rebuilds that step's lists.
func (t *tracker) recurs(i int, fp uint64, recompute func(step int) [][]timeline.NodeID) int {
	defer t.hist.Trim()
	cur := t.cur[0]
	for _, j := range t.seen[fp] {
		var same bool
		if p, ok := t.hist.Path(j, i); ok {
			same = t.hist.EqualsAt(cur, p)
		} else {
			same = slices.Equal(recompute(j)[0], cur)
		}
		if same {
			t.hist.Bridge(i, j)
			return j
		}
	}
	t.seen[fp] = append(t.seen[fp], i)
	return -1
}
