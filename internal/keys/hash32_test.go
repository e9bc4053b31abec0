package keys

import "testing"

// The FNV-1a column matches the published FNV test vectors (Go's
// hash/fnv tests: "a" → 0xe40c292c, "foobar" → 0xbf9cf968); the Hash32
// column was computed by an independent Python implementation of
// FNV-1a followed by MurmurHash3's fmix32.
func TestHash32Vectors(t *testing.T) {
	for _, tc := range []struct {
		in       string
		fnv, out uint32
	}{
		{"", 0x811c9dc5, 0xab3e7c0b},
		{"a", 0xe40c292c, 0x1a80b1b3},
		{"foobar", 0xbf9cf968, 0x0c0da6dc},
		{"key-1", 0x57e03446, 0x63e4d497},
		{"key-2", 0x56e032b3, 0x1eeb05d1},
		{"a#0", 0xf0ac1657, 0x87484091},
		{"node-1#159", 0xe53608e1, 0x25a779f6},
		{"user:42", 0x2f6b7b82, 0x23bf9c12},
	} {
		if got := Fmix32(tc.fnv); got != tc.out {
			t.Errorf("fmix32(%#x) = %#x, want %#x", tc.fnv, got, tc.out)
		}
		if got := Hash32(tc.in); got != tc.out {
			t.Errorf("Hash32(%q) = %#x, want %#x", tc.in, got, tc.out)
		}
		if got := hash32Bytes([]byte(tc.in)); got != tc.out {
			t.Errorf("hash32Bytes(%q) = %#x, want %#x", tc.in, got, tc.out)
		}
	}
}
