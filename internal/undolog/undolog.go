// Package undolog keeps, for the recent steps of one rule's replay, an
// undo log of the primary owners each step overwrote, so that an exact
// recurrence check can compare an earlier step's assignment with the
// current one from the keys that changed since, rather than by replaying
// the rule.
//
// A step that changes few keys keeps a sparse log (key, old owner), 6
// bytes per changed key; one that changes more than a third of them keeps
// the whole previous primary assignment, 2 bytes per key. Logs are kept
// within a budget (Budget), dropping the oldest (the log being written
// comes on top); a check that needs a dropped log recomputes the earlier
// step instead. Once a step is found to recur (its assignment equals step
// r's, Bridge), a walk back from a later step goes from it straight to r,
// and the logs in between, which that walk no longer needs, are the first
// to be dropped: after a failure and its recovery, the step before the
// failure stays reachable.
package undolog

import "github.com/ringreport/ringreport/internal/timeline"
import "slices"

// History is one rule's undo logs, by step; New makes one.
type History struct {
	k      int
	budget int // bytes
	used   int
	logs   []*Log // by step; nil when not kept
	step   int    // the step being recorded
	open   *Log   // its log
	src    []timeline.NodeID
	spare  *Log                // a dropped log, for reuse
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

// BytesPerKey is the undo-log budget, in bytes per key: what the cost
// model (internal/cost) charges a replay for its logs.
const BytesPerKey = 4

// minBytes is the undo-log budget of small key sets.
const minBytes = 1 << 20

// Budget is the undo-log budget, in bytes, of a replay of k keys.
func Budget(k int) int { return max(BytesPerKey*k, minBytes) }

// Log is one step's log: the keys whose primary owner changed and the
// owner each had before, or (dense) the whole previous primary assignment.
type Log struct {
	keys  []uint32
	old   []timeline.NodeID
	dense []timeline.NodeID
}

func (u *Log) bytes() int { return 6*len(u.keys) + 2*len(u.dense) }

// IsDense reports whether the log holds the whole primary assignment
// before the step rather than sparse entries.
func (u *Log) IsDense() bool { return len(u.dense) > 0 }

// Dense returns the whole primary assignment before the step (empty
// while the log is sparse).
func (u *Log) Dense() []timeline.NodeID { return u.dense }

// Sparse returns the sparse log's entries: key keys[e] had primary owner
// old[e] before the step. Both are empty once the log is dense.
func (u *Log) Sparse() (keys []uint32, old []timeline.NodeID) { return u.keys, u.old }

// Len is the number of the sparse log's entries.
func (u *Log) Len() int { return len(u.keys) }

// Append adds a sparse entry without Record's check for going dense: for
// a caller that keeps Len under a third of the keys itself.
func (u *Log) Append(k uint32, old timeline.NodeID) {
	u.keys = append(u.keys, k)
	u.old = append(u.old, old)
}

// Reserve makes room for n more sparse entries.
func (u *Log) Reserve(n int) {
	u.keys, u.old = slices.Grow(u.keys, n), slices.Grow(u.old, n)
}

// Snapshot makes the log dense with a copy of cur, the whole primary
// assignment before the step, for a step known to move many keys.
func (u *Log) Snapshot(cur []timeline.NodeID) {
	u.dense = append(u.dense[:0], cur...)
}

// New returns the empty history of a replay of k keys that keeps its
// logs within budget bytes.
func New(k, budget int) *History {
	return &History{k: k, budget: budget}
}

// Open starts step i's log; cur is the primary assignment before the
// step, which Record may snapshot.
func (h *History) Open(i int, cur []timeline.NodeID) {
	h.Trim()
	h.grow(i)
	u := h.spare
	if u == nil {
		u = &Log{}
	}
	h.spare = nil
	u.keys, u.old, u.dense = u.keys[:0], u.old[:0], u.dense[:0]
	h.step, h.open, h.src = i, u, cur
}

// drop frees a log, keeping the largest dropped one for reuse, and the
// whole assignment of another for denseBuffer.
func (h *History) drop(l *Log) {
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
func (h *History) denseBuffer(n int) []timeline.NodeID {
	for len(h.free) > 0 {
		b := h.free[len(h.free)-1]
		h.free = h.free[:len(h.free)-1]
		if cap(b) >= n {
			return b[:n]
		}
	}
	return make([]timeline.NodeID, n)
}

// Log returns the open log (see Open).
func (h *History) Log() *Log { return h.open }

// Record notes that key k's primary owner was old before this step. It
// must be called before the open step's cur[k] is overwritten.
func (h *History) Record(k int, old timeline.NodeID) {
	u := h.open
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

// Close keeps the open log; logs over budget are dropped by Trim, once
// the step's recurrence is known.
func (h *History) Close() {
	i := h.step
	if h.logs[i] != nil {
		h.used -= h.logs[i].bytes()
		h.drop(h.logs[i])
	}
	h.logs[i], h.open, h.src = h.open, nil, nil
	h.used += h.logs[i].bytes()
}

// Trim drops logs while over budget: bridged ones first, then the
// oldest.
func (h *History) Trim() {
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
func (h *History) grow(i int) {
	for len(h.logs) <= i {
		h.logs = append(h.logs, nil)
		h.same = append(h.same, -1)
		h.bridged = append(h.bridged, false)
	}
}

// Bridge notes that step m's assignment equals step r's (r < m).
func (h *History) Bridge(m, r int) {
	h.grow(m)
	h.same[m] = r
	for s := r + 1; s <= m; s++ {
		h.bridged[s] = true
	}
}

// Path returns the logs that lead from step i's assignment back to step
// j's, newest first: one step at a time, except that a step known to
// equal an earlier one at or after j leads straight to it. It reports
// false when a log on the way was dropped.
func (h *History) Path(j, i int) ([]int, bool) {
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

// EqualsAt reports whether the primary owners cur equal the assignment
// reached by undoing the logs of path p (see Path) from it.
func (h *History) EqualsAt(cur []timeline.NodeID, p []int) bool {
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

// equalsSparse is EqualsAt through sparse logs only: it undoes the logs
// of p in place, compares the keys they touched, and restores cur.
func (h *History) equalsSparse(cur []timeline.NodeID, p []int) bool {
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

// TakeDense makes cur, the primary assignment before a whole step, the
// open log's dense snapshot without copying it, and returns an array of
// len(cur) owners for the caller's scratch: the log's own, or one a
// dropped log held, or a new one.
func (h *History) TakeDense(cur []timeline.NodeID) []timeline.NodeID {
	u := h.open
	spare := u.dense[:cap(u.dense)]
	if len(spare) < len(cur) {
		spare = h.denseBuffer(len(cur))
	}
	u.keys, u.old = u.keys[:0], u.old[:0]
	u.dense = cur
	return spare[:len(cur)]
}
