package keys

import (
	"fmt"
	"slices"
	"unsafe"
)

// MixMax sets acc[i] to the largest of acc[i] and Mix64(ks[i]^seeds[e])
// &^ low | tags[e] over every e, for every i < len(ks): for each key, the
// best of a set of seeds by its mixed hash with each, the low bits that
// low clears replaced by the seed's tag (a rule's tie-break). acc must be
// at least as long as ks and tags as seeds.
//
// It is the inner loop of hashing every key against every node
// (rendezvous), which a machine with 512-bit vectors (amd64 with
// AVX-512F and DQ) runs eight keys an instruction; the result is the same
// integers everywhere (mixMaxGo is the reference).
func MixMax(acc, ks, seeds, tags []uint64, low uint64) {
	acc, tags = acc[:len(ks)], tags[:len(seeds)]
	if !hasVector512 || len(seeds) == 0 {
		mixMaxGo(acc, ks, seeds, tags, low)
		return
	}
	n := len(ks) &^ (mixMaxBlock - 1)
	if n > 0 {
		mixMaxVector(&acc[0], &ks[0], n, &seeds[0], &tags[0], len(seeds), ^low)
	}
	if n == len(ks) {
		return
	}
	// The last keys, fewer than a block, go through the vector loop
	// padded: a block of wasted lanes still costs less than the keys in
	// Go (a departure's keys come a few at a time).
	var pk, pa [mixMaxBlock]uint64
	copy(pk[:], ks[n:])
	copy(pa[:], acc[n:])
	mixMaxVector(&pa[0], &pk[0], mixMaxBlock, &seeds[0], &tags[0], len(seeds), ^low)
	copy(acc[n:], pa[:])
}

// mixMaxBlock is the keys the vector loop takes at a time.
const mixMaxBlock = 32

// mixMaxGo is MixMax in Go, for any machine.
func mixMaxGo(acc, ks, seeds, tags []uint64, low uint64) {
	acc, tags = acc[:len(ks)], tags[:len(seeds)]
	for i, k := range ks {
		top := acc[i]
		for e, s := range seeds {
			top = max(top, Mix64(k^s)&^low|tags[e])
		}
		acc[i] = top
	}
}

// SumMix returns the sum mod 2⁶⁴ of Mix64(vs[j] + base + j·step) over
// every j: a hash of a whole sequence as a sum of hashes of its terms,
// each offset by its place (the tracker's fingerprint of an assignment,
// vs being each key's owner's hash). With AVX-512 it runs eight terms an
// instruction; the sum is the same integer everywhere (sumMixGo).
func SumMix(vs []uint64, base, step uint64) uint64 {
	n := 0
	var sum uint64
	if hasVector512 {
		n = len(vs) &^ (mixMaxBlock - 1)
		if n > 0 {
			var lanes, acc [mixMaxBlock]uint64
			for j := range lanes {
				lanes[j] = base + uint64(j)*step
			}
			sumMixVector(&acc, &vs[0], n, &lanes, mixMaxBlock*step)
			for _, a := range acc {
				sum += a
			}
		}
	}
	return sum + sumMixGo(vs[n:], base+uint64(n)*step, step)
}

// sumMixGo is SumMix in Go, for any machine.
func sumMixGo(vs []uint64, base, step uint64) uint64 {
	var sum uint64
	for _, v := range vs {
		sum += Mix64(v + base)
		base += step
	}
	return sum
}

// SumMixOf is SumMix of the values table[idx[j]]: a sequence given as
// indices into a table of hashes (the tracker's owners, by NodeID). Every
// index must be below len(table): it panics otherwise, as indexing does.
func SumMixOf[T ~uint16](table []uint64, idx []T, base, step uint64) uint64 {
	n := 0
	var sum uint64
	if hasVector512 && len(table) > 0 {
		n = len(idx) &^ (mixMaxBlock - 1)
		if n > 0 {
			var lanes, acc [mixMaxBlock]uint64
			var top [8]uint64
			for j := range lanes {
				lanes[j] = base + uint64(j)*step
			}
			p := (*uint16)(unsafe.Pointer(&idx[0])) // T's underlying type is uint16
			sumMixOfVector(&acc, &top, &table[0], uint64(len(table)-1), p, n, &lanes, mixMaxBlock*step)
			if m := slices.Max(top[:]); m >= uint64(len(table)) {
				panic(fmt.Sprintf("keys.SumMixOf: index %d out of range [0:%d]", m, len(table)))
			}
			for _, a := range acc {
				sum += a
			}
		}
	}
	base += uint64(n) * step
	for _, i := range idx[n:] {
		sum += Mix64(table[i] + base)
		base += step
	}
	return sum
}
