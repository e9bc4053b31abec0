package ringrules

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestSortEntriesIsCmpEntry: the radix sort of ring points gives the
// order of a comparison sort by cmpEntry, with positions drawn from a
// small range so that many points of different nodes tie.
func TestSortEntriesIsCmpEntry(t *testing.T) {
	r := &Ring{Env: &placer.Env{Nodes: []string{"d", "b", "a", "c", "bb"}}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 7, 300, 5000} {
		for _, span := range []uint32{3, 1000, 1 << 31} {
			all := make([]RingEntry, n)
			for i := range all {
				all[i] = RingEntry{Pos: rng.Uint32N(span), Node: timeline.NodeID(rng.IntN(5)), Index: uint32(i)}
			}
			want := slices.Clone(all)
			slices.SortFunc(want, r.cmpEntry)
			r.sortEntries(all)
			if !slices.Equal(all, want) {
				t.Errorf("%d points in [0, %d): radix order differs from cmpEntry", n, span)
			}
		}
	}
}
