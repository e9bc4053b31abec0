package strips

import "testing"

// TestShade: a cell's shade is its commonest reason (the first of equals)
// and its moved share in 64ths, rounded to the nearest, at least one
// when anything moved.
func TestShade(t *testing.T) {
	for _, tc := range []struct {
		c             Cell
		keys          int
		reason, level int
	}{
		{Cell{}, 10, 0, 0},
		{Cell{0, 0, 1}, 1, ReasonCollateral, 64},
		{Cell{1, 0, 0}, 489, ReasonGained, 1},          // 0.13 of a 64th: at least 1
		{Cell{0, 100, 23}, 489, ReasonForced, 16},      // 123/489 = 16.1/64
		{Cell{0, 61, 61}, 488, ReasonForced, 16},       // 122/488 = 16/64 exactly; a tie goes to forced
		{Cell{200, 0, 289}, 489, ReasonCollateral, 64}, // all of it
		{Cell{8, 0, 0}, 49, ReasonGained, 10},          // 8/49 = 10.45/64
		{Cell{9, 0, 0}, 48, ReasonGained, 12},          // 9/48 = 12/64 exactly
		{Cell{3, 0, 0}, 256, ReasonGained, 1},          // 3/256 = 0.75/64
		{Cell{6, 0, 0}, 256, ReasonGained, 2},          // 6/256 = 1.5/64: halves up
		{Cell{487, 0, 0}, 489, ReasonGained, 64},       // 63.74/64
	} {
		s := shadeOf(tc.c, tc.keys)
		if s.Reason() != tc.reason || s.Level() != tc.level || (s == 0) != (tc.level == 0) {
			t.Errorf("shadeOf(%v, %d) = reason %d, level %d; want %d, %d", tc.c, tc.keys, s.Reason(), s.Level(), tc.reason, tc.level)
		}
	}
}

// TestStripIndexExact: the multiply-shift cell index equals ⌊g·n/K⌋.
func TestStripIndexExact(t *testing.T) {
	for _, k := range []int{1, 2, 3, 7, 2047, 2048, 2049, 4096, 100_003, 1 << 20, 50_000_000, 1<<26 + 1} {
		s := NewIndex(k)
		n := uint64(Cells(k))
		for _, g := range []int{0, 1, k / 3, k / 2, k - 2, k - 1} {
			if g < 0 {
				continue
			}
			if got, want := s.Of(uint32(g)), int(uint64(g)*n/uint64(k)); got != want {
				t.Errorf("K=%d g=%d: cell %d, want %d", k, g, got, want)
			}
		}
		for g := 0; g < k && g < 1<<16; g++ {
			if got, want := s.Of(uint32(g)), int(uint64(g)*n/uint64(k)); got != want {
				t.Fatalf("K=%d g=%d: cell %d, want %d", k, g, got, want)
			}
		}
	}
}
