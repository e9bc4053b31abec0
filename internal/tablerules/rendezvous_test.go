package tablerules

import (
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestRendezvousTopR: every key's list is the R live nodes with the
// highest scores, best first, computed here by brute force.
func TestRendezvousTopR(t *testing.T) {
	e, states := statesOf(t, 2, 2000, named("a", "b", "c", "d", "e"), 3, timeline.Step{Op: timeline.OpFail, Nodes: named("c")})
	z, err := newRendezvous(placer.RuleSpec{Kind: RendezvousKind.Name}, e)
	if err != nil {
		t.Fatal(err)
	}
	lists := assignAt(z, e, states, 1)
	for i, k := range e.Keys.Pos {
		ids := []timeline.NodeID{0, 1, 3, 4} // c failed
		slices.SortFunc(ids, func(a, b timeline.NodeID) int {
			sa, sb := keys.Mix64(uint64(k)^z.Seed[a])>>12, keys.Mix64(uint64(k)^z.Seed[b])>>12
			if sa != sb {
				if sa > sb {
					return -1
				}
				return 1
			}
			return int(a) - int(b)
		})
		if got := []timeline.NodeID{lists[0][i], lists[1][i], lists[2][i]}; !slices.Equal(got, ids[:3]) {
			t.Fatalf("key %d: list %v, brute force %v", i, got, ids[:3])
		}
	}
}

// TestRendezvousGeometryMatchesRank: the wheel's arcs, sampled in a
// batch, are those of ranking each sample position alone, with a failed
// node left out.
func TestRendezvousGeometryMatchesRank(t *testing.T) {
	e, states := statesOf(t, 3, 10, named("a", "b", "c", "d", "e", "f", "g"), 1, timeline.Step{Op: timeline.OpFail, Nodes: named("c")})
	z, err := newRendezvous(placer.RuleSpec{Kind: RendezvousKind.Name}, e)
	if err != nil {
		t.Fatal(err)
	}
	for i := range states {
		z.Update(&states[i])
		got, _ := z.Geometry()
		want := placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID {
			id, _ := z.best(uint64(p))
			return id
		})
		if !slices.Equal(got, want) {
			d := 0
			for d < min(len(got), len(want)) && got[d] == want[d] {
				d++
			}
			t.Fatalf("step %d: %d arcs, ranked one by one %d, first differing at arc %d", i, len(got), len(want), d)
		}
		if len(got) < 7 {
			t.Fatalf("step %d: only %d arcs: too few to tell the owners apart", i, len(got))
		}
	}
}
