package sim

import "slices"

// history keeps, for recent steps, an undo log of the primary owners each
// step overwrote, so that an exact recurrence check can compare an earlier
// step's assignment with the current one from the keys that changed since
// rather than by replaying the rule. A step that changes few keys keeps a
// sparse log (key, old owner), 6 bytes per changed key; one that changes
// more than a third of them keeps the whole previous primary assignment,
// 2 bytes per key. Logs are kept within a budget of bytesPerKey bytes per
// key, dropping the oldest (the log being written comes on top); a check
// that needs a dropped log recomputes the earlier step instead.
type history struct {
	k      int
	budget int // bytes
	used   int
	logs   []*undo // by step; nil when not kept
	step   int     // the step being recorded
	open_  *undo   // its log
	src    []NodeID
	spare  *undo // a dropped log, for reuse
	marks  []uint64
}

// historyBytesPerKey is the undo-log budget, in bytes per key.
const historyBytesPerKey = 4

// minHistoryBytes is the undo-log budget of small key sets.
const minHistoryBytes = 1 << 20

// undo is one step's log: the keys whose primary owner changed and the
// owner each had before, or (dense) the whole previous primary assignment.
type undo struct {
	keys  []uint32
	old   []NodeID
	dense []NodeID
}

func (u *undo) bytes() int { return 6*len(u.keys) + 2*len(u.dense) }

func newHistory(k int) history {
	return history{k: k, budget: max(historyBytesPerKey*k, minHistoryBytes)}
}

// open starts step i's log; cur is the primary assignment before the step,
// which record may snapshot.
func (h *history) open(i int, cur []NodeID) {
	for len(h.logs) <= i {
		h.logs = append(h.logs, nil)
	}
	u := h.spare
	if u == nil {
		u = &undo{}
	}
	h.spare = nil
	u.keys, u.old, u.dense = u.keys[:0], u.old[:0], u.dense[:0]
	h.step, h.open_, h.src = i, u, cur
}

// drop frees a log, keeping the largest dropped one for reuse.
func (h *history) drop(l *undo) {
	if l != nil && (h.spare == nil || cap(l.dense)+cap(l.keys) > cap(h.spare.dense)+cap(h.spare.keys)) {
		h.spare = l
	}
}

// record notes that key k's primary owner was old before this step. It
// must be called before src[k] is overwritten.
func (h *history) record(k int, old NodeID) {
	u := h.open_
	if len(u.dense) > 0 {
		return
	}
	if 3*len(u.keys) < h.k {
		u.keys = append(u.keys, uint32(k))
		u.old = append(u.old, old)
		return
	}
	u.dense = append(u.dense[:0], h.src...)
	for e, key := range u.keys {
		u.dense[key] = u.old[e]
	}
	u.keys, u.old = u.keys[:0], u.old[:0]
}

// close keeps the open log, then drops the oldest logs over budget.
func (h *history) close() {
	i := h.step
	if h.logs[i] != nil {
		h.used -= h.logs[i].bytes()
		h.drop(h.logs[i])
	}
	h.logs[i], h.open_, h.src = h.open_, nil, nil
	h.used += h.logs[i].bytes()
	for j := 0; j < len(h.logs) && h.used > h.budget; j++ {
		if h.logs[j] != nil {
			h.used -= h.logs[j].bytes()
			h.drop(h.logs[j])
			h.logs[j] = nil
		}
	}
}

// covers reports whether the logs of steps j+1..i are all kept.
func (h *history) covers(j, i int) bool {
	if i >= len(h.logs) {
		return false
	}
	for s := j + 1; s <= i; s++ {
		if h.logs[s] == nil {
			return false
		}
	}
	return true
}

// equalsAt reports whether the primary owners cur (step i's) equal step
// j's. The logs of steps j+1..i must be kept.
func (h *history) equalsAt(cur []NodeID, j, i int) bool {
	for s := j + 1; s <= i; s++ {
		if len(h.logs[s].dense) > 0 {
			if s-1 == j {
				// Step j is stored whole: compare it as it is.
				return slices.Equal(h.logs[s].dense, cur)
			}
			// State s−1 is stored whole: rebuild step j from it.
			old := slices.Clone(h.logs[s].dense)
			for t := s - 1; t > j; t-- {
				l := h.logs[t]
				for e, k := range l.keys {
					old[k] = l.old[e]
				}
			}
			return slices.Equal(old, cur)
		}
	}
	return h.equalsSparse(cur, j, i)
}

// equalsSparse is equalsAt through sparse logs only: it undoes logs
// i..j+1 in place, compares the keys they touched, and restores cur.
func (h *history) equalsSparse(cur []NodeID, j, i int) bool {
	if len(h.marks) < (len(cur)+63)/64 {
		h.marks = make([]uint64, (len(cur)+63)/64)
	}
	var keys []uint32
	var vals []NodeID
	for s := i; s > j; s-- {
		l := h.logs[s]
		for e, k := range l.keys {
			if h.marks[k/64]&(1<<(k%64)) == 0 {
				h.marks[k/64] |= 1 << (k % 64)
				keys, vals = append(keys, k), append(vals, cur[k])
			}
			cur[k] = l.old[e]
		}
	}
	equal := true
	for e, k := range keys {
		equal = equal && cur[k] == vals[e]
		cur[k] = vals[e]
		h.marks[k/64] &^= 1 << (k % 64)
	}
	return equal
}

// recurs returns the earliest earlier step with the identical primary
// assignment, comparing key by key: through the undo logs when they
// reach back that far, else recompute rebuilds that step's lists.
func (t *tracker) recurs(i int, fp uint64, recompute func(step int) [][]NodeID) int {
	cur := t.cur[0]
	for _, j := range t.seen[fp] {
		var same bool
		if t.hist.covers(j, i) {
			same = t.hist.equalsAt(cur, j, i)
		} else {
			same = slices.Equal(recompute(j)[0], cur)
		}
		if same {
			return j
		}
	}
	t.seen[fp] = append(t.seen[fp], i)
	return -1
}
