package ringrules

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
)

// TestProbeGap: probeGap is the minimum over the probes, for every probe
// count including those that are not a multiple of its three lanes.
func TestProbeGap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, d, k := r.Uint32(), r.Uint32()|1, 1+r.IntN(50)
		want := ^uint32(0)
		for j := range uint32(k) {
			want = min(want, a-j*d)
		}
		if got := probeGap(a, d, k); got != want {
			t.Fatalf("probeGap(%d, %d, %d) = %d, want %d", a, d, k, got, want)
		}
	}
}

// TestGapBound: the bucketed bound never exceeds the exact least distance
// from a key's probes to the arrivals (so no capture is missed), and
// equals it for probes with no arrival after them in their bucket.
func TestGapBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	p := &Multiprobe{K: 21}
	for trial := range 300 {
		arrive := make([]uint32, 1+r.IntN(300))
		for i := range arrive {
			arrive[i] = r.Uint32()
			if trial%3 == 0 {
				arrive[i] >>= 20 // crowded near 0, many per bucket
			}
		}
		slices.Sort(arrive)
		ix := newArrivalIndex(arrive)
		for range 50 {
			h := r.Uint32()
			exact, bound := p.Gap(h, arrive), p.GapBound(h, ix)
			if bound > exact {
				t.Fatalf("trial %d, h %d: bound %d above the exact gap %d", trial, h, bound, exact)
			}
			if bound < exact && !p.sharesBucket(h, arrive, ix) {
				t.Fatalf("trial %d, h %d: bound %d below the exact gap %d with no arrival after a probe in its bucket", trial, h, bound, exact)
			}
		}
	}
}

// sharesBucket reports whether a probe of the key at h has an arrival at
// or after it in its bucket.
func (p *Multiprobe) sharesBucket(h uint32, arrive []uint32, ix *arrivalIndex) bool {
	d := keys.Fmix32(h+0x9e3779b9) | 1
	for j := range uint32(p.K) {
		x := h + j*d
		for _, q := range arrive {
			if q>>ix.Shift == x>>ix.Shift && q >= x {
				return true
			}
		}
	}
	return false
}
