package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/strips"

// The tracker's path for a whole single-replica step that moves a large
// share of the keys (modulo at every step, jump when it renumbers). The
// step's undo log is the whole previous assignment, so no key is logged
// one by one; the loads, the moved count and the transfers all follow
// from one counter per (old, new) owner pair, which also holds the
// pair's reason; and the keys are taken one HashOrder strip cell at a
// time, so that cell's counts gather in registers rather than in a
// counter the loop has just incremented. When the strip's hash order is
// the keys' own and keys carry no weights, every key is counted, moved or
// not, which spares the pass that picks out the moved ones: a key that
// stays counts on its owner's diagonal pair, whose reason is reasonSame;
// then the KeyOrder strip's collateral keys, most of the step's, need no
// counter either: they are what is left of each cell.

// movesDense applies and measures a whole step with one replica, owners
// being every key's new primary owner, when the undo log goes dense. The
// pair counter must be dense (pairs.keys != nil) and empty.
func (t *tracker) movesDense(acc *stepAcc, owners []timeline.NodeID) {
	cur := t.cur[0]
	t.takeDense(cur)
	m := pairMoves{cur: cur, owners: owners, pairs: t.pairTable(acc), keyCell: t.res.keyCell,
		ko: t.flatStrip()}
	ho := t.strip.HashOrder
	all := t.rank == nil && t.w == nil
	var buf [moveBlock]uint32
	for c := range ho {
		lo, hi := ceilDiv(c*t.k, len(ho)), ceilDiv((c+1)*t.k, len(ho))
		if all {
			for base := lo; base < hi; base += maxCountAll {
				n := m.countAll(base, min(base+maxCountAll, hi))
				for r := range strips.NumReasons {
					ho[c][r] += uint32(n >> (16 * r) & 0xffff)
				}
			}
			continue
		}
		for base := lo; base < hi; base += moveBlock {
			moved := movedRange(&buf, cur, owners, base, min(base+moveBlock, hi))
			nF, nC := m.count(moved)
			if t.rank != nil {
				m.hashOrder(moved, t.rank, t.cells, ho)
			} else {
				ho[c][strips.ReasonForced] += nF
				ho[c][strips.ReasonCollateral] += nC
				ho[c][strips.ReasonGained] += uint32(len(moved)) - nF - nC
			}
			if t.w != nil {
				m.requests(moved, t.w, &t.pairs)
			}
		}
	}
	if all {
		collateralByDifference(m.ko, t.k)
	}
	foldStrip(t.strip.KeyOrder, m.ko)
	moved := m.flush(&t.pairs)
	t.counted = true
	t.pairs.applyLoads(t.loads)
	acc.sr.Moved += moved
	acc.sr.ReplicaMoved += moved
	acc.sr.Copies += moved
	t.fpAfter(t.hist.Log(), cur, owners, false)
}

// pairMoves is what movesDense counts moved keys with.
type pairMoves struct {
	cur, owners []timeline.NodeID // owners before and after the step, by key
	// pairs holds, by old<<pairShift | new owner, the pair's reason in
	// the low two bits and its moved keys above them. Its fixed size
	// spares count the bounds checks, and the registers they would take.
	pairs   *[1 << (2 * pairShift)]uint32
	keyCell []uint16   // Result.keyCell
	ko      *flatStrip // the KeyOrder strip
}

// pairShift is the bits of a node in a pairMoves cell: it holds every
// NodeID of a dense pair counter.
const pairShift = 9

var _ = [1]int{}[DenseTransferNodes>>pairShift-1]

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

// countAll is count for every key in [lo, hi), moved or not, at most
// maxCountAll of them: a key that stays counts on the diagonal pair (o,
// o), whose reason is reasonSame, and in its cell's reasonSame slot. It
// returns the keys by reason in one word, reason r's count in bits
// 16r to 16r+15, which one add per key keeps in a register.
//
// A collateral key is not counted in the KeyOrder strip: those are most
// of a dense step's keys, and their counter is the loop's costliest
// store. Once every key is counted, collateralByDifference finds them as
// the rest of each cell.
//
//go:noinline
func (m *pairMoves) countAll(lo, hi int) (byReason uint64) {
	// Slices of the fixed arrays, whose lengths the compiler still knows,
	// are checked for nil here once rather than at every key.
	pairs, ko, one := m.pairs[:], m.ko[:], &reasonOne
	cur := m.cur[lo:hi]
	owners, keyCell := m.owners[lo:hi][:len(cur)], m.keyCell[lo:hi][:len(cur)]
	for i, o := range cur {
		cell := (uint(o)<<pairShift | uint(owners[i])) & (1<<(2*pairShift) - 1)
		v := pairs[cell] + 1<<2
		pairs[cell] = v
		r := v & 3
		if r != strips.ReasonCollateral {
			ko[(uint(keyCell[i])+uint(r))&uint(len(ko)-1)]++
		}
		byReason += one[r&3]
	}
	return byReason
}

// collateralByDifference sets every KeyOrder cell's collateral count,
// which countAll leaves out, once countAll has counted every key: the
// cell's keys not counted as gained, forced or staying (reasonSame).
func collateralByDifference(ko *flatStrip, k int) {
	n := strips.Cells(k)
	for c := range n {
		s := ko[c*stripStride : c*stripStride+stripStride]
		s[strips.ReasonCollateral] = uint32(strips.CellKeys(c, n, k)) - s[strips.ReasonGained] - s[strips.ReasonForced] - s[reasonSame]
	}
}

// reasonOne is one key of each reason in countAll's word: a table load
// where a shift by a variable count would tie up a register.
var reasonOne = [4]uint64{1, 1 << 16, 1 << 32, 1 << 48}

// maxCountAll is the most keys one countAll counts: each reason's count
// has sixteen bits.
const maxCountAll = 1<<16 - 1

// reasonSame is the reason countAll gives a key that did not move: its
// bits are forced's and collateral's both, and it counts as neither.
const reasonSame = strips.ReasonForced | strips.ReasonCollateral

var _ = [1]int{}[reasonSame-strips.NumReasons]

// hashOrder counts the moved keys into the HashOrder strip by their rank
// in the rule's order.
func (m *pairMoves) hashOrder(moved []uint32, rank []uint32, cells strips.Index, ho []strips.Cell) {
	for _, k := range moved {
		ho[cells.Of(rank[k])][m.pairs[int(m.cur[k])<<pairShift|int(m.owners[k])]&3]++
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
// The diagonal, keys that stayed, is not a move.
func (m *pairMoves) flush(p *pairCounter) int {
	moved := 0
	for o := range p.n {
		for c, v := range m.pairs[o<<pairShift : o<<pairShift+p.n] {
			if n := int32(v >> 2); n != 0 && c != o {
				p.keys[o*p.n+c] += n
				p.touched = append(p.touched, uint32(o*p.n+c))
				moved += int(n)
			}
		}
	}
	return moved
}

// The r&1 and r>>1 of count, by reason.
var _ = [1]int{}[strips.ReasonGained|strips.ReasonForced^1|strips.ReasonCollateral^2]

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
		row[o] = reasonSame
	}
	return t.pairScratch
}

// flatStrip is a strip's counts in one array: cell c's count for reason
// r is at c·stripStride + r. The slot after the reasons, reasonSame's,
// takes the keys countAll counts that did not move, and is never read.
type flatStrip [strips.MaxCells * stripStride]uint32

// stripStride is the slots per cell of a flatStrip: a power of two with
// room for every reason and reasonSame.
const stripStride = 4

var _ = [1]int{}[stripStride-1-reasonSame]

// flatStrip returns a zeroed flat strip.
func (t *tracker) flatStrip() *flatStrip {
	if t.stripScratch == nil {
		t.stripScratch = new(flatStrip)
	}
	clear(t.stripScratch[:])
	return t.stripScratch
}

// foldStrip adds a flat strip's counts into a strip.
func foldStrip(dst []strips.Cell, flat *flatStrip) {
	for c := range dst {
		for r := range dst[c] {
			dst[c][r] += flat[c*stripStride+r]
		}
	}
}

// takeDense makes cur, the primary assignment before a whole step, the
// open undo log's dense snapshot without copying it: the log takes cur's
// array and t.cur[0] gets another (undolog.History.TakeDense), which is
// scratch once the caller makes the whole new assignment current.
func (t *tracker) takeDense(cur []timeline.NodeID) {
	t.cur[0] = t.hist.TakeDense(cur)
}

// movedRange compacts the keys k in [lo, hi), hi−lo ≤ moveBlock, whose
// owner changes from cur[k] to owners[k] into buf, without a branch, and
// returns them. It is kept out of line so that its count stays in a
// register.
//
//go:noinline
func movedRange(buf *[moveBlock]uint32, cur, owners []timeline.NodeID, lo, hi int) []uint32 {
	n := 0
	cur, owners = cur[lo:hi], owners[lo:hi]
	for i, o := range cur {
		buf[n&(moveBlock-1)] = uint32(lo + i)
		n += placer.B2i(o != owners[i])
	}
	return buf[:n]
}
