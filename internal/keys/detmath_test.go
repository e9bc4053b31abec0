package keys

import (
	"math"
	"testing"
)

func TestDetExpPow(t *testing.T) {
	for _, x := range []float64{-700, -20, -1.5, -0.3, 0, 1e-9, 0.5, 1, 2.302585092994046, 30, 700} {
		got, want := detExp(x), math.Exp(x)
		if math.Abs(got-want) > 4e-15*want {
			t.Errorf("detExp(%v) = %v, want %v", x, got, want)
		}
	}
	for _, tc := range [][2]float64{{2, -1.1}, {100000, -1.1}, {3, 0.5}, {1, -2}, {7, 3}} {
		got, want := DetPow(tc[0], tc[1]), math.Pow(tc[0], tc[1])
		if math.Abs(got-want) > 1e-14*want {
			t.Errorf("detPow(%v, %v) = %v, want %v", tc[0], tc[1], got, want)
		}
	}
	// Pinned bits: a change here changes every Zipf key set.
	if got := math.Float64bits(DetPow(10, -1.1)); got != 0x3fb4_55b5_a30b_0359 {
		t.Errorf("detPow(10, -1.1) bits %#x", got)
	}
}
