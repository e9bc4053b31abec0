package keys

import (
	"slices"
	"testing"
)

// TestZipfWeightsPinned pins the Zipf request counts of a seed: the
// counts in rank order follow round(1000·r^−1.1/H), shuffled by the
// "zipf" stream of seed 1.
func TestZipfWeightsPinned(t *testing.T) {
	got := ZipfWeights(12, 1.1, 1000, 1)
	want := []uint32{49, 106, 32, 42, 166, 36, 25, 23, 355, 28, 77, 60}
	if !slices.Equal(got, want) {
		t.Fatalf("ZipfWeights(12, 1.1, 1000, 1) = %v, want %v", got, want)
	}
	sorted := slices.Clone(got)
	slices.Sort(sorted)
	slices.Reverse(sorted)
	if want := []uint32{355, 166, 106, 77, 60, 49, 42, 36, 32, 28, 25, 23}; !slices.Equal(sorted, want) {
		t.Fatalf("counts by rank = %v, want %v", sorted, want)
	}
	if other := ZipfWeights(12, 1.1, 1000, 2); slices.Equal(other, got) {
		t.Errorf("seed 2 gives the same ranks as seed 1")
	}
	w := ZipfWeights(100_000, 1.1, 0, 1)
	var sum int64
	for _, x := range w {
		sum += int64(x)
	}
	if sum != 1_004_524 {
		t.Errorf("100,000 keys, default total: the counts sum to %d, want 1,004,524", sum)
	}
}

// TestHeaviest: the hot keys are the heaviest by weight, ties by
// generation order, as a full sort gives them.
func TestHeaviest(t *testing.T) {
	k := NewKeySet(KeySpec{Count: 5000, Zipf: 0.7, Requests: 20_000}, 3)
	idx := make([]int, k.Len())
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if k.Weight[a] != k.Weight[b] {
			return int(k.Weight[b]) - int(k.Weight[a])
		}
		return int(k.Gen[a]) - int(k.Gen[b])
	})
	if !slices.Equal(k.Hot, idx[:HotKeys]) {
		t.Fatalf("Hot = %v, want %v", k.Hot, idx[:HotKeys])
	}
	list := KeySpec{List: []string{"a", "b", "c"}, Weights: []uint32{5, 0, 5}}
	if got := NewKeySet(list, 1); got.Requests != 10 || len(got.Hot) != 3 || got.Name(got.Hot[0]) != "a" || got.Name(got.Hot[1]) != "c" {
		t.Fatalf("weighted list: requests %d, hot %v", got.Requests, got.Hot)
	}
}
