package keys

import (
	"slices"
	"testing"
)

// TestKeySetRegression pins generated keys: the same seed must give the
// same keys on every machine and Go version. The values come from
// math/rand/v2's PCG (a specified generator) through the Feistel
// numbering; a change here changes every report.
func TestKeySetRegression(t *testing.T) {
	k := NewKeySet(KeySpec{Count: 5}, 1)
	got := make([]string, k.Len())
	for g := range got {
		got[g] = string(k.appendGen(nil, uint32(g)))
	}
	want := []string{"key-3394648195", "key-167664608", "key-3429513217", "key-4124124127", "key-550897123"}
	if !slices.Equal(got, want) {
		t.Errorf("seed 1 keys = %q, want %q", got, want)
	}
}

func TestKeySetSeedsDiffer(t *testing.T) {
	a, b := NewKeySet(KeySpec{Count: 100}, 1), NewKeySet(KeySpec{Count: 100}, 2)
	if slices.Equal(a.Pos, b.Pos) {
		t.Error("seeds 1 and 2 gave the same key positions")
	}
	if c := NewKeySet(KeySpec{Count: 100}, 1); !slices.Equal(a.Pos, c.Pos) || !slices.Equal(a.Gen, c.Gen) {
		t.Error("seed 1 gave different key sets on two calls")
	}
}

func TestKeySetCanonicalOrder(t *testing.T) {
	k := NewKeySet(KeySpec{Count: 10000, Prefix: "user:"}, 7)
	if !slices.IsSorted(k.Pos) {
		t.Fatal("positions are not ascending")
	}
	seen := map[string]bool{}
	gens := map[uint32]bool{}
	for i := range k.Len() {
		name := k.Name(i)
		if Hash32(name) != k.Pos[i] {
			t.Fatalf("key %d %q: Pos %#x, Hash32 %#x", i, name, k.Pos[i], Hash32(name))
		}
		if seen[name] || gens[k.Gen[i]] {
			t.Fatalf("key %q or generation index %d repeats", name, k.Gen[i])
		}
		seen[name], gens[k.Gen[i]] = true, true
	}
}

func TestKeySetList(t *testing.T) {
	list := []string{"x", "y", "z", "x"}
	k := NewKeySet(KeySpec{List: list}, 1)
	for i := range k.Len() {
		if got, want := k.Name(i), list[k.Gen[i]]; got != want {
			t.Errorf("Name(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestSortByPositionStable(t *testing.T) {
	pos := []uint32{5, 1, 5, 0, 1 << 31, 1}
	sorted, idx := sortByPosition(pos)
	if !slices.Equal(sorted, []uint32{0, 1, 1, 5, 5, 1 << 31}) || !slices.Equal(idx, []uint32{3, 1, 5, 0, 2, 4}) {
		t.Errorf("sortByPosition = %v %v", sorted, idx)
	}
}
