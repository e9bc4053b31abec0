package tablerules

import (
	"fmt"
	"math"
	"slices"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// jump is Jump Consistent Hash (Lamping & Veach 2014, "A Fast, Minimal
// Memory, Consistent Hash Algorithm", arXiv:1406.2294): a key's 64-bit
// hash drives a linear congruential generator that jumps forward through
// the buckets 0..n−1; the last bucket it lands on below n is the key's.
// With hash xxhash64 it reproduces github.com/dgryski/go-jump's
// Hash(xxhash.Sum64String(key), n) exactly; with a 32-bit hash the key is
// the hash zero-extended.
//
// Buckets are the live members in join order. The paper has no weights:
// here a member of weight w holds w consecutive buckets, so its expected
// share is w/Σw and adding or dropping the last member stays native.
//
// Jump can only add or drop buckets at the end. Any other change (removing
// or failing a member that is not last, recovering one, reweighting one)
// is modelled as the usual renumbering, the buckets re-numbered over the
// live members in join order, and update says so in a note: that
// renumbering also moves keys between nodes that stayed.
//
// Replicas are not defined by the paper: here they are the next distinct
// nodes of the buckets after the key's, b+1, b+2, … wrapping.
//
// Steps are incremental: every key remembers its bucket and its next jump,
// the first bucket number ≥ n its generator would jump to. While the
// bucket count n' stays above its bucket and at most its next jump, the
// key keeps its bucket; only the others are rehashed, and a key is
// reported only when its bucket or its bucket's preference list changed.
type jump struct {
	env     *placer.Env
	kc      *keys.KeyCache
	Buckets []timeline.NodeID   // bucket → node
	pref    [][]timeline.NodeID // pref[r][b], built by prefs

	// As of the last assign or delta:
	bucket   []uint32            // each key's bucket
	next     []uint32            // each key's next jump (capped at 2³²−1)
	nb       uint32              // the bucket count of bucket and next
	lastPref [][]timeline.NodeID // the pref table
}

// JumpKind is jump consistent hashing's registry entry.
var JumpKind = rulekind.Kind{Name: "jump", HistoryFree: true, Doc: "Jump consistent hash (Lamping and Veach 2014): can only add or drop the last bucket.",
	Params: []rulekind.Param{rulekind.HashParam}, Mosaic: true,
	Footprint: rulekind.Footprint{KeyBytes: func(placer.RuleSpec, int64, bool) int64 { return 8 }},
	Build:     func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newJump(s, e)) }}

func newJump(spec placer.RuleSpec, e *placer.Env) (*jump, error) {
	h, err := keys.ParseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	return &jump{env: e, kc: keys.NewKeyCache(e.Keys, h)}, nil
}

// jumpHash is the paper's JumpConsistentHash (Figure 1), n ≥ 1. The float
// expression has no multiply-add to fuse, so it is exact everywhere.
func jumpHash(key uint64, n int) int {
	b, _ := jumpNext(key, n)
	return b
}

// jumpNext is jumpHash that also returns the key's next jump: the first
// bucket ≥ n that the generator reaches, capped at 2³²−1. The key stays in
// its bucket for every bucket count from b+1 up to next.
func jumpNext(key uint64, n int) (int, uint32) {
	b, j := int64(-1), int64(0)
	for j < int64(n) {
		b = j
		key = key*2862933555777941757 + 1
		j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((key>>33)+1)))
	}
	return int(b), jumpCap(j)
}

// jumpCap is a next jump as jumpNext returns it, capped at 2³²−1.
func jumpCap(j int64) uint32 { return uint32(min(j, math.MaxUint32)) }

// rejump rehashes, for nb buckets, every key of idx whose bucket nb can
// change: at or above nb, or next jump below it.
func (j *jump) rejump(keys keys.Keys64, idx []uint32, nb uint32) {
	for _, i := range idx {
		if j.bucket[i] >= nb || j.next[i] < nb {
			b, nx := jumpNext(keys.At(int(i)), int(nb))
			j.bucket[i], j.next[i] = uint32(b), nx
		}
	}
}

func (j *jump) Update(st *timeline.State) []string {
	old := j.Buckets
	live := placer.LiveList(st)
	j.Buckets, j.pref = nil, nil
	for _, m := range live {
		for range m.Weight {
			j.Buckets = append(j.Buckets, m.ID)
		}
	}
	var notes []string
	if old != nil && !isPrefix(old, j.Buckets) && !isPrefix(j.Buckets, old) {
		notes = append(notes, j.renumberNote(st, old))
	}
	if weighted(live) && (st.Op == timeline.OpStart || st.Op == timeline.OpAdd || st.Op == timeline.OpWeight) {
		notes = append(notes, "jump has no weighted form in the paper: a node of weight w holds w consecutive buckets")
	}
	return notes
}

// isPrefix reports whether a is a prefix of b.
func isPrefix(a, b []timeline.NodeID) bool { return len(a) <= len(b) && slices.Equal(a, b[:len(a)]) }

// renumberNote explains a change jump cannot make natively.
func (j *jump) renumberNote(st *timeline.State, old []timeline.NodeID) string {
	d := 0
	for d < len(old) && d < len(j.Buckets) && old[d] == j.Buckets[d] {
		d++
	}
	verb := map[timeline.Op]string{timeline.OpRemove: "remove", timeline.OpFail: "drop failed", timeline.OpRecover: "re-insert recovered",
		timeline.OpWeight: "resize"}[st.Op]
	if verb == "" {
		verb = "change"
	}
	return fmt.Sprintf("jump can only add or drop the last bucket, so it cannot natively %s %s (bucket %d of %d): "+
		"modelled as the usual renumbering, buckets re-numbered over the live members in join order, "+
		"which also moves keys between nodes that stayed", verb, placer.QuoteNames(j.env.Nodes, st.Named), d, len(old))
}

// column returns the preference list held at index idx of per-position
// lists (pref[r][idx] is the r-th choice), without the empty slots.
func column(pref [][]timeline.NodeID, idx int) []timeline.NodeID {
	var owners []timeline.NodeID
	for _, p := range pref {
		if p[idx] != timeline.NoNode {
			owners = append(owners, p[idx])
		}
	}
	return owners
}

// Prefs returns, for every bucket, the R distinct nodes of the buckets
// from it onward, wrapping.
func (j *jump) Prefs(R int) [][]timeline.NodeID {
	if len(j.pref) == R {
		return j.pref
	}
	nb := len(j.Buckets)
	j.pref = make([][]timeline.NodeID, R)
	for r := range j.pref {
		j.pref[r] = make([]timeline.NodeID, nb)
	}
	list := make([]timeline.NodeID, 0, R)
	for b := range nb {
		list = list[:0]
		for s := 0; s < nb && len(list) < R; s++ {
			if id := j.Buckets[(b+s)%nb]; !slices.Contains(list, id) {
				list = append(list, id)
			}
		}
		for r := range R {
			j.pref[r][b] = timeline.NoNode
			if r < len(list) {
				j.pref[r][b] = list[r]
			}
		}
	}
	return j.pref
}

func (j *jump) Assign(lists [][]timeline.NodeID) {
	pref := j.Prefs(len(lists))
	nb := uint32(len(j.Buckets))
	keys := j.kc.Keys64()
	K := j.env.Keys.Len()
	if j.bucket == nil {
		j.bucket, j.next = make([]uint32, K), make([]uint32, K)
		for i := range K {
			j.bucket[i], j.next[i] = noBucket, 0
		}
	}
	j.rehash(keys, nb, lists[0], pref[0])
	for r, l := range lists[1:] {
		p := pref[r+1]
		for i, b := range j.bucket[:len(l)] {
			l[i] = p[b]
		}
	}
	j.lastPref = pref
}

// rehash brings every key's bucket and next jump to nb buckets and writes
// its primary owner, by bucket in owner, into first. A key keeps its
// bucket for every count from bucket+1 up to its next jump, so only the
// others are hashed again; when the count falls, every next jump is at
// or above the old count and so above nb, and only the bucket is read.
func (j *jump) rehash(hs keys.Keys64, nb uint32, first, owner []timeline.NodeID) {
	bucket, next := j.bucket, j.next[:len(j.bucket)]
	var at jumpAt
	for lo := 0; lo < len(bucket); lo += jumpBlock {
		hi := min(lo+jumpBlock, len(bucket))
		var stale []uint32
		if nb < j.nb {
			stale = gatherAtLeast(&at, bucket[lo:hi], lo, nb)
		} else {
			stale = gatherStale(&at, bucket[lo:hi], next[lo:hi], lo, nb)
		}
		j.rejump(hs, stale, nb)
	}
	keys.PickMod(first, bucket, owner) // every bucket is below nb = len(owner): the mod keeps it
	j.nb = nb
}

// gatherStale gathers into at, without a branch, the keys lo+i that nb
// buckets rehash: bucket[i] at or above nb, or next jump below it.
func gatherStale(at *jumpAt, bucket, next []uint32, lo int, nb uint32) []uint32 {
	n := 0
	next = next[:len(bucket)]
	for i, b := range bucket {
		at[n&(jumpBlock-1)] = uint32(lo + i)
		n += placer.B2i(b >= nb) | placer.B2i(next[i] < nb)
	}
	return at[:n]
}

// noBucket marks a key not yet placed: no bucket count keeps it.
const noBucket = math.MaxUint32

// Delta rehashes only the keys whose bucket can have changed (bucket no
// longer below the count, or next jump now below it) and reports those
// whose bucket or bucket's list changed: O(K) reads, no hashing for the
// keys that stay. When a renumbering changes the lists of buckets holding
// more than a third of the keys it declines: assign, which also hashes
// only the keys whose bucket can have changed, writes every key's list
// once, and the tracker measures the step from the whole assignment
// without a per-key delta.
func (j *jump) Delta(d *placer.Delta) bool {
	if j.bucket == nil || len(j.lastPref) != len(d.Lists) {
		return false
	}
	pref := j.Prefs(len(d.Lists))
	same := sameBuckets(j.lastPref, pref)
	nb := uint32(len(j.Buckets))
	if d0 := slices.Index(same, false); d0 >= 0 && 3*(len(j.lastPref[0])-d0) > len(j.lastPref[0]) {
		return false
	}
	changed := make([]uint8, len(j.lastPref[0]))
	for b := range changed {
		changed[b] = uint8(placer.B2i(b >= len(same) || !same[b]))
	}
	// With no bucket below both counts changing its list, a rising count
	// moves only keys whose next jump it passes, and a falling one only
	// keys of the buckets dropped: one array tells.
	kept := !slices.Contains(same, false)
	keys := j.kc.Keys64()
	var at jumpAt
	for lo := 0; lo < len(j.bucket); lo += jumpBlock {
		hi := min(lo+jumpBlock, len(j.bucket))
		var stale []uint32
		switch {
		case kept && nb > j.nb:
			stale = gatherBelow(&at, j.next[lo:hi], lo, nb)
		case kept && nb < j.nb:
			stale = gatherAtLeast(&at, j.bucket[lo:hi], lo, nb)
		default:
			stale = gatherDelta(&at, j.bucket[lo:hi], j.next[lo:hi], lo, nb, changed)
		}
		j.rejump(keys, stale, nb)
		for _, i := range stale {
			d.AddFrom(int(i), pref, int(j.bucket[i]))
		}
	}
	j.lastPref, j.nb = pref, nb
	return true
}

// jumpBlock is how many keys delta gathers at a time.
const jumpBlock = 2048

// gatherDelta gathers into at, without a branch, the keys lo+i whose
// bucket[i] nb buckets can change (at or above nb, or next jump below it)
// or whose bucket's list changed (changed[bucket] = 1).
//
//go:noinline
func gatherDelta(at *jumpAt, bucket, next []uint32, lo int, nb uint32, changed []uint8) []uint32 {
	n := 0
	next = next[:len(bucket)]
	for i, b := range bucket {
		at[n&(jumpBlock-1)] = uint32(lo + i)
		n += placer.B2i(b >= nb) | placer.B2i(next[i] < nb) | int(changed[b])
	}
	return at[:n]
}

// gatherBelow gathers into at the keys lo+i with v[i] < x: few (those
// a rising count passes), picked out by keys.SelectBelow.
func gatherBelow(at *jumpAt, v []uint32, lo int, x uint32) []uint32 {
	return keys.SelectBelow(at[:], v, lo, x)
}

// gatherAtLeast gathers into at the keys lo+i with v[i] ≥ x: few too (the
// buckets a falling count drops).
func gatherAtLeast(at *jumpAt, v []uint32, lo int, x uint32) []uint32 {
	return keys.SelectAtLeast(at[:], v, lo, x)
}

// jumpAt holds the keys a block of jumpBlock gathers, with the room
// keys.SelectBelow needs past them.
type jumpAt = [jumpBlock + keys.SelectSlack]uint32

// sameBuckets reports, for every bucket both tables have, whether its
// preference list is the same in both.
func sameBuckets(a, b [][]timeline.NodeID) []bool {
	n := min(len(a[0]), len(b[0]))
	same := make([]bool, n)
	for x := range n {
		same[x] = placer.SameLists(a, x, b, x)
	}
	return same
}

func (j *jump) Probe(key string, R int) (uint64, []timeline.NodeID) {
	b := jumpHash(j.kc.Hash.Sum64([]byte(key)), len(j.Buckets))
	return uint64(b), column(j.Prefs(R), int(b))
}

// Geometry samples the bucket of a key whose hash is the wheel position.
func (j *jump) Geometry() ([]placer.Arc, []placer.Point) {
	nb := len(j.Buckets)
	return placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID { return j.Buckets[jumpHash(uint64(p), nb)] }), nil
}

func (j *jump) Order() []uint32 {
	_, rank := j.kc.Order()
	return rank
}
