package tablerules

import "math/bits"

// The end of a maglev table's fill. A node takes the next empty entry of
// its permutation, and with E entries left empty it probes about M/E
// taken ones first: the last √M entries cost half of the M·ln M probes.
// There the empty entries are few enough to look at all of them: entry x
// is d(x) = (x − pos)·skip⁻¹ mod M steps ahead in the permutation of a
// node at pos, so the next empty entry is the one of least d, the very
// entry the probes would reach (d is 0 for pos itself, and distinct for
// distinct entries, M being prime).

// tailEntries is how many empty entries the fill leaves to maglevTail:
// about where looking at every one (E) costs what probing does (M/E).
func tailEntries(m int) int {
	e := 1
	for 2*e*e < m {
		e++
	}
	return e
}

// maglevTail is the empty entries of a table near the end of its fill.
type maglevTail struct {
	m     uint64
	recip uint64 // ⌊(2⁶⁴−1)/m⌋, for mulMod
	empty []int
}

func newMaglevTail(taken []uint64, m int) *maglevTail {
	t := &maglevTail{m: uint64(m), recip: ^uint64(0) / uint64(m)}
	for x := range m {
		if taken[x>>6]&(1<<(x&63)) == 0 {
			t.empty = append(t.empty, x)
		}
	}
	return t
}

// take removes and returns the next empty entry of e's permutation from
// e.pos on. The caller's probe loop then finds it empty at once.
func (t *maglevTail) take(e *maglevEntry) int {
	if e.inv == 0 {
		e.inv = int(t.powMod(uint64(e.skip), t.m-2)) // Fermat: M is prime
	}
	best, bestD := 0, t.m
	for s, x := range t.empty {
		diff := x - e.pos
		if diff < 0 {
			diff += int(t.m)
		}
		if d := t.mulMod(uint64(diff), uint64(e.inv)); d < bestD {
			best, bestD = s, d
		}
	}
	x := t.empty[best]
	t.empty[best] = t.empty[len(t.empty)-1]
	t.empty = t.empty[:len(t.empty)-1]
	return x
}

// mulMod returns a·b mod m for a, b < m < 2²⁴ (MaxMaglevM): Barrett
// reduction of a product below 2⁴⁸, whose estimated quotient is at most
// one short.
func (t *maglevTail) mulMod(a, b uint64) uint64 {
	x := a * b
	q, _ := bits.Mul64(x, t.recip)
	r := x - q*t.m
	if r >= t.m {
		r -= t.m
	}
	return r
}

// powMod returns a^k mod m.
func (t *maglevTail) powMod(a, k uint64) uint64 {
	r := uint64(1) % t.m
	for ; k > 0; k >>= 1 {
		if k&1 != 0 {
			r = t.mulMod(r, a)
		}
		a = t.mulMod(a, a)
	}
	return r
}
