package sim

import "github.com/ringreport/ringreport/internal/timeline"
import "slices"

// history keeps, for recent steps, an undo log of the primary owners each
// step overwrote, so that an exact recurrence check can compare an earlier
// step's assignment with the current one from the keys that changed since
// rather than by replaying the rule. A step that changes few keys keeps a
// sparse log (key, old owner), 6 bytes per changed key; one that changes
// more than a third of them keeps the whole previous primary assignment,
// 2 bytes per key. Logs are kept within a budget of bytesPerKey bytes per
// key, dropping the oldest (the log being written comes on top); a check
// that needs a dropped log recomputes the earlier step instead. Once a
// step is found to recur (its assignment equals step r's), a walk back
// from a later step goes from it straight to r, and the logs in between,
// which that walk no longer needs, are the first to be dropped: after a
// failure and its recovery, the step before the failure stays reachable.
type history struct {
	k      int
	budget int // bytes
	used   int
	logs   []*undo // by step; nil when not kept
	step   int     // the step being recorded
	open_  *undo   // its log
	src    []timeline.NodeID
	spare  *undo               // a dropped log, for reuse
	free   [][]timeline.NodeID // whole assignments of dropped logs, for reuse
	marks  []uint64
	// same[m] is an earlier step whose assignment equals step m's, or −1;
	// bridged[s] marks a log between two such steps.
	same    []int
	bridged []bool
	// equalsSparse's scratch: the keys it touched and their values.
	keys []uint32
	vals []timeline.NodeID
}

// historyBytesPerKey is the undo-log budget, in bytes per key.
const historyBytesPerKey = 4

// minHistoryBytes is the undo-log budget of small key sets.
const minHistoryBytes = 1 << 20

// undo is one step's log: the keys whose primary owner changed and the
// owner each had before, or (dense) the whole previous primary assignment.
type undo struct {
	keys  []uint32
	old   []timeline.NodeID
	dense []timeline.NodeID
}

func (u *undo) bytes() int { return 6*len(u.keys) + 2*len(u.dense) }

func newHistory(k int) history {
	return history{k: k, budget: max(historyBytesPerKey*k, minHistoryBytes)}
}

// open starts step i's log; cur is the primary assignment before the step,
// which record may snapshot.
func (h *history) open(i int, cur []timeline.NodeID) {
	h.trim()
	h.grow(i)
	u := h.spare
	if u == nil {
		u = &undo{}
	}
	h.spare = nil
	u.keys, u.old, u.dense = u.keys[:0], u.old[:0], u.dense[:0]
	h.step, h.open_, h.src = i, u, cur
}

// drop frees a log, keeping the largest dropped one for reuse, and the
// whole assignment of another for denseBuffer.
func (h *history) drop(l *undo) {
	if l == nil {
		return
	}
	if h.spare == nil || cap(l.dense)+cap(l.keys) > cap(h.spare.dense)+cap(h.spare.keys) {
		l, h.spare = h.spare, l
	}
	if l != nil && cap(l.dense) > 0 && len(h.free) < maxFreeDense {
		h.free = append(h.free, l.dense[:0])
	}
}

// maxFreeDense bounds the whole assignments kept for reuse.
const maxFreeDense = 1

// denseBuffer returns an array of n owners for a whole assignment: one a
// dropped log held, or a new one.
func (h *history) denseBuffer(n int) []timeline.NodeID {
	for len(h.free) > 0 {
		b := h.free[len(h.free)-1]
		h.free = h.free[:len(h.free)-1]
		if cap(b) >= n {
			return b[:n]
		}
	}
	return make([]timeline.NodeID, n)
}

// record notes that key k's primary owner was old before this step. It
// must be called before src[k] is overwritten.
func (h *history) record(k int, old timeline.NodeID) {
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

// close keeps the open log; logs over budget are dropped by trim, once
// the step's recurrence is known.
func (h *history) close() {
	i := h.step
	if h.logs[i] != nil {
		h.used -= h.logs[i].bytes()
		h.drop(h.logs[i])
	}
	h.logs[i], h.open_, h.src = h.open_, nil, nil
	h.used += h.logs[i].bytes()
}

// trim drops logs while over budget: bridged ones first, then the
// oldest.
func (h *history) trim() {
	for _, bridged := range []bool{true, false} {
		for j := 0; j < len(h.logs) && h.used > h.budget; j++ {
			if h.logs[j] != nil && (h.bridged[j] || !bridged) {
				h.used -= h.logs[j].bytes()
				h.drop(h.logs[j])
				h.logs[j] = nil
			}
		}
	}
}

// grow makes room for step i in the per-step slices.
func (h *history) grow(i int) {
	for len(h.logs) <= i {
		h.logs = append(h.logs, nil)
		h.same = append(h.same, -1)
		h.bridged = append(h.bridged, false)
	}
}

// bridge notes that step m's assignment equals step r's (r < m).
func (h *history) bridge(m, r int) {
	h.grow(m)
	h.same[m] = r
	for s := r + 1; s <= m; s++ {
		h.bridged[s] = true
	}
}

// path returns the logs that lead from step i's assignment back to step
// j's, newest first: one step at a time, except that a step known to
// equal an earlier one at or after j leads straight to it. It reports
// false when a log on the way was dropped.
func (h *history) path(j, i int) ([]int, bool) {
	var p []int
	for s := i; s > j; {
		if s >= len(h.logs) {
			return nil, false
		}
		if r := h.same[s]; r >= j {
			s = r
			continue
		}
		if h.logs[s] == nil {
			return nil, false
		}
		p = append(p, s)
		s--
	}
	return p, true
}

// equalsAt reports whether the primary owners cur equal the assignment
// reached by undoing the logs of path p (see path) from it.
func (h *history) equalsAt(cur []timeline.NodeID, p []int) bool {
	for e := len(p) - 1; e >= 0; e-- {
		dense := h.logs[p[e]].dense
		if len(dense) == 0 {
			continue
		}
		if e == len(p)-1 {
			// The earlier step is stored whole: compare it as it is.
			return slices.Equal(dense, cur)
		}
		// A state on the way is stored whole: rebuild the earlier step
		// from it through the sparse logs after it.
		old := slices.Clone(dense)
		for _, s := range p[e+1:] {
			l := h.logs[s]
			for x, k := range l.keys {
				old[k] = l.old[x]
			}
		}
		return slices.Equal(old, cur)
	}
	return h.equalsSparse(cur, p)
}

// equalsSparse is equalsAt through sparse logs only: it undoes the logs
// of p in place, compares the keys they touched, and restores cur.
func (h *history) equalsSparse(cur []timeline.NodeID, p []int) bool {
	if len(h.marks) < (len(cur)+63)/64 {
		h.marks = make([]uint64, (len(cur)+63)/64)
	}
	keys, vals := h.keys[:0], h.vals[:0]
	defer func() { h.keys, h.vals = keys[:0], vals[:0] }()
	for _, s := range p {
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
func (t *tracker) recurs(i int, fp uint64, recompute func(step int) [][]timeline.NodeID) int {
	defer t.hist.trim()
	cur := t.cur[0]
	for _, j := range t.seen[fp] {
		var same bool
		if p, ok := t.hist.path(j, i); ok {
			same = t.hist.equalsAt(cur, p)
		} else {
			same = slices.Equal(recompute(j)[0], cur)
		}
		if same {
			t.hist.bridge(i, j)
			return j
		}
	}
	t.seen[fp] = append(t.seen[fp], i)
	return -1
}
