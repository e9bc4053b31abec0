package keys

import (
	"math"
	"testing"
)

// TestHashGolden pins every rule hash on known vectors: the CRC-32/IEEE
// check value, MD5("") = d41d8cd9…, XXH64("") = ef46db3751d8e999.
func TestHashGolden(t *testing.T) {
	for _, c := range []struct {
		h    hashKind
		in   string
		w32  uint32
		w64  uint64
		name string
	}{
		{HashCRC32, "123456789", 0xCBF43926, 0xCBF43926, "crc32"},
		{HashMD5, "", 0xd98c1dd4, 0xd98c1dd4, "md5"},
		{HashXX, "", 0x51d8e999, 0xef46db3751d8e999, "xxhash64"},
		{HashFNV, "a", Hash32("a"), uint64(Hash32("a")), "fnv1a-fmix"},
	} {
		if got := c.h.Sum32([]byte(c.in)); got != c.w32 {
			t.Errorf("%s(%q) = %#x, want %#x", c.name, c.in, got, c.w32)
		}
		if got := c.h.Sum64([]byte(c.in)); got != c.w64 {
			t.Errorf("%s64(%q) = %#x, want %#x", c.name, c.in, got, c.w64)
		}
		if h, err := ParseHash("ring", c.name); err != nil || h != c.h {
			t.Errorf("parseHash(%q) = %v, %v", c.name, h, err)
		}
	}
	if h, err := ParseHash("ring", ""); err != nil || h != HashFNV {
		t.Errorf("the default hash is %v, %v", h, err)
	}
}

// TestKeyCacheOrder: under a non-default hash the rule order lists keys
// by ascending position, and rank inverts it.
func TestKeyCacheOrder(t *testing.T) {
	keys := NewKeySet(KeySpec{Count: 5000}, 9)
	for _, h := range []hashKind{HashXX, HashCRC32, HashMD5} {
		c := NewKeyCache(keys, h)
		perm, rank := c.Order()
		pos := c.Pos32()
		for t2 := 1; t2 < len(perm); t2++ {
			if pos[perm[t2-1]] > pos[perm[t2]] {
				t.Fatalf("hash %d: positions out of order at %d", h, t2)
			}
		}
		for t2, i := range perm {
			if rank[i] != uint32(t2) {
				t.Fatalf("hash %d: rank does not invert perm", h)
			}
		}
		if want := h.Sum32(keys.AppendName(nil, 17)); pos[17] != want {
			t.Errorf("hash %d: cached position %d, want %d", h, pos[17], want)
		}
	}
	if perm, rank := NewKeyCache(keys, HashFNV).Order(); perm != nil || rank != nil {
		t.Error("the default hash's order is canonical: want nil")
	}
}

// TestDetLog: detLog agrees with math.Log to within 2 ulp over (0, 1),
// and its bits are pinned (they must not change across machines).
func TestDetLog(t *testing.T) {
	x := 1.0
	for range 5000 {
		x = math.Nextafter(x*0.9973, 0)
		got, want := DetLog(x), math.Log(x)
		if math.Abs(got-want) > 2*math.Abs(want)*0x1p-52 {
			t.Fatalf("detLog(%g) = %.17g, math.Log = %.17g", x, got, want)
		}
	}
	for _, c := range []struct {
		x    float64
		bits uint64
	}{
		{0.5, math.Float64bits(-math.Ln2)},
		{0x1p-52, math.Float64bits(-52 * math.Ln2)},
		{0.3, 0xbff34378fcbda721},
		{0.7, 0xbfd6d3c324e13f4f}, // math.Log on amd64 gives …50: one ulp apart
		{0.999999, 0xbeb0c6f82d74d22f},
	} {
		if got := math.Float64bits(DetLog(c.x)); got != c.bits {
			t.Errorf("detLog(%g) bits %#x, want %#x", c.x, got, c.bits)
		}
	}
}
