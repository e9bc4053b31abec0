package keys

import (
	"runtime"
	"strconv"

	"github.com/ringreport/ringreport/internal/workers"
)

// DefaultKeyPrefix is the prefix of generated keys when a scenario names none.
const DefaultKeyPrefix = "key-"

// KeySet is the scenario's keys in canonical order: ascending default
// position (Hash32), ties broken by generation order. Every rule reports
// per-key results in this order, so results of different rules line up.
//
// Generated keys are not stored as strings: key i is its prefix followed
// by a seeded 32-bit number, and Name rebuilds it on demand.
type KeySet struct {
	// Pos holds Hash32 of each key, ascending.
	Pos []uint32
	// Gen holds each key's generation index: its place in the generated
	// sequence or the keys file.
	Gen []uint32
	// Weight holds each key's request count, by canonical index, or is
	// nil when the key set carries none (KeySpec.Weighted).
	Weight []uint32
	// Requests is the sum of Weight: every request of the key set.
	Requests int64
	// Hot holds the canonical indices of the HotKeys heaviest keys,
	// heaviest first (ties by generation order), or is nil unweighted.
	Hot []int

	prefix  string
	feistel [4]uint32     // round keys of the seeded numbering
	list    []string      // explicit keys in file order, or nil
	shared  *sharedCaches // one KeyCache per hash, or nil (ShareCaches)
}

// NewKeySet builds the key set a spec describes, with generated numbers
// drawn from seed. The spec must be valid (Count ≥ 1 or List non-empty).
func NewKeySet(spec KeySpec, seed uint64) *KeySet {
	k := &KeySet{prefix: spec.Prefix, list: spec.List}
	if k.prefix == "" {
		k.prefix = DefaultKeyPrefix
	}
	r := NewRand(seed, streamKeys)
	for i := range k.feistel {
		k.feistel[i] = r.Uint32()
	}
	n := spec.Count
	if spec.List != nil {
		n = len(spec.List)
	}
	k.Pos, k.Gen = unpackSorted(radixSort(k.packedPositions(n)))
	k.setWeights(spec, seed)
	return k
}

// Len returns the number of keys.
func (k *KeySet) Len() int { return len(k.Pos) }

// Name returns the key at canonical index i.
func (k *KeySet) Name(i int) string { return string(k.AppendName(nil, i)) }

// AppendName appends the key at canonical index i to dst.
func (k *KeySet) AppendName(dst []byte, i int) []byte { return k.appendGen(dst, k.Gen[i]) }

func (k *KeySet) appendGen(dst []byte, g uint32) []byte {
	if k.list != nil {
		return append(dst, k.list[g]...)
	}
	dst = append(dst, k.prefix...)
	return strconv.AppendUint(dst, uint64(k.number(g)), 10)
}

// number maps a generation index to its key number with a four-round
// Feistel network keyed by the seed: a bijection on uint32, so generated
// keys are distinct, and different seeds give different key sets.
func (k *KeySet) number(g uint32) uint32 {
	l, r := uint16(g>>16), uint16(g)
	for _, rk := range k.feistel {
		l, r = r, l^uint16(Fmix32(uint32(r)^rk))
	}
	return uint32(l)<<16 | uint32(r)
}

// packedPositions returns Hash32 of each of the n keys in generation
// order, packed as position<<32 | generation index. A generated key's
// hash continues from the hash state after its prefix.
func (k *KeySet) packedPositions(n int) []uint64 {
	a := make([]uint64, n)
	if k.list != nil {
		for g, key := range k.list {
			a[g] = uint64(Hash32(key))<<32 | uint64(g)
		}
		return a
	}
	h0 := fnv1a(fnvOffset32, k.prefix)
	inParallel(n, func(lo, hi int) {
		var buf [20]byte
		for g := lo; g < hi; g++ {
			digits := strconv.AppendUint(buf[:0], uint64(k.number(uint32(g))), 10)
			a[g] = uint64(Fmix32(fnv1a(h0, digits)))<<32 | uint64(g)
		}
	})
	return a
}

// parallelMin is the fewest items inParallel splits: below it a goroutine
// costs more than it saves.
const parallelMin = 1 << 16

// inParallel calls f on consecutive ranges [lo, hi) covering [0, n), on
// up to GOMAXPROCS parts of the worker pool when n is large, and waits. f must write
// only its own range, so the result does not depend on the split. The
// key set is built before the rules start replaying side by side, so it
// would otherwise run on one core while the others wait.
func inParallel(n int, f func(lo, hi int)) {
	parts := min(runtime.GOMAXPROCS(0), max(n/parallelMin, 1))
	workers.Each(parts, func(p int) { f(p*n/parts, (p+1)*n/parts) })
}

// sortByPosition returns pos sorted ascending and, for each sorted entry,
// its original index; ties keep the original order.
func sortByPosition(pos []uint32) (sorted, index []uint32) {
	a := make([]uint64, len(pos))
	for i, p := range pos {
		a[i] = uint64(p)<<32 | uint64(i)
	}
	return unpackSorted(radixSort(a))
}

// unpackSorted splits words position<<32 | index into their two halves.
func unpackSorted(a []uint64) (pos, index []uint32) {
	pos, index = make([]uint32, len(a)), make([]uint32, len(a))
	for i, v := range a {
		pos[i], index[i] = uint32(v>>32), uint32(v)
	}
	return pos, index
}

// radixSort sorts words position<<32 | index by position, keeping the
// order of equal positions, and returns them (in a or in a new array).
// It is an LSD radix sort, 8 bits a pass, so that every pass moves one
// array; the four passes' counts are taken in one read beforehand, and a
// pass whose digit is the same for every word is skipped.
func radixSort(a []uint64) []uint64 {
	var count [4][256]int
	for _, v := range a {
		p := uint32(v >> 32)
		count[0][p&0xff]++
		count[1][p>>8&0xff]++
		count[2][p>>16&0xff]++
		count[3][p>>24]++
	}
	var tmp []uint64
	for d := range count {
		shift := 32 + 8*d
		if len(a) == 0 || count[d][a[0]>>shift&0xff] == len(a) {
			continue
		}
		if tmp == nil {
			tmp = make([]uint64, len(a))
		}
		next := 0
		for b, c := range count[d] {
			count[d][b], next = next, next+c
		}
		for _, v := range a {
			b := v >> shift & 0xff
			tmp[count[d][b]] = v
			count[d][b]++
		}
		a, tmp = tmp, a
	}
	return a
}

// KeySpec describes a key set: either Count generated keys named
// Prefix+number (the numbers come from the seed), or an explicit list.
type KeySpec struct {
	// Count is the number of generated keys (≥ 1) when List is nil.
	Count int
	// Prefix is prepended to each generated key; empty means "key-".
	Prefix string
	// List, when non-nil, is the explicit key set (from a keys file), in
	// file order. Duplicates are allowed and count as separate keys.
	List []string
	// Weights, when non-nil, gives each key of List its request count
	// (a key,weight CSV file), in file order; len(Weights) == len(List)
	// and the counts must not all be 0.
	Weights []uint32
	// Zipf, when > 0, gives the Count generated keys Zipf-distributed
	// request counts with this exponent s (see ZipfWeights).
	Zipf float64
	// Requests is the total request count that Zipf splits over the keys;
	// 0 means DefaultZipfRequests.
	Requests int64
}

// Weighted reports whether the key set carries request counts.
func (k KeySpec) Weighted() bool { return k.Weights != nil || k.Zipf > 0 }
