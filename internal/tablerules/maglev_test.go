package tablerules

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// maglevFor builds a maglev placer of table size m over nodes of the
// given weights, all live, named n0, n1, ….
func maglevFor(t *testing.T, m int, weights ...int) (*maglev, *timeline.State) {
	t.Helper()
	e := &placer.Env{Keys: keys.NewKeySet(keys.KeySpec{Count: 10}, 1)}
	st := &timeline.State{Op: timeline.OpStart, Replicas: 1}
	for i, w := range weights {
		e.Nodes = append(e.Nodes, "n"+strconv.Itoa(i))
		st.Members = append(st.Members, timeline.Member{ID: timeline.NodeID(i), Weight: w})
	}
	g, err := newMaglev(placer.RuleSpec{Kind: "maglev", M: m}, e)
	if err != nil {
		t.Fatal(err)
	}
	g.Update(st)
	return g, st
}

func ones(n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// TestMaglevEvenEntries: with equal weights every node holds ⌊M/n⌋ or
// ⌈M/n⌉ entries, exactly (the round robin of the paper's Pseudocode 1).
func TestMaglevEvenEntries(t *testing.T) {
	for _, m := range []int{7, 13, 251, 65537} {
		for _, n := range []int{1, 2, 3, 5, 7, 10, 33} {
			g, _ := maglevFor(t, m, ones(n)...)
			counts := make([]int, n)
			for _, id := range g.table {
				counts[id]++
			}
			for id, c := range counts {
				if c != m/n && c != (m+n-1)/n {
					t.Errorf("M=%d n=%d: node %d holds %d entries, want %d or %d", m, n, id, c, m/n, (m+n-1)/n)
				}
			}
		}
	}
}

// TestMaglevSmallTable pins a whole M = 7 table (white box, as
// dgryski/go-maglev's tests do) and checks it against a direct reading of
// the paper's pseudocode.
func TestMaglevSmallTable(t *testing.T) {
	g, _ := maglevFor(t, 7, 1, 1, 1)
	want := reference(g, 7)
	if !slices.Equal(g.table, want) {
		t.Fatalf("table %v, pseudocode gives %v", g.table, want)
	}
	pinned := []timeline.NodeID{0, 2, 1, 1, 0, 2, 0} // regression: n0 n1 n2 at M = 7
	if !slices.Equal(g.table, pinned) {
		t.Errorf("M=7 table %v, pinned %v", g.table, pinned)
	}
}

// reference fills a table by the paper's Pseudocode 1, literally: a full
// permutation array per node, nodes in name order.
func reference(g *maglev, m int) []timeline.NodeID {
	es := g.entries()
	perm := make([][]int, len(es))
	for i, e := range es {
		perm[i] = make([]int, m)
		for j := range m {
			perm[i][j] = (e.pos + j*e.skip) % m
		}
	}
	next := make([]int, len(es))
	entry := make([]timeline.NodeID, m)
	fill(entry, timeline.NoNode)
	for n := 0; ; {
		for i := range es {
			c := perm[i][next[i]]
			for entry[c] != timeline.NoNode {
				next[i]++
				c = perm[i][next[i]]
			}
			entry[c] = es[i].id
			next[i]++
			if n++; n == m {
				return entry
			}
		}
	}
}

// TestMaglevFailureRebuilds: a failed node's table is the table built
// without it, and recovery restores the original.
func TestMaglevFailureRebuilds(t *testing.T) {
	g, st := maglevFor(t, 13, 1, 1, 1, 1)
	orig := slices.Clone(g.table)
	st.Members[1].Failed = true
	g.Update(st)
	without, _ := maglevFor(t, 13, 1, 1, 1, 1)
	without.Update(&timeline.State{Members: []timeline.Member{st.Members[0], st.Members[2], st.Members[3]}})
	if !slices.Equal(g.table, without.table) || slices.Contains(g.table, 1) {
		t.Errorf("failed: %v, rebuilt without: %v", g.table, without.table)
	}
	st.Members[1].Failed = false
	g.Update(st)
	if !slices.Equal(g.table, orig) {
		t.Errorf("recovered: %v, want %v", g.table, orig)
	}
}

// TestMaglevWeights: Envoy's weighted population gives a node of weight w
// about w/Σw of the entries.
func TestMaglevWeights(t *testing.T) {
	g, _ := maglevFor(t, 65537, 1, 2, 3, 4)
	counts := make([]int, 4)
	for _, id := range g.table {
		counts[id]++
	}
	for id, c := range counts {
		want := 65537 * (id + 1) / 10
		if c < want-want/100 || c > want+want/100 {
			t.Errorf("node %d (weight %d): %d entries, want %d ± 1%%", id, id+1, c, want)
		}
	}
}

// TestMaglevNotes: a table below 100·n entries and a node with no entry
// are reported.
func TestMaglevNotes(t *testing.T) {
	g, st := maglevFor(t, 7, ones(9)...)
	notes := g.Update(st)
	if len(notes) != 2 || !strings.Contains(notes[0], "100·n") || !strings.Contains(notes[1], "no table entries") {
		t.Errorf("notes %q", notes)
	}
	g, st = maglevFor(t, 65537, 1, 1)
	if notes := g.Update(st); len(notes) != 0 {
		t.Errorf("notes %q, want none", notes)
	}
}

// TestMaglevReplicas: the second choice is the next distinct node of the
// following entries.
func TestMaglevReplicas(t *testing.T) {
	g, _ := maglevFor(t, 13, 1, 1, 1)
	pref := g.Prefs(3)
	for e := range 13 {
		var want []timeline.NodeID
		for s := 0; len(want) < 3; s++ {
			if id := g.table[(e+s)%13]; !slices.Contains(want, id) {
				want = append(want, id)
			}
		}
		if got := []timeline.NodeID{pref[0][e], pref[1][e], pref[2][e]}; !slices.Equal(got, want) {
			t.Errorf("entry %d: %v, want %v", e, got, want)
		}
	}
}
