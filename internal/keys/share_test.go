package keys

import (
	"slices"
	"sync"
	"testing"
)

// TestShareCaches: a key set that shares its caches gives every cache of
// one hash the same arrays, computed once, equal to an unshared cache's,
// also when many goroutines ask at once (go test -race); one that does
// not share gives each cache its own.
func TestShareCaches(t *testing.T) {
	spec := KeySpec{Count: 5000}
	own := NewKeySet(spec, 9)
	if NewKeyCache(own, HashMD5) == NewKeyCache(own, HashMD5) {
		t.Fatal("a key set that does not share its caches shared one")
	}
	shared := NewKeySet(spec, 9)
	shared.ShareCaches()
	for _, h := range []hashKind{HashFNV, HashXX, HashCRC32, HashMD5} {
		want := NewKeyCache(own, h)
		wantPerm, wantRank := want.Order()
		var wg sync.WaitGroup
		got := make([]*KeyCache, 8)
		for g := range got {
			wg.Go(func() {
				got[g] = NewKeyCache(shared, h)
				got[g].Keys64()
				got[g].Order()
			})
		}
		wg.Wait()
		for _, c := range got[1:] {
			if c != got[0] {
				t.Fatalf("hash %d: two caches of a shared key set", h)
			}
		}
		perm, rank := got[0].Order()
		if !slices.Equal(perm, wantPerm) || !slices.Equal(rank, wantRank) ||
			!slices.Equal(got[0].Pos32(), want.Pos32()) || !slices.Equal(got[0].SortedPos(), want.SortedPos()) {
			t.Errorf("hash %d: the shared cache differs from an unshared one", h)
		}
		if h == HashXX && got[0].Keys64().At(17) != want.Keys64().At(17) {
			t.Errorf("xxhash64: 64-bit hashes differ")
		}
	}
}

// TestSharing: Sharing gives a copy of an unshared key set whose caches
// are one per hash, and leaves the key set's own unshared; a key set that
// shares already is its own copy.
func TestSharing(t *testing.T) {
	own := NewKeySet(KeySpec{Count: 1000}, 9)
	s := own.Sharing()
	if s == own || NewKeyCache(s, HashMD5) != NewKeyCache(s, HashMD5) {
		t.Fatal("Sharing's copy does not share its caches")
	}
	if NewKeyCache(own, HashMD5) == NewKeyCache(own, HashMD5) || NewKeyCache(own, HashMD5) == NewKeyCache(s, HashMD5) {
		t.Fatal("Sharing made the original key set share its caches")
	}
	if s.Sharing() != s {
		t.Fatal("Sharing of a sharing key set is not the key set itself")
	}
	if !slices.Equal(s.Pos, own.Pos) || s.Len() != own.Len() {
		t.Fatal("Sharing's copy holds other keys")
	}
}
