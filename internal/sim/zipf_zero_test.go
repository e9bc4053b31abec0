package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"slices"
	"testing"
)

// TestZipfAllZero: ZipfAllZero agrees with the counts ZipfWeights gives,
// on either side of the boundary and right at it (total = H/2, where the
// integral bounds cannot decide and H is summed exactly).
func TestZipfAllZero(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 2, 10, 1000, 20000} {
		for _, s := range []float64{0.01, 0.5, 1, 1.1, 3} {
			h := 0.0
			for j := n; j >= 1; j-- {
				h += keys.DetPow(float64(j), -s)
			}
			for _, total := range []int64{1, 2, 3, int64(h/2) - 1, int64(h / 2), int64(h/2) + 1, int64(h), 1_000_000} {
				if total < 1 {
					continue
				}
				want := slices.Max(keys.ZipfWeights(n, s, total, 1)) == 0
				if got, _ := keys.ZipfAllZero(n, s, total); got != want {
					t.Errorf("ZipfAllZero(%d, %g, %d) = %v, want %v (H = %g)", n, s, total, got, want, h)
				}
			}
		}
	}
}
