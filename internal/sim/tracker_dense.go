package sim

// The tracker's path for a whole single-replica step that moves a large
// share of the keys (modulo at every step, jump when it renumbers). The
// step's undo log is the whole previous assignment, so no key is logged
// one by one; the loads, the moved count and the transfers all follow
// from one counter per (old, new) owner pair, which also holds the
// pair's reason; and the keys are taken one HashOrder strip cell at a
// time, so that cell's counts gather in registers rather than in a
// counter the loop has just incremented.

// movesDense applies and measures a whole step with one replica, owners
// being every key's new primary owner, when the undo log goes dense. The
// pair counter must be dense (pairs.keys != nil) and empty.
func (t *tracker) movesDense(acc *stepAcc, owners []NodeID) {
	cur := t.cur[0]
	t.takeDense(cur)
	m := pairMoves{cur: cur, owners: owners, pairs: t.pairTable(acc), keyCell: t.res.Keys.keyCell,
		ko: t.flatStrip()}
	ho := acc.sr.Strip.HashOrder
	var buf [moveBlock]uint32
	for c := range ho {
		lo, hi := ceilDiv(c*t.k, len(ho)), ceilDiv((c+1)*t.k, len(ho))
		for base := lo; base < hi; base += moveBlock {
			moved := movedRange(&buf, cur, owners, base, min(base+moveBlock, hi))
			nF, nC := m.count(moved)
			if t.rank != nil {
				m.hashOrder(moved, t.rank, t.cells, ho)
			} else {
				ho[c][ReasonForced] += nF
				ho[c][ReasonCollateral] += nC
				ho[c][ReasonGained] += uint32(len(moved)) - nF - nC
			}
			if t.w != nil {
				m.requests(moved, t.w, &t.pairs)
			}
		}
	}
	foldStrip(acc.sr.Strip.KeyOrder, m.ko)
	moved := m.flush(&t.pairs)
	t.counted = true
	t.pairs.applyLoads(t.loads)
	acc.sr.Moved += moved
	acc.sr.ReplicaMoved += moved
	acc.sr.Copies += moved
	t.fpAfter(t.hist.open_, cur, owners, false)
}

// pairMoves is what movesDense counts moved keys with.
type pairMoves struct {
	cur, owners []NodeID // owners before and after the step, by key
	// pairs holds, by old<<pairShift | new owner, the pair's reason in
	// the low two bits and its moved keys above them. Its fixed size
	// spares count the bounds checks, and the registers they would take.
	pairs   *[1 << (2 * pairShift)]uint32
	keyCell []uint16                            // KeySet.keyCell
	ko      *[MaxStripCells * NumReasons]uint32 // the KeyOrder strip, flat
}

// pairShift is the bits of a node in a pairMoves cell: it holds every
// NodeID of a dense pair counter.
const pairShift = 9

var _ = [1]int{}[denseTransferNodes>>pairShift-1]

// count counts the moved keys by owner pair and into the KeyOrder strip,
// and returns how many were forced and collateral (the rest gained). It
// is kept out of line so that its counters stay in registers.
//
//go:noinline
func (m *pairMoves) count(moved []uint32) (nF, nC uint32) {
	cur, pairs, ko := m.cur, m.pairs, m.ko
	owners, keyCell := m.owners[:len(cur)], m.keyCell[:len(cur)]
	for _, k := range moved {
		cell := (uint(cur[k])<<pairShift | uint(owners[k])) & (1<<(2*pairShift) - 1)
		v := pairs[cell] + 1<<2
		pairs[cell] = v
		r := v & 3
		ko[uint(keyCell[k])+uint(r)]++
		nF += r & 1
		nC += r >> 1
	}
	return nF, nC
}

// hashOrder counts the moved keys into the HashOrder strip by their rank
// in the rule's order.
func (m *pairMoves) hashOrder(moved []uint32, rank []uint32, cells stripIndex, ho []Cell) {
	for _, k := range moved {
		ho[cells.of(rank[k])][m.pairs[int(m.cur[k])<<pairShift|int(m.owners[k])]&3]++
	}
}

// requests adds the weights of the moved keys to their pairs' requests.
func (m *pairMoves) requests(moved []uint32, w []uint32, p *pairCounter) {
	for _, k := range moved {
		p.reqs[int(m.cur[k])*p.n+int(m.owners[k])] += int64(w[k])
	}
}

// flush moves the pairs' counts of nodes below n into the pair counter,
// marking them touched in ascending order, and returns the moved keys.
func (m *pairMoves) flush(p *pairCounter) int {
	moved := 0
	for o := range p.n {
		for c, v := range m.pairs[o<<pairShift : o<<pairShift+p.n] {
			if n := int32(v >> 2); n != 0 {
				p.keys[o*p.n+c] += n
				p.touched = append(p.touched, uint32(o*p.n+c))
				moved += int(n)
			}
		}
	}
	return moved
}

// The r&1 and r>>1 of count, by reason.
var _ = [1]int{}[ReasonGained|ReasonForced^1|ReasonCollateral^2]

// pairTable returns the pair table of movesDense for a step: the reason
// of a move between every two nodes (see reasonOf), and no keys yet.
func (t *tracker) pairTable(acc *stepAcc) *[1 << (2 * pairShift)]uint32 {
	forced, gained := reasonTables(acc)
	if t.pairScratch == nil {
		t.pairScratch = new([1 << (2 * pairShift)]uint32)
	}
	for o := range forced {
		row := t.pairScratch[o<<pairShift : o<<pairShift+len(gained)]
		for c := range row {
			row[c] = uint32(reasonOf[forced[o]<<1|gained[c]])
		}
	}
	return t.pairScratch
}

// flatStrip returns a zeroed strip of NumReasons counts per cell, flat.
func (t *tracker) flatStrip() *[MaxStripCells * NumReasons]uint32 {
	if t.stripScratch == nil {
		t.stripScratch = new([MaxStripCells * NumReasons]uint32)
	}
	clear(t.stripScratch[:])
	return t.stripScratch
}

// foldStrip adds a flat strip's counts into a strip.
func foldStrip(dst []Cell, flat *[MaxStripCells * NumReasons]uint32) {
	for c := range dst {
		for r := range dst[c] {
			dst[c][r] += flat[c*NumReasons+r]
		}
	}
}

// takeDense makes cur, the primary assignment before a whole step, the
// open undo log's dense snapshot without copying it: the log takes cur's
// array and t.cur[0] gets the log's own, or one a dropped log held (see
// denseBuffer), which is scratch once the caller makes the whole new
// assignment current.
func (t *tracker) takeDense(cur []NodeID) {
	u := t.hist.open_
	spare := u.dense[:cap(u.dense)]
	if len(spare) < len(cur) {
		spare = t.hist.denseBuffer(len(cur))
	}
	u.keys, u.old = u.keys[:0], u.old[:0]
	u.dense = cur
	t.cur[0] = spare[:len(cur)]
}

// movedRange compacts the keys k in [lo, hi), hi−lo ≤ moveBlock, whose
// owner changes from cur[k] to owners[k] into buf, without a branch, and
// returns them. It is kept out of line so that its count stays in a
// register.
//
//go:noinline
func movedRange(buf *[moveBlock]uint32, cur, owners []NodeID, lo, hi int) []uint32 {
	n := 0
	cur, owners = cur[lo:hi], owners[lo:hi]
	for i, o := range cur {
		buf[n&(moveBlock-1)] = uint32(lo + i)
		n += b2i(o != owners[i])
	}
	return buf[:n]
}
