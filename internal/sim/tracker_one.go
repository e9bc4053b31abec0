package sim

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
// change and move do for every key whose owner differs.
func (t *tracker) moves1(acc *stepAcc, keys []uint32, owners []NodeID, store bool) {
	cur := t.cur[0]
	forced, gained := reasonTables(acc)
	loads, gen, rank, cells := t.loads, t.res.Keys.Gen, t.rank, t.cells
	ko, ho := acc.sr.Strip.KeyOrder, acc.sr.Strip.HashOrder
	u := t.hist.open_
	sparseMax := (t.k + 2) / 3 // record keeps a sparse log while 3·len < K
	if len(u.dense) == 0 && len(owners) > sparseMax && countMoved(cur, keys, owners) > sparseMax {
		// The log would go dense: snapshot the assignment before the
		// step now rather than growing a sparse log first.
		u.dense = append(u.dense[:0], cur...)
	}
	moved, under := 0, 0
	// Transfers are counted here when the counter is dense, rather than
	// from the undo log afterwards: a rule that moves most keys would
	// otherwise pass over them twice.
	pc, w := &t.pairs, t.w
	inline := pc.keys != nil
	t.counted = inline
	// Blocks of entries are first compacted to the ones that move,
	// without a branch, so that the loop below does not mispredict on
	// every other key when about half of them move (jump renumbering,
	// modulo).
	var buf [moveBlock]uint32
	for base := 0; base < len(owners); base += moveBlock {
		for _, jj := range movedIn(&buf, cur, keys, owners, base) {
			j := int(jj)
			k := j
			if keys != nil {
				k = int(keys[j])
			}
			c, o := owners[j], cur[k]
			if len(u.dense) == 0 {
				if len(u.keys) < sparseMax {
					u.keys = append(u.keys, uint32(k))
					u.old = append(u.old, o)
				} else {
					t.hist.record(k, o)
				}
			}
			if store {
				cur[k] = c
			}
			if o == NoNode || c == NoNode {
				under += b2i(c == NoNode) - b2i(o == NoNode)
			}
			moved++
			loads[o]--
			loads[c]++
			if inline {
				cell := int(o)*pc.n + int(c)
				if pc.keys[cell] == 0 {
					pc.touched = append(pc.touched, uint32(cell))
				}
				pc.keys[cell]++
				if w != nil {
					pc.reqs[cell] += int64(w[k])
				}
			}
			why := reasonOf[forced[o]<<1|gained[c]]
			ko[cells.of(gen[k])][why]++
			h := uint32(k)
			if rank != nil {
				h = rank[k]
			}
			ho[cells.of(h)][why]++
		}
	}
	t.under += under
	acc.sr.Moved += moved
	acc.sr.ReplicaMoved += moved
	acc.sr.Copies += moved
	t.fpAfter(u, cur, owners, store)
}

// moveBlock is how many entries moves1 compacts at a time.
const moveBlock = 2048

// movedIn compacts the entries j of owners in [base, base+moveBlock)
// whose key's owner changes into buf, and returns them.
func movedIn(buf *[moveBlock]uint32, cur []NodeID, keys []uint32, owners []NodeID, base int) []uint32 {
	end := min(base+moveBlock, len(owners))
	n := 0
	if keys == nil {
		for k := base; k < end; k++ {
			buf[n&(moveBlock-1)] = uint32(k)
			n += b2i(cur[k] != owners[k])
		}
	} else {
		for j := base; j < end; j++ {
			buf[n&(moveBlock-1)] = uint32(j)
			n += b2i(cur[keys[j]] != owners[j])
		}
	}
	return buf[:n]
}

// countMoved counts the keys whose primary owner differs: keys[j] (or j
// when keys is nil) has new owner owners[j].
func countMoved(cur []NodeID, keys []uint32, owners []NodeID) int {
	n := 0
	if keys == nil {
		for k, c := range owners {
			n += b2i(cur[k] != c)
		}
		return n
	}
	for j, c := range owners {
		n += b2i(cur[keys[j]] != c)
	}
	return n
}

// reasonOf maps forced<<1 | gained to the reason of a move: forced when
// the old owner is gone, else gained when the new one just came, else
// collateral.
var reasonOf = [4]uint8{ReasonCollateral, ReasonGained, ReasonForced, ReasonForced}

// reasonTables returns, by NodeID, 1 where a node is not live after the
// step (a move away from it is forced) and 1 where it was not live before
// it (a move to it is gained).
func reasonTables(acc *stepAcc) (forced, gained []uint8) {
	forced, gained = make([]uint8, len(acc.after)), make([]uint8, len(acc.before))
	for id, live := range acc.after {
		forced[id] = uint8(b2i(!live))
	}
	for id, live := range acc.before {
		gained[id] = uint8(b2i(!live))
	}
	return forced, gained
}

// fpAfter brings t.fp up to date once moves1 has applied a step: from the
// sparse log, the old and the new term of every moved key, or, when the
// log went dense, from the new primary assignment. The new owners are in
// cur after a delta (stored) and in owners, by key, after a whole step.
func (t *tracker) fpAfter(u *undo, cur, owners []NodeID, stored bool) {
	now := owners
	if stored {
		now = cur
	}
	if len(u.dense) > 0 {
		var fp uint64
		for k, o := range now {
			fp += t.term(k, o)
		}
		t.fp = fp
		return
	}
	fp := t.fp
	for e, k := range u.keys {
		fp += t.term(int(k), now[k]) - t.term(int(k), u.old[e])
	}
	t.fp = fp
}
