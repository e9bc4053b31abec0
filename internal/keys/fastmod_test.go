package keys

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFastModExact: FastMod equals p % n at the edges of both ranges and
// on random pairs.
func TestFastModExact(t *testing.T) {
	ns := []uint32{1, 2, 3, 7, 100, 101, 65535, 65536, 1<<31 - 1, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	ps := []uint32{0, 1, 2, 99, 100, 101, 1<<31 - 1, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		ns = append(ns, r.Uint32N(1000)+1, r.Uint32()|1)
		ps = append(ps, r.Uint32())
	}
	for _, n := range ns {
		f := NewFastMod(n)
		for _, p := range ps {
			if got := f.Of(p); got != p%n {
				t.Fatalf("%d mod %d = %d, want %d", p, n, got, p%n)
			}
		}
	}
}
