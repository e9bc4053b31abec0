package keys

import "math"

// detExp returns e^x computed with plain float64 operations, each rounded
// on its own (the explicit conversions forbid fused multiply-adds), so it
// gives the same bits on every architecture, which math.Exp (assembly on
// some, Go on others) does not promise. x = k·ln2 + r with |r| ≤ ln2/2,
// e^r from its Taylor series to 20 terms (error below 1e-16 relative).
func detExp(x float64) float64 {
	if x != x || x > 709 || x < -745 {
		return math.Exp(x) // NaN and overflow: no bits to agree on
	}
	k := math.Round(float64(x / math.Ln2))
	r := float64(x-float64(k*ln2Hi)) - float64(k*ln2Lo)
	sum, term := 1.0, 1.0
	for n := 1; n <= 20; n++ {
		term = float64(term*r) / float64(n)
		sum += term
	}
	return math.Ldexp(sum, int(k))
}

// DetPow returns x^y for x > 0 as detExp(y·detLog(x)): reproducible to
// the bit on every machine, accurate to a few units in the last place.
func DetPow(x, y float64) float64 { return detExp(float64(y * DetLog(x))) }
