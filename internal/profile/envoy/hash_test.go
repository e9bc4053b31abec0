package envoy

import "testing"

// TestXXH64Vectors are Envoy's TEST(Hash, xxHash) and xxHashWithVector in
// envoyproxy/envoy test/common/common/hash_test.cc (commit
// 01ee5bb6f8621b9e227acfc3eb9243e8eaba967e), plus the first ring point of
// the ring Basic test and "a" from production-rules.md §1.
func TestXXH64Vectors(t *testing.T) {
	for key, want := range map[string]uint64{
		"foo":            3728699739546630719,
		"bar":            5234164152756840025,
		"foo\nbar":       8917841378505826757,
		"lyft":           4400747396090729504,
		"":               17241709254077376921,
		"a":              15154266338359012955,
		"127.0.0.1:90_0": 16117243373044804889,
	} {
		if got := XXH64([]byte(key), 0); got != want {
			t.Errorf("XXH64(%q, 0) = %d, want %d", key, got, want)
		}
		if got := KeyHash([]byte(key)); got != want {
			t.Errorf("KeyHash(%q) = %d, want %d", key, got, want)
		}
	}
	// xxHashWithVector: a header with the values {"foo", "bar"} hashes them
	// in turn, each seeding the next, so a request key is one value.
	if got := XXH64([]byte("bar"), XXH64([]byte("foo"), 0)); got != 17745830980996999794 {
		t.Errorf("chained XXH64 of foo, bar = %d, want 17745830980996999794", got)
	}
}

// TestMurmurHash2Vectors is Envoy's TEST(Hash, murmurHash2) in the same
// hash_test.cc: murmurHash2 with its default seed, MurmurSeed.
func TestMurmurHash2Vectors(t *testing.T) {
	for key, want := range map[string]uint64{
		"foo":      9631199822919835226,
		"bar":      11474628671133349555,
		"foo\nbar": 16306510975912980159,
		"lyft":     12847078931730529320,
		"":         6142509188972423790,
	} {
		if got := MurmurHash2([]byte(key), MurmurSeed); got != want {
			t.Errorf("MurmurHash2(%q) = %d, want %d", key, got, want)
		}
	}
}

// TestHashesAllocate checks the hashes do not allocate, since a ring of
// 8 Mi points calls them 8 Mi times.
func TestHashesAllocate(t *testing.T) {
	key := []byte("127.0.0.1:90_123")
	if n := testing.AllocsPerRun(100, func() { _ = XXH64(key, 1) }); n != 0 {
		t.Errorf("XXH64 with a seed allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = MurmurHash2(key, MurmurSeed) }); n != 0 {
		t.Errorf("MurmurHash2 allocates %v times", n)
	}
}
