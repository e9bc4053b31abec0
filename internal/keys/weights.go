package keys

import (
	"cmp"
	"math"
	"slices"
)

// This file gives keys request counts ("weights"): read from a key,weight
// file, or drawn from a Zipf law for generated keys. Weights are integers,
// so request loads are exact sums and reproducible to the request.

// DefaultZipfRequests is the total request count that a Zipf key set
// splits over its keys when the scenario names none.
const DefaultZipfRequests = 1_000_000

// MaxKeyWeight is the largest request count of one key, and MaxRequests the
// largest Zipf total (the most popular key may receive almost all of it).
const (
	MaxKeyWeight = math.MaxUint32
	MaxRequests  = math.MaxUint32
)

// MaxZipf is the largest Zipf exponent a scenario may ask for; beyond it
// every request goes to the first few ranks anyway.
const MaxZipf = 10

// HotKeys is the number of heaviest keys whose owners Replay tracks at
// every step (StepResult.HotOwners).
const HotKeys = 10

// ZipfWeights returns the request counts of n generated keys, by
// generation index, for exponent s > 0 and total requests: the key of
// popularity rank r (1 … n) receives round(total · r^−s / H) requests,
// H = Σ_{j=1..n} j^−s (summed from j = n down to 1), rounded half away
// from zero, so the counts sum to about total (the report gives the exact
// sum). Ranks go to keys by a seeded shuffle: the counts in rank order,
// shuffled with rand.Shuffle on the PCG stream "zipf" of seed, so the most
// popular key is a different one under every seed and is not tied to the
// key's number or position. The powers come from detPow, which gives the
// same bits on every architecture; a regression test pins the counts.
func ZipfWeights(n int, s float64, total int64, seed uint64) []uint32 {
	if total <= 0 {
		total = DefaultZipfRequests
	}
	h := 0.0
	for j := n; j >= 1; j-- {
		h += DetPow(float64(j), -s)
	}
	w := make([]uint32, n)
	for r := range w {
		q := float64(float64(total)*DetPow(float64(r+1), -s)) / h
		w[r] = uint32(min(math.Round(q), MaxKeyWeight))
	}
	rng := NewRand(seed, streamZipf)
	rng.Shuffle(n, func(i, j int) { w[i], w[j] = w[j], w[i] })
	return w
}

// ZipfAllZero reports whether every one of the n request counts that
// ZipfWeights gives for exponent s and total rounds to 0 — when even the
// most popular key's share, total / H with H = Σ_{j=1..n} j^−s, is below
// one half — and returns H, exact in that narrow case and else estimated
// within 1%. Integral bounds on H decide in O(1) unless total lies within
// a hair of H/2; only then is H summed exactly as ZipfWeights sums it.
func ZipfAllZero(n int, s float64, total int64) (bool, float64) {
	if total <= 0 {
		total = DefaultZipfRequests
	}
	if n <= 0 {
		return false, 0
	}
	// ∫_1^{n+1} x^−s dx ≤ H ≤ 1 + ∫_1^n x^−s dx.
	integral := func(b float64) float64 {
		if math.Abs(s-1) < 1e-12 {
			return math.Log(b)
		}
		return (math.Pow(b, 1-s) - 1) / (1 - s)
	}
	lo, hi := integral(float64(n)+1), 1+integral(float64(n))
	half := 2 * float64(total)
	switch {
	case lo > half*(1+1e-9):
		return true, (lo + hi) / 2
	case hi < half*(1-1e-9):
		return false, (lo + hi) / 2
	}
	h := 0.0
	for j := n; j >= 1; j-- {
		h += DetPow(float64(j), -s)
	}
	return math.Round(float64(total)*DetPow(1, -s)/h) == 0, h
}

// setWeights fills k.Weight, k.Requests and k.Hot from the spec; gen
// holds the weights by generation index.
func (k *KeySet) setWeights(spec KeySpec, seed uint64) {
	var gen []uint32
	switch {
	case spec.Weights != nil:
		gen = spec.Weights
	case spec.Zipf > 0:
		gen = ZipfWeights(k.Len(), spec.Zipf, spec.Requests, seed)
	default:
		return
	}
	k.Weight = make([]uint32, k.Len())
	for i, g := range k.Gen {
		k.Weight[i] = gen[g]
		k.Requests += int64(gen[g])
	}
	k.Hot = heaviest(k, HotKeys)
}

// heaviest returns the canonical indices of the n heaviest keys, heaviest
// first, ties broken by generation index (file order), in one pass.
func heaviest(k *KeySet, n int) []int {
	less := func(a, b int) int {
		return cmp.Or(cmp.Compare(k.Weight[b], k.Weight[a]), cmp.Compare(k.Gen[a], k.Gen[b]))
	}
	var top []int
	for i := range k.Weight {
		if len(top) == n && less(i, top[n-1]) >= 0 {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, i, less)
		top = slices.Insert(top, at, i)
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}
