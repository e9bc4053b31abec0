package sim

import "slices"

// snapshotBudget bounds the bytes of earlier assignments a rule keeps for
// exact recurrence checks; beyond it, earlier steps are recomputed.
const snapshotBudget = 64 << 20

// tracker turns consecutive assignments of one rule into StepResults.
type tracker struct {
	res      *Result
	k        int
	nodeHash []uint64
	rank     []uint32 // canonical key → rank in the rule's order, or nil
	prev     [][]NodeID
	cur      [][]NodeID
	loads    []int // loads of the previous step
	total    int
	seen     map[uint64][]int // fingerprint → distinct steps having it
	snaps    map[int][]NodeID // step → primary owners, within budget
	snapUsed int
}

func newTracker(res *Result, rank []uint32) *tracker {
	t := &tracker{res: res, k: res.Keys.Len(), rank: rank,
		seen: map[uint64][]int{}, snaps: map[int][]NodeID{}}
	for _, name := range res.Timeline.Nodes {
		t.nodeHash = append(t.nodeHash, nameHash64(name))
	}
	return t
}

// next returns zeroed space for this step's preference lists of length r,
// keeping the previous step's lists for comparison.
func (t *tracker) next(r int) [][]NodeID {
	t.prev, t.cur = t.cur, t.prev
	for len(t.cur) < r {
		t.cur = append(t.cur, make([]NodeID, t.k))
	}
	t.cur = t.cur[:r]
	return t.cur
}

// measure computes step i's counts from the lists just assigned.
func (t *tracker) measure(i int) StepResult {
	sr := StepResult{Loads: make([]int, len(t.res.Timeline.Nodes)), Recurs: -1}
	owners := t.cur[0]
	var fp uint64
	for k, o := range owners {
		sr.Loads[o]++
		fp += mix64(t.nodeHash[o] + uint64(k)*0x9e3779b97f4a7c15)
	}
	sr.Fingerprint = fp
	sr.UnderReplicated = t.countUnder()
	if i > 0 {
		t.compare(i, &sr)
		sr.Needed = halfAbsDiff(t.loads, sr.Loads)
		sr.Ideal = ideal(t.loads, &t.res.Timeline.States[i], t.k)
	} else {
		sr.Strip = t.emptyStrip()
	}
	t.total += sr.Moved
	sr.TotalMoved = t.total
	t.loads = sr.Loads
	return sr
}

func (t *tracker) countUnder() int {
	last := t.cur[len(t.cur)-1]
	n := 0
	for _, o := range last {
		if o == NoNode {
			n++
		}
	}
	return n
}

func (t *tracker) emptyStrip() Strip {
	c := stripCells(t.k)
	return Strip{KeyOrder: make([]Cell, c), HashOrder: make([]Cell, c)}
}

// compare counts moved keys by reason into the strip, and replica changes.
func (t *tracker) compare(i int, sr *StepResult) {
	states := t.res.Timeline.States
	before, after := liveSet(&states[i-1], len(t.nodeHash)), liveSet(&states[i], len(t.nodeHash))
	sr.Strip = t.emptyStrip()
	cells := uint64(len(sr.Strip.KeyOrder))
	gen := t.res.Keys.Gen
	old, cur := t.prev[0], t.cur[0]
	for k := range cur {
		if old[k] == cur[k] {
			continue
		}
		sr.Moved++
		why := ReasonCollateral
		switch {
		case !after[old[k]]:
			why = ReasonForced
		case !before[cur[k]]:
			why = ReasonGained
		}
		sr.Strip.KeyOrder[uint64(gen[k])*cells/uint64(t.k)][why]++
		h := uint64(k)
		if t.rank != nil {
			h = uint64(t.rank[k])
		}
		sr.Strip.HashOrder[h*cells/uint64(t.k)][why]++
	}
	sr.ReplicaMoved, sr.Copies = replicaChanges(t.prev, t.cur)
}

// liveSet marks the live members of st by NodeID.
func liveSet(st *State, n int) []bool {
	live := make([]bool, n)
	for _, m := range st.Members {
		live[m.ID] = !m.Failed
	}
	return live
}

// replicaChanges counts keys whose replica set changed and the copies
// that the new sets need.
func replicaChanges(prev, cur [][]NodeID) (changed, copies int) {
	oldSet := make([]NodeID, 0, len(prev))
	for k := range cur[0] {
		oldSet = oldSet[:0]
		for _, l := range prev {
			if l[k] != NoNode {
				oldSet = append(oldSet, l[k])
			}
		}
		n := 0
		for _, l := range cur {
			if l[k] != NoNode && !slices.Contains(oldSet, l[k]) {
				n++
			}
		}
		if n > 0 || countLive(cur, k) != len(oldSet) {
			changed++
		}
		copies += n
	}
	return changed, copies
}

func countLive(lists [][]NodeID, k int) int {
	n := 0
	for _, l := range lists {
		if l[k] != NoNode {
			n++
		}
	}
	return n
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

// recurs returns the earliest earlier step with the identical primary
// assignment, comparing key by key; recompute rebuilds a step's lists
// when no snapshot of it was kept.
func (t *tracker) recurs(i int, fp uint64, recompute func(step int) [][]NodeID) int {
	cur := t.cur[0]
	for _, j := range t.seen[fp] {
		old, ok := t.snaps[j]
		if !ok {
			old = recompute(j)[0]
		}
		if slices.Equal(old, cur) {
			return j
		}
	}
	t.seen[fp] = append(t.seen[fp], i)
	if t.snapUsed+2*len(cur) <= snapshotBudget {
		t.snaps[i] = slices.Clone(cur)
		t.snapUsed += 2 * len(cur)
	}
	return -1
}
