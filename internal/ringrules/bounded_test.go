package ringrules

import "testing"

// TestCeilMulDiv: ⌈a·b/c⌉ exactly, also where a·b overflows 64 bits.
func TestCeilMulDiv(t *testing.T) {
	for _, c := range []struct{ a, b, c, want uint64 }{
		{10, 10, 3, 34}, {9, 1, 3, 3}, {1 << 62, 8, 1 << 62, 8}, {1<<63 + 1, 2, 1 << 62, 5},
	} {
		if got := ceilMulDiv(c.a, c.b, c.c); got != c.want {
			t.Errorf("ceilMulDiv(%d, %d, %d) = %d, want %d", c.a, c.b, c.c, got, c.want)
		}
	}
}
