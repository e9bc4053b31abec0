package tablerules

import (
	"math/bits"
	"slices"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The single-owner, unweighted form of rendezvous, the common case. Every
// key keeps its owner and the top 32 bits of its pair hash x with the
// owner (6 bytes per key rather than a node and a float64 score, 10): a
// joining node's hash is compared on those bits, and only when they are
// equal (about once in 2³² keys) are both scores x>>12 recomputed and
// compared exactly. The keys that a departure re-ranks are remembered
// with their owners before it, so that when the node comes back to the
// same live set (a failure, then its recovery) those keys are handed back
// without scoring any key: the ranking is a function of the live set, and
// those keys are exactly where the two live sets' rankings differ.

// rendezvousUndo is the last departure: the live weights before and
// after it, the keys it re-ranked, ascending, and their owners before it.
type rendezvousUndo struct {
	before, after []int
	keys          []uint32
	owners        []timeline.NodeID
}

// maxUndoShare bounds the undo record to 1/maxUndoShare of the keys.
const maxUndoShare = 8

// rankAllOne ranks every key afresh with one unweighted owner.
func (z *rendezvous) rankAllOne() {
	keys, K := z.kc.Keys64(), z.env.Keys.Len()
	z.ids, z.hi, z.sc = make([]timeline.NodeID, K), make([]uint32, K), nil
	z.undo = rendezvousUndo{}
	var ks [rankBlock]uint64
	for base := 0; base < K; base += rankBlock {
		n := min(rankBlock, K-base)
		z.rankBatch(keys.Fill(ks[:n], base), z.ids[base:base+n], z.hi[base:base+n])
	}
}

// rankBlock is how many keys rankAllOne and departOne rank at a time.
const rankBlock = 2048

// rankBatch sets ids[j] to the best live node for the key of hash ks[j]
// (see best) and hi[j] to the top 32 bits of their pair hash. With tagged
// names it takes the packed maximum of every key against every live seed
// at once (keys.MixMax), a block of at most rankBlock keys.
func (z *rendezvous) rankBatch(ks []uint64, ids []timeline.NodeID, hi []uint32) {
	if len(z.liveTag) == 0 {
		for j, k := range ks {
			id, s := z.best(k)
			ids[j], hi[j] = id, uint32(s>>20)
		}
		return
	}
	var acc [rankBlock]uint64
	top := acc[:len(ks)]
	keys.MixMax(top, ks, z.liveSeed, z.liveTag, maxTagged-1)
	ids, hi = ids[:len(top)], hi[:len(top)]
	for j, t := range top {
		ids[j], hi[j] = z.byRank[maxTagged-1-t&(maxTagged-1)], uint32(t>>32)
	}
}

// changesOne is rankChanges for one unweighted owner per key, from live
// weights old to cur: the keys of departed nodes are ranked afresh, and
// the other keys score each joining node once against their owner.
func (z *rendezvous) changesOne(old, cur []int, gone []bool, added []timeline.Member, d *placer.Delta) {
	u := &z.undo
	if u.after != nil && slices.Equal(old, u.after) && slices.Equal(cur, u.before) {
		z.restoreOne(d)
		return
	}
	u.before, u.after, u.keys, u.owners = nil, nil, u.keys[:0], u.owners[:0]
	switch {
	case len(added) == 0:
		if z.departOne(gone, d) {
			u.before, u.after = old, cur
		}
	case len(added) == 1 && !slices.Contains(gone, true):
		z.joinOne(added[0], d)
	default:
		z.mixedOne(gone, added, d)
	}
}

// departOne ranks afresh the keys whose owner is gone, and records them
// with their owners as the undo record; it reports whether the record is
// complete (within maxUndoShare). It first gathers the departing keys
// without a branch, block by block, then ranks them rankBlock at a time
// (a block of the key array holds only a 1/n share of them), their
// scattered hashes loaded together.
func (z *rendezvous) departOne(gone []bool, d *placer.Delta) bool {
	ids := z.ids
	var at [rankBlock]uint32
	z.leaving = z.leaving[:0]
	for base := 0; base < len(ids); base += rankBlock {
		n := gatherGone(&at, ids[base:min(base+rankBlock, len(ids))], base, gone)
		z.leaving = append(z.leaving, at[:n]...)
	}
	for lo := 0; lo < len(z.leaving); lo += rankBlock {
		z.rerank(z.leaving[lo:min(lo+rankBlock, len(z.leaving))], d)
	}
	return len(z.undo.keys) <= len(ids)/maxUndoShare
}

// rerank ranks afresh the keys of at (at most rankBlock), recording them
// with their owners in the undo record while it is within maxUndoShare.
func (z *rendezvous) rerank(at []uint32, d *placer.Delta) {
	keys, u := z.kc.Keys64(), &z.undo
	ids, hi := z.ids, z.hi[:len(z.ids)]
	limit := len(ids) / maxUndoShare
	var ks [rankBlock]uint64
	var nid [rankBlock]timeline.NodeID
	var nhi [rankBlock]uint32
	for j, i := range at {
		ks[j] = keys.At(int(i))
	}
	z.rankBatch(ks[:len(at)], nid[:len(at)], nhi[:len(at)])
	for j, i := range at {
		if len(u.keys) <= limit {
			u.keys, u.owners = append(u.keys, i), append(u.owners, ids[i])
		}
		ids[i], hi[i] = nid[j], nhi[j]
		if d != nil {
			d.Add(int(i), ids[i:i+1])
		}
	}
}

// gatherGone gathers into at, without a branch, the keys base+i whose
// owner ids[i] is gone, and returns how many; with one node gone it
// compares ids with it rather than looking each up.
func gatherGone(at *[rankBlock]uint32, ids []timeline.NodeID, base int, gone []bool) int {
	n, g := 0, slices.Index(gone, true)
	if slices.Index(gone[g+1:], true) < 0 {
		return gatherOwner(at, ids, base, timeline.NodeID(g))
	}
	for i, id := range ids {
		at[n&(rankBlock-1)] = uint32(base + i)
		n += placer.B2i(gone[id])
	}
	return n
}

// gatherOwner is gatherGone for one node g gone. Its keys are few (a
// 1/n share), so eight owners at a time are passed over when none is g
// (the minimum of their xor with g is not 0), and only a group holding
// one is gathered, without a branch.
func gatherOwner(at *[rankBlock]uint32, ids []timeline.NodeID, base int, g timeline.NodeID) int {
	n, i := 0, 0
	for ; i+8 <= len(ids); i += 8 {
		w := ids[i : i+8 : i+8]
		if min(w[0]^g, w[1]^g, w[2]^g, w[3]^g, w[4]^g, w[5]^g, w[6]^g, w[7]^g) != 0 {
			continue
		}
		for e, id := range w {
			at[n&(rankBlock-1)] = uint32(base + i + e)
			n += placer.B2i(id == g)
		}
	}
	for ; i < len(ids); i++ {
		at[n&(rankBlock-1)] = uint32(base + i)
		n += placer.B2i(ids[i] == g)
	}
	return n
}

// joinOne offers one joining node m to every key. A block's keys are
// screened together on the top 32 bits of their pair hash with m, at
// least their owner's (keys.Keys64.AtLeast); only those few are then
// compared exactly.
func (z *rendezvous) joinOne(m timeline.Member, d *placer.Delta) {
	hs, seed := z.kc.Keys64(), z.Seed[m.ID]
	ids, hi := z.ids, z.hi[:len(z.ids)]
	var mask [rankBlock / 8]uint8
	for base := 0; base < len(ids); base += rankBlock {
		n := min(rankBlock, len(ids)-base)
		hs.AtLeast(mask[:], base, seed, hi[base:base+n])
		for b, bm := range mask[:(n+7)/8] {
			for ; bm != 0; bm &= bm - 1 {
				i := base + 8*b + bits.TrailingZeros8(bm)
				k := hs.At(i)
				x := keys.Mix64(k ^ seed)
				if h := uint32(x >> 32); h == hi[i] && !z.outranks(k, x, m.ID, ids[i]) {
					continue
				}
				ids[i], hi[i] = m.ID, uint32(x>>32)
				if d != nil {
					d.Add(i, ids[i:i+1])
				}
			}
		}
	}
}

// mixedOne is changesOne for any other change: departures and several
// joining nodes in one step.
func (z *rendezvous) mixedOne(gone []bool, added []timeline.Member, d *placer.Delta) {
	hs := z.kc.Keys64()
	ids, hi := z.ids, z.hi[:len(z.ids)]
	for i, id := range ids {
		k := hs.At(i)
		changed := gone[id]
		if changed {
			nid, s := z.best(k)
			ids[i], hi[i] = nid, uint32(s>>20)
		} else {
			for _, m := range added {
				x := keys.Mix64(k ^ z.Seed[m.ID])
				if h := uint32(x >> 32); h > hi[i] || h == hi[i] && z.outranks(k, x, m.ID, ids[i]) {
					ids[i], hi[i], changed = m.ID, h, true
				}
			}
		}
		if changed && d != nil {
			d.Add(i, ids[i:i+1])
		}
	}
}

// outranks reports whether node id, whose pair hash with key k is x,
// ranks above owner for that key: a higher score x>>12, or an equal one
// and the name that sorts first.
func (z *rendezvous) outranks(k, x uint64, id, owner timeline.NodeID) bool {
	s, so := x>>12, keys.Mix64(k^z.Seed[owner])>>12
	return s > so || s == so && z.nameRank[id] < z.nameRank[owner]
}

// restoreOne hands the keys of the undo record back to their owners
// before the departure, and clears the record.
func (z *rendezvous) restoreOne(d *placer.Delta) {
	hs, u := z.kc.Keys64(), &z.undo
	for e, i := range u.keys {
		id := u.owners[e]
		z.ids[i], z.hi[i] = id, uint32(keys.Mix64(hs.At(int(i))^z.Seed[id])>>32)
		if d != nil {
			d.Add(int(i), z.ids[i:i+1])
		}
	}
	u.before, u.after, u.keys, u.owners = nil, nil, u.keys[:0], u.owners[:0]
}
