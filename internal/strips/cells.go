package strips

import "math/bits"

// MaxCells is the most cells a strip keeps; beyond it cells become bins
// of consecutive keys.
const MaxCells = 2048

// Cells returns the number of cells of a strip over k keys.
func Cells(k int) int { return min(k, MaxCells) }

// CellKeys returns how many keys cell c of n cells holds, out of k keys:
// the g with ⌊g·n/k⌋ = c.
func CellKeys(c, n, k int) int { return ceilDiv((c+1)*k, n) - ceilDiv(c*k, n) }

// ceilDiv is ⌈a/b⌉ for a ≥ 0, b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

// Index maps a key's place g in a strip's order to its cell ⌊g·n/K⌋ with
// a multiply instead of a division (Lemire, Kaser, Kurz, "Faster
// Remainder by Direct Computation", 2019, with m = ⌈2⁶⁴/K⌉: exact for
// numerators below 2^(64−⌈log₂K⌉), which g < K and n ≤ 2¹¹ keep for
// every K up to 2²⁶, beyond the largest key set a scenario may ask for).
type Index struct {
	n uint64 // cells
	k uint64 // keys
	m uint64 // ⌈2⁶⁴/K⌉, or 0 to divide (K = 1 or K > 2²⁶)
}

// NewIndex returns the cell index of a strip over k keys.
func NewIndex(k int) Index {
	s := Index{n: uint64(Cells(k)), k: uint64(k)}
	if k > 1 && k <= 1<<26 {
		s.m = ^uint64(0)/uint64(k) + 1
	}
	return s
}

// Of returns the cell of place g.
func (s Index) Of(g uint32) int {
	if s.m == 0 {
		return int(uint64(g) * s.n / s.k)
	}
	hi, _ := bits.Mul64(s.m, uint64(g)*s.n)
	return int(hi)
}
