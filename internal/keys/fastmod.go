package keys

import (
	"math/bits"
	"unsafe"
)

// FastMod computes p mod n for 32-bit p and n ≥ 1 with two multiplies
// instead of a division (Lemire, Kaser, Kurz, "Faster Remainder by Direct
// Computation", 2019: with m = ⌊(2⁶⁴−1)/n⌋+1, p mod n is the high 64
// bits of (m·p mod 2⁶⁴)·n, exact for every 32-bit p and n).
type FastMod struct {
	n, m uint64
}

// NewFastMod returns the FastMod of n ≥ 1.
func NewFastMod(n uint32) FastMod { return FastMod{n: uint64(n), m: ^uint64(0)/uint64(n) + 1} }

// Of returns p mod n.
func (f FastMod) Of(p uint32) uint32 {
	hi, _ := bits.Mul64(f.m*uint64(p), f.n)
	return uint32(hi)
}

// PickMod sets dst[i] to table[pos[i] mod len(table)] for every i <
// len(pos): every key's bucket by its hash, and the bucket's entry
// (modulo's owners; jump's, whose buckets are already below the count).
// table must not be empty and dst must be at least as long as pos. With
// AVX-512 it takes eight keys an instruction, FastMod's products split
// into 32-bit halves, the entries gathered (the same entries as
// pickModGo's, and no load outside table: p mod n < n).
func PickMod[T ~uint16](dst []T, pos []uint32, table []T) {
	dst = dst[:len(pos)]
	f := NewFastMod(uint32(len(table)))
	n := 0
	if hasVector512 {
		n = len(pos) &^ (mixMaxBlock - 1)
		if n > 0 {
			wide := make([]uint32, len(table))
			for i, t := range table {
				wide[i] = uint32(t)
			}
			d := (*uint16)(unsafe.Pointer(&dst[0])) // T's underlying type is uint16
			pickModVector(d, &pos[0], n, &wide[0], f.m, f.n)
		}
	}
	pickModGo(dst[n:], pos[n:], table, f)
}

// pickModGo is PickMod in Go, for any machine.
func pickModGo[T ~uint16](dst []T, pos []uint32, table []T, f FastMod) {
	dst = dst[:len(pos)]
	for i, p := range pos {
		dst[i] = table[f.Of(p)]
	}
}
