package tablerules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// populateRef is the paper's population loop, written plainly: the
// reference for populate and its cache.
func populateRef(g *maglev) []timeline.NodeID {
	es := g.entries()
	table := make([]timeline.NodeID, g.m)
	fill(table, timeline.NoNode)
	maxW := 0
	for _, e := range es {
		maxW = max(maxW, e.w)
	}
	taken := make([]bool, g.m)
	for filled, turn := 0, 1; filled < g.m; turn++ {
		for i := range es {
			e := &es[i]
			if filled == g.m || turn*e.w < e.target {
				continue
			}
			e.target += maxW
			for taken[e.pos] {
				e.pos = (e.pos + e.skip) % g.m
			}
			taken[e.pos], table[e.pos] = true, e.id
			e.pos = (e.pos + e.skip) % g.m
			filled++
		}
	}
	return table
}

func TestMaglevPopulateMatchesPaperLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, m := range []int{2, 3, 7, 13, 251, 4099, 65537, 2097169} {
		for trial := range 3 {
			n := 1 + rng.IntN(min(40, m))
			weights := make([]int, n)
			for i := range weights {
				weights[i] = 1
				if trial == 2 {
					weights[i] = 1 + rng.IntN(4)
				}
			}
			g, _ := maglevFor(t, m, weights...)
			if want := populateRef(g); !slices.Equal(g.table, want) {
				t.Fatalf("M = %d, weights %v: table differs from the paper's loop", m, weights)
			}
		}
	}
}

func TestMaglevCacheReturnsSameTable(t *testing.T) {
	g, st := maglevFor(t, 4099, ones(6)...)
	first := slices.Clone(g.table)
	st2 := *st
	st2.Members = append(slices.Clone(st.Members[:2]), st.Members[3:]...)
	g.Update(&st2)
	if slices.Equal(g.table, first) {
		t.Fatal("removing a node did not change the table")
	}
	g.Update(st)
	if !slices.Equal(g.table, first) {
		t.Fatal("the cached table for the first live set differs")
	}
}

// BenchmarkMaglevTable times one table rebuild for a membership not seen
// before (no cached table): what a maglev step costs beyond its keys when
// the live set is new.
func BenchmarkMaglevTable(b *testing.B) {
	for _, n := range []int{100} {
		b.Run(fmt.Sprintf("m=%d/nodes=%d", defaultMaglevM, n), func(b *testing.B) {
			e := &placer.Env{Keys: keys.NewKeySet(keys.KeySpec{Count: 1000}, 1)}
			st := &timeline.State{Op: timeline.OpStart, Replicas: 1}
			for i := range n {
				e.Nodes = append(e.Nodes, "node-"+strconv.Itoa(i+1))
				st.Members = append(st.Members, timeline.Member{ID: timeline.NodeID(i), Weight: 1})
			}
			g, err := newMaglev(placer.RuleSpec{Kind: MaglevKind.Name}, e)
			if err != nil {
				b.Fatal(err)
			}
			g.Live = placer.LiveList(st)
			for b.Loop() {
				g.Cache = maglevCache{}
				g.Populate()
			}
		})
	}
}
