package ringrules

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
)

// Incremental bounded steps. Keys are placed in ascending position order,
// and until the first node fills, every key goes to its first live point
// clockwise: the plain ring's placement. So if F is the rank of the key
// that first fills a node (K when none does), the keys of rank below F sit
// where the ring puts them, and only the keys from F on depend on the
// capacities. A step compares the last placement with the new one in
// three parts:
//
//   - ranks below T = min(F_old, F_new): both placements are rings, so the
//     changed keys are those of the stretches of the circle whose list
//     changed (as in the ring's delta);
//   - T itself: the loads at F_old follow from the last placement's final
//     loads minus its keys from F_old on, plus the ring's changes below
//     F_old; if every node is then under its new capacity, F_new ≥ F_old
//     (loads only grow with the rank), else the keys below F_old are taken
//     back one at a time until every node is under, which is F_new;
//   - ranks from T on: placed again with the walker from the loads at T,
//     and compared with the last placement key by key.
//
// The last placement keeps, for that, its points and lists, its final
// loads, F and the point of every key from F on (4 bytes per such key).
// With the default ε = 0.25 and 160 points per node no node fills and a
// step costs what the ring's costs; with a tight ε the keys from the first
// fill on are placed again.

// boundedPlaced is what the last assign or delta placed.
type boundedPlaced struct {
	view  ringView // points and lists, shared (never modified)
	first int      // F: the rank of the key that first filled a node, or K
	tail  []int32  // the point of the key of rank first+t, in view.pts
	loads []int    // keys per NodeID
}

// boundedChange is a key of rank t whose list may have changed below T,
// landing on point j of the new view.
type boundedChange struct{ t, j int32 }

// Delta reports the keys whose list may have changed (see above).
func (b *bounded) Delta(d *placer.Delta) bool {
	K := b.r.Env.Keys.Len()
	R := len(d.Lists)
	last := &b.last
	if last.loads == nil || len(last.view.pref) != R || b.sum < K {
		return false
	}
	cur := ringView{b.r.Pts, b.r.Prefs(R)}
	if len(cur.pts) == 0 {
		return false
	}
	sorted := b.r.kc.SortedPos()
	perm, _ := b.r.kc.Order()
	loads := last.loads
	for _, c := range last.tail { // loads at F_old
		loads[last.view.pref[0][c]]--
	}
	changes := b.ringChanges(last.view, cur, sorted, last.first, loads)
	T := b.firstFill(cur, sorted, last.first, loads)
	for _, c := range changes {
		if int(c.t) >= T {
			break
		}
		d.AddFrom(keys.CanonicalAt(perm, int(c.t)), cur.pref, int(c.j))
	}
	b.placeFrom(T, cur, sorted, perm, loads, d)
	return true
}

// ringChanges lists the keys of rank below end whose ring list differs
// between views a and b, in rank order, and moves their loads from a's
// owner to b's.
func (b *bounded) ringChanges(a, v ringView, sorted []uint32, end int, loads []int) []boundedChange {
	var out []boundedChange
	diffViews(a, v, func(lo, hi uint64, ownA, ownB int) bool {
		t0, t1 := stretchRanks(sorted, lo, hi)
		if t0 >= end {
			return false
		}
		t1 = min(t1, end)
		from, to := a.pref[0][ownA], v.pref[0][ownB]
		loads[from] -= t1 - t0
		loads[to] += t1 - t0
		for t := t0; t < t1; t++ {
			out = append(out, boundedChange{int32(t), int32(ownB)})
		}
		return true
	})
	return out
}

// firstFill returns T = min(F_old, F_new) given the new ring's loads at
// F_old, and leaves in loads the loads at T.
func (b *bounded) firstFill(v ringView, sorted []uint32, fOld int, loads []int) int {
	over := 0
	for id, l := range loads {
		over += placer.B2i(b.cap[id] > 0 && l >= b.cap[id])
	}
	t := fOld
	for ; over > 0; t-- {
		id := v.pref[0][b.r.First(sorted[t-1])]
		if loads[id] == b.cap[id] {
			over--
		}
		loads[id]--
	}
	return t
}

// placeFrom places the keys of rank T on with the walker, from the loads
// at T, reports those whose list changed, and records the placement.
func (b *bounded) placeFrom(T int, v ringView, sorted, perm []uint32, loads []int, d *placer.Delta) {
	last := &b.last
	K := len(sorted)
	b.fullAt = make([]int, len(b.cap))
	for id := range b.fullAt {
		b.fullAt[id] = K
	}
	first, tail := K, []int32(nil)
	if T < K {
		w := b.newWalker()
		copy(w.load, loads)
		P, oldP := len(v.pts), len(last.view.pts)
		jNew := lowerPoint(v.pts, sorted[T])
		jOld := lowerPoint(last.view.pts, sorted[T]) // for ranks below F_old
		cs := make([]int32, 0, K-T)
		for t := T; t < K; t++ {
			p := sorted[t]
			for jNew < P && v.pts[jNew].Pos < p {
				jNew++
			}
			c := w.place(jNew%P, t)
			cs = append(cs, int32(c))
			old := 0
			if t < last.first {
				for jOld < oldP && last.view.pts[jOld].Pos < p {
					jOld++
				}
				old = jOld % oldP
			} else {
				old = int(last.tail[t-last.first])
			}
			if !placer.SameLists(last.view.pref, old, v.pref, c) {
				d.AddFrom(keys.CanonicalAt(perm, t), v.pref, c)
			}
		}
		copy(loads, w.load)
		b.fullAt = w.fullAt
		for _, f := range w.fullAt {
			first = min(first, f)
		}
		tail = cs[first-T:]
	}
	*last = boundedPlaced{view: v, first: first, tail: tail, loads: loads}
}

// lowerPoint returns the index of the first point at or after pos, or
// len(pts) when there is none.
func lowerPoint(pts []placer.Point, pos uint32) int {
	lo, hi := 0, len(pts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if pts[m].Pos < pos {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
