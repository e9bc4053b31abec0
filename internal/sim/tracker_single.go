package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/strips"
import "github.com/ringreport/ringreport/internal/keys"
import "github.com/ringreport/ringreport/internal/undolog"

// The single-replica fast path of the tracker. With one replica a key's
// list is its primary owner, and the rules that move many keys at once
// (modulo at every step, jump when it renumbers) spend most of a step on
// the metrics of moved keys, so this path keeps the per-key work to a few
// loads and increments: the replica counts follow from the moved count,
// the reason comes from two per-node tables instead of branches, and the
// fingerprint is brought up to date after the loop, from the step's undo
// log (two terms per moved key) or, when the log went dense because more
// than a third of the keys moved, from scratch (one term per key).

// moves1 applies and measures a step with one replica: key keys[j] (key j
// itself when keys is nil) now has primary owners[j]. With store it also
// writes the new owners into t.cur[0] (a delta); otherwise owners is the
// whole new assignment, which the caller makes current. It does what
// change and move do for every key whose owner differs. A whole step
// that moves more than a third of the keys goes to movesDense.
func (t *tracker) moves1(acc *stepAcc, keys []uint32, owners []timeline.NodeID, store bool) {
	if t.pairs.keys == nil {
		t.moves1Sparse(acc, keys, owners, store)
		return
	}
	cur := t.cur[0]
	u := t.hist.Log()
	sparseMax := (t.k + 2) / 3 // record keeps a sparse log while 3·len < K
	dense := !u.IsDense() && len(owners) > sparseMax && likelyDense(cur, keys, owners, sparseMax)
	if dense && keys == nil {
		t.movesDense(acc, owners)
		return
	}
	forced, gained := reasonTables(acc)
	rank, cells := t.rank, t.cells
	ko, ho := t.flatStrip(), t.strip.HashOrder
	if dense {
		// The log would go dense: snapshot the assignment before the
		// step now rather than growing a sparse log first.
		u.Snapshot(cur)
	} else if keys != nil {
		// A delta's entries bound its moves: size the log once.
		n := min(len(keys), sparseMax)
		u.Reserve(n)
	}
	pc, w := &t.pairs, t.w
	t.counted = true
	// HashOrder counts gather in registers while consecutive moved keys
	// fall in the same cell (keys come mostly in ascending order), so
	// that the loop does not wait on one counter it just incremented.
	hcell, nG, nF, nC := 0, uint32(0), uint32(0), uint32(0)
	var buf [moveBlock]uint32
	var mk movedKeys
	for base := 0; base < len(owners); base += moveBlock {
		moved := movedIn(&buf, cur, keys, owners, base)
		mk.gather(moved, keys, t.res.keyCell, rank)
		for i, jj := range moved {
			j, k := int(jj), int(mk.key[i])
			c, o := owners[j], cur[k]
			if !u.IsDense() {
				if u.Len() < sparseMax {
					u.Append(uint32(k), o)
				} else {
					t.hist.Record(k, o)
				}
			}
			if store {
				cur[k] = c
			}
			cell := int(o)*pc.n + int(c)
			if pc.keys[cell] == 0 {
				pc.touched = append(pc.touched, uint32(cell))
			}
			pc.keys[cell]++
			if w != nil {
				pc.reqs[cell] += int64(w[k])
			}
			why := reasonOf[forced[o]<<1|gained[c]]
			ko[int(mk.cell[i])+int(why)]++
			if hc := cells.Of(mk.place[i]); hc != hcell {
				ho[hcell][strips.ReasonGained] += nG
				ho[hcell][strips.ReasonForced] += nF
				ho[hcell][strips.ReasonCollateral] += nC
				hcell, nG, nF, nC = hc, 0, 0, 0
			}
			nG += uint32(placer.B2i(why == strips.ReasonGained))
			nF += uint32(placer.B2i(why == strips.ReasonForced))
			nC += uint32(placer.B2i(why == strips.ReasonCollateral))
		}
	}
	ho[hcell][strips.ReasonGained] += nG
	ho[hcell][strips.ReasonForced] += nF
	ho[hcell][strips.ReasonCollateral] += nC
	foldStrip(t.strip.KeyOrder, ko)
	moved := pc.applyLoads(t.loads)
	acc.sr.Moved += moved
	acc.sr.ReplicaMoved += moved
	acc.sr.Copies += moved
	t.fpAfter(u, cur, owners, store)
}

// movedKeys holds, for a block of moved entries, each one's key, the
// offset of its KeyOrder strip cell (Result.keyCell) and its place in the
// rule's order.
type movedKeys struct {
	key, place [moveBlock]uint32
	cell       [moveBlock]uint16
}

// gather fills m for the entries moved (keys[j], or j when keys is nil),
// in a loop of its own: a delta's keys are scattered over the key arrays,
// and a short loop lets their loads overlap.
func (m *movedKeys) gather(moved, keys []uint32, keyCell []uint16, rank []uint32) {
	for i, j := range moved {
		k := j
		if keys != nil {
			k = keys[j]
		}
		m.key[i&(moveBlock-1)], m.cell[i&(moveBlock-1)] = k, keyCell[k]
	}
	copy(m.place[:], m.key[:len(moved)])
	if rank != nil {
		for i, k := range m.key[:len(moved)] {
			m.place[i] = rank[k]
		}
	}
}

// applyLoads moves the counted keys of every pair from its old owner's
// load to its new owner's in loads, and returns how many keys moved.
func (p *pairCounter) applyLoads(loads []int) int {
	moved := 0
	for _, c := range p.touched {
		n := int(p.keys[c])
		loads[int(c)/p.n] -= n
		loads[int(c)%p.n] += n
		moved += n
	}
	return moved
}

// moves1Sparse is moves1 for node tables too large for a dense pair
// counter: loads are counted per key, and transfers afterwards from the
// undo log.
func (t *tracker) moves1Sparse(acc *stepAcc, keys []uint32, owners []timeline.NodeID, store bool) {
	cur := t.cur[0]
	forced, gained := reasonTables(acc)
	gen, rank, cells := t.res.Keys.Gen, t.rank, t.cells
	ko, ho := t.strip.KeyOrder, t.strip.HashOrder
	u := t.hist.Log()
	moved := 0
	var buf [moveBlock]uint32
	for base := 0; base < len(owners); base += moveBlock {
		for _, jj := range movedIn(&buf, cur, keys, owners, base) {
			j := int(jj)
			k := j
			if keys != nil {
				k = int(keys[j])
			}
			c, o := owners[j], cur[k]
			t.hist.Record(k, o)
			if store {
				cur[k] = c
			}
			moved++
			t.loads[o]--
			t.loads[c]++
			why := reasonOf[forced[o]<<1|gained[c]]
			ko[cells.Of(gen[k])][why]++
			h := uint32(k)
			if rank != nil {
				h = rank[k]
			}
			ho[cells.Of(h)][why]++
		}
	}
	acc.sr.Moved += moved
	acc.sr.ReplicaMoved += moved
	acc.sr.Copies += moved
	t.fpAfter(u, cur, owners, store)
}

// moveBlock is how many entries moves1 compacts at a time.
const moveBlock = 2048

// movedIn compacts the entries j of owners in [base, base+moveBlock)
// whose key's owner changes into buf, and returns them.
func movedIn(buf *[moveBlock]uint32, cur []timeline.NodeID, keys []uint32, owners []timeline.NodeID, base int) []uint32 {
	end := min(base+moveBlock, len(owners))
	n := 0
	if keys == nil {
		for k := base; k < end; k++ {
			buf[n&(moveBlock-1)] = uint32(k)
			n += placer.B2i(cur[k] != owners[k])
		}
	} else {
		for j := base; j < end; j++ {
			buf[n&(moveBlock-1)] = uint32(j)
			n += placer.B2i(cur[keys[j]] != owners[j])
		}
	}
	return buf[:n]
}

// likelyDense reports whether more than limit keys seem to move, from
// every 8th block of entries (keys[j], or j when keys is nil, has new owner
// owners[j]): the undo log then goes dense up front. A wrong guess costs
// only time: a sparse log that overflows goes dense anyway.
func likelyDense(cur []timeline.NodeID, keys []uint32, owners []timeline.NodeID, limit int) bool {
	n, seen := 0, 0
	for base := 0; base < len(owners); base += 8 * moveBlock {
		end := min(base+moveBlock, len(owners))
		seen += end - base
		if keys == nil {
			for k := base; k < end; k++ {
				n += placer.B2i(cur[k] != owners[k])
			}
		} else {
			for j := base; j < end; j++ {
				n += placer.B2i(cur[keys[j]] != owners[j])
			}
		}
	}
	return n*len(owners) > limit*seen
}

// reasonOf maps forced<<1 | gained to the reason of a move: forced when
// the old owner is gone, else gained when the new one just came, else
// collateral.
var reasonOf = [4]uint8{strips.ReasonCollateral, strips.ReasonGained, strips.ReasonForced, strips.ReasonForced}

// reasonTables returns, by NodeID, 1 where a node is not live after the
// step (a move away from it is forced) and 1 where it was not live before
// it (a move to it is gained).
func reasonTables(acc *stepAcc) (forced, gained []uint8) {
	forced, gained = make([]uint8, len(acc.after)), make([]uint8, len(acc.before))
	for id, live := range acc.after {
		forced[id] = uint8(placer.B2i(!live))
	}
	for id, live := range acc.before {
		gained[id] = uint8(placer.B2i(!live))
	}
	return forced, gained
}

// fingerprint returns the fingerprint of a whole primary assignment: the
// sum of term(k, owners[k]), which keys.SumMixOf adds up from the owners'
// hashes by NodeID (with 512-bit vectors where the machine has them).
// Addition being associative mod 2⁶⁴, the sum is term's, key by key.
func fingerprint(nodeHash []uint64, owners []timeline.NodeID) uint64 {
	return keys.SumMixOf(nodeHash, owners, 0, fpStep)
}

// fpAfter brings t.fp up to date once moves1 has applied a step: from the
// sparse log, the old and the new term of every moved key, or, when the
// log went dense, from the new primary assignment. The new owners are in
// cur after a delta (stored) and in owners, by key, after a whole step.
func (t *tracker) fpAfter(u *undolog.Log, cur, owners []timeline.NodeID, stored bool) {
	now := owners
	if stored {
		now = cur
	}
	if u.IsDense() {
		t.fp = fingerprint(t.nodeHash, now)
		return
	}
	fp := t.fp
	keys, old := u.Sparse()
	for e, k := range keys {
		fp += t.term(int(k), now[k]) - t.term(int(k), old[e])
	}
	t.fp = fp
}
