package ringrules

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Incremental multi-probe steps. A key's list depends only on its winning
// live point: the live point that follows one of its probes most closely
// (ties to the earlier probe). Between two steps some live points go away
// and some arrive, and every probe's distance to its next live point can
// only grow where points went away and only shrink where points arrived.
// So a key whose winning point stays live (with the same list) keeps it
// unless an arriving point lies closer after one of its probes than its
// winning distance: the probes that lost their next point were no closer
// than the winner before, and are now further. delta therefore re-probes
// only the keys owned by a node that lost a live point or one of whose
// points got a different list, and the keys that an arriving point may
// capture, found by checking each key's probes against the few arriving
// points without searching the whole circle (the winning distance of
// every key is kept for that). Ties are re-probed, never guessed.

// multiprobePlaced is what the last assign or delta placed: every key's
// owner and winning distance, and the live points and lists it saw.
type multiprobePlaced struct {
	owner []timeline.NodeID // by canonical key: the node of the winning live point
	dist  []uint32          // by canonical key: the winning probe's distance
	pts   []placer.Point
	idx   []uint32
	live  []bool
	pref  [][]timeline.NodeID
}

// multiprobeFewArrivals is the most arriving points delta checks every
// probe against one by one; beyond it, it looks them up by bucket.
const multiprobeFewArrivals = 3

// perKey returns the per-key arrays, allocated once.
func (m *multiprobePlaced) perKey(k int) ([]timeline.NodeID, []uint32) {
	if len(m.owner) != k {
		m.owner, m.dist = make([]timeline.NodeID, k), make([]uint32, k)
	}
	return m.owner, m.dist
}

// set records the ring's current points and lists. Point slices and
// list tables are never modified once built, so they are shared.
func (m *multiprobePlaced) set(r *Ring, pref [][]timeline.NodeID) {
	m.pts, m.idx, m.live, m.pref = r.Pts, r.Idx, r.Live, pref
}

// multiprobeChange is what changed between the last placement and now:
// nodes whose keys must be re-probed, and the arriving points.
type multiprobeChange struct {
	stale    []bool // by NodeID
	anyStale bool
	arrive   []uint32
}

// changes merges the last placement's live points with the current ones
// (both in the ring's order) and reports what changed. ok is false when
// either side has no live point.
func (p *Multiprobe) changes(pref [][]timeline.NodeID) (c multiprobeChange, ok bool) {
	a, b := &p.last, p.R
	c.stale = make([]bool, len(b.Env.Nodes))
	liveA, liveB := 0, 0
	i, j := 0, 0
	for i < len(a.pts) || j < len(b.Pts) {
		if i < len(a.pts) && !a.live[a.pts[i].Node] {
			i++
			continue
		}
		if j < len(b.Pts) && !b.Live[b.Pts[j].Node] {
			j++
			continue
		}
		cmp := -1
		switch {
		case i == len(a.pts):
			cmp = 1
		case j < len(b.Pts):
			cmp = b.cmpEntry(RingEntry{a.pts[i].Pos, a.pts[i].Node, a.idx[i]}, RingEntry{b.Pts[j].Pos, b.Pts[j].Node, b.Idx[j]})
		}
		switch {
		case cmp < 0: // gone
			c.stale[a.pts[i].Node], c.anyStale = true, true
			liveA++
			i++
		case cmp > 0: // arrived
			c.arrive = append(c.arrive, b.Pts[j].Pos)
			liveB++
			j++
		default:
			if !placer.SameLists(a.pref, i, pref, j) {
				c.stale[b.Pts[j].Node], c.anyStale = true, true
			}
			liveA++
			liveB++
			i++
			j++
		}
	}
	return c, liveA > 0 && liveB > 0
}

// Delta re-probes the keys whose winning point can have changed (see
// above) and reports those whose list may differ.
func (p *Multiprobe) Delta(d *placer.Delta) bool {
	R := len(d.Lists)
	pos := p.R.kc.Pos32()
	if len(p.last.owner) != len(pos) || len(p.last.pref) != R {
		return false
	}
	pref := p.R.Prefs(R)
	c, ok := p.changes(pref)
	if !ok {
		return false
	}
	owner, dist := p.last.owner, p.last.dist
	redo := func(i int) {
		j, dd := p.bestDist(pos[i])
		o := pref[0][j]
		if R > 1 || o != owner[i] {
			d.AddFrom(i, pref, j)
		}
		owner[i], dist[i] = o, dd
	}
	switch {
	case len(c.arrive) == 0 && c.anyStale:
		stale := c.stale
		for i, o := range owner {
			if stale[o] {
				redo(i)
			}
		}
	case len(c.arrive) == 1:
		p.scan1(c.arrive[0], c.stale, redo)
	case len(c.arrive) <= multiprobeFewArrivals:
		stale := c.stale
		for i, h := range pos {
			if stale[owner[i]] || p.Gap(h, c.arrive) <= dist[i] {
				redo(i)
			}
		}
	default:
		stale, ix := c.stale, newArrivalIndex(c.arrive)
		for i, h := range pos {
			if stale[owner[i]] || p.GapBound(h, ix) <= dist[i] {
				redo(i)
			}
		}
	}
	p.last.set(p.R, pref)
	return true
}

// scan1 re-probes the keys of stale nodes and the keys that the one
// arriving point at q may capture: gap and probeGap written out in one
// loop, the common step (one node of one point joins or recovers).
func (p *Multiprobe) scan1(q uint32, stale []bool, redo func(int)) {
	owner, dist, k := p.last.owner, p.last.dist, p.K
	for i, h := range p.R.kc.Pos32() {
		d := keys.Fmix32(h+0x9e3779b9) | 1
		m0, m1, m2 := ^uint32(0), ^uint32(0), ^uint32(0)
		a0 := q - h
		a1, a2, d3 := a0-d, a0-2*d, 3*d
		j := 0
		for ; j+3 <= k; j += 3 {
			m0, m1, m2 = min(m0, a0), min(m1, a1), min(m2, a2)
			a0, a1, a2 = a0-d3, a1-d3, a2-d3
		}
		if j < k {
			m0 = min(m0, a0)
		}
		if j+1 < k {
			m1 = min(m1, a1)
		}
		if stale[owner[i]] || min(m0, m1, m2) <= dist[i] {
			redo(i)
		}
	}
}

// Gap returns the least clockwise distance from any probe of the key at
// h to any of the points at positions q: a key whose gap exceeds its
// winning distance cannot be captured by those points.
func (p *Multiprobe) Gap(h uint32, q []uint32) uint32 {
	d := keys.Fmix32(h+0x9e3779b9) | 1
	m := ^uint32(0)
	for _, q := range q {
		m = min(m, probeGap(q-h, d, p.K))
	}
	return m
}

// probeGap returns min over j < k of a − j·d (mod 2³²): the distance from
// the nearest of k probes, a being the distance from probe 0. Three
// running minima, one per third of the probes, keep the chains short.
func probeGap(a, d uint32, k int) uint32 {
	m0, m1, m2 := ^uint32(0), ^uint32(0), ^uint32(0)
	a0, a1, a2 := a, a-d, a-2*d
	d3 := 3 * d
	j := 0
	for ; j+3 <= k; j += 3 {
		m0, m1, m2 = min(m0, a0), min(m1, a1), min(m2, a2)
		a0, a1, a2 = a0-d3, a1-d3, a2-d3
	}
	if j < k {
		m0 = min(m0, a0)
	}
	if j+1 < k {
		m1 = min(m1, a1)
	}
	return min(m0, m1, m2)
}

// arrivalIndex finds, for a probe, a lower bound on its distance to the
// next arriving point without a search: the circle is cut into buckets,
// and a probe whose bucket holds an arrival at or after it gets 0 (its
// key is probed again), any other the exact distance to the first
// arrival of a later bucket.
type arrivalIndex struct {
	Shift uint
	mask  uint32
	first []uint32 // first[b]: the first arrival at or after bucket b's start, wrapping; len B+1
	end   []uint32 // end[b]: 1 + the offset in bucket b of its last arrival, 0 when none
}

// newArrivalIndex indexes the arrivals (in ascending order) with at
// least 512 buckets per arrival, 2¹² to 2²⁰ buckets.
func newArrivalIndex(arrive []uint32) *arrivalIndex {
	bits := uint(12)
	for 1<<bits < 512*len(arrive) && bits < 20 {
		bits++
	}
	B := 1 << bits
	ix := &arrivalIndex{Shift: 32 - bits, mask: 1<<(32-bits) - 1, first: make([]uint32, B+1), end: make([]uint32, B)}
	for _, q := range arrive {
		ix.end[q>>ix.Shift] = q&ix.mask + 1
	}
	next := arrive[0] // wrapping: past the last arrival comes the first
	a := len(arrive) - 1
	for b := B; b >= 0; b-- {
		for a >= 0 && uint64(arrive[a]) >= uint64(b)<<ix.Shift {
			next = arrive[a]
			a--
		}
		ix.first[b] = next
	}
	return ix
}

// GapBound is a lower bound on gap(h, arrivals) from the index.
func (p *Multiprobe) GapBound(h uint32, ix *arrivalIndex) uint32 {
	d := keys.Fmix32(h+0x9e3779b9) | 1
	m := ^uint32(0)
	x := h
	for range p.K {
		b := x >> ix.Shift
		g := ix.first[b+1] - x
		if ix.end[b] > x&ix.mask {
			g = 0
		}
		m = min(m, g)
		x += d
	}
	return m
}
