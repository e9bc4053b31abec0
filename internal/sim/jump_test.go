package sim

import (
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/cespare/xxhash/v2"
	gojump "github.com/dgryski/go-jump"
)

// TestJumpRuleMatchesGoJump: the jump rule with hash xxhash64 puts every
// key in go-jump's bucket of xxhash.Sum64String(key), buckets being the
// nodes in join order.
func TestJumpRuleMatchesGoJump(t *testing.T) {
	nodes := []string{"n3", "n1", "n7", "n2", "n9", "n4", "n5"}
	s := &Scenario{Name: "j", Title: "j", Seed: 5, Keys: keys.KeySpec{Count: 5000}, Nodes: names(nodes...),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "jump", Hash: "xxhash64"}}}
	res := mustReplay(t, s)
	owners := ownersAt(res, 0, 0)
	for i := range res.Keys.Len() {
		name := res.Keys.Name(i)
		b := gojump.Hash(xxhash.Sum64String(name), len(nodes))
		if got := res.Timeline.Nodes[owners[i]]; got != nodes[b] {
			t.Fatalf("key %q: owner %s, go-jump bucket %d = %s", name, got, b, nodes[b])
		}
	}
	if p := res.Rules[0].Steps[0].Probes; len(p) != 0 {
		t.Fatal("unexpected probes")
	}
}

// TestJumpMiddleRemoval: removing a middle node is not native: update
// says so, and the model renumbers buckets over the remaining members,
// which moves keys between nodes that stayed.
func TestJumpMiddleRemoval(t *testing.T) {
	s := &Scenario{Name: "j", Title: "j", Seed: 1, Keys: keys.KeySpec{Count: 10000}, Nodes: names("a", "b", "c", "d"),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "jump"}}, Steps: []timeline.Step{remove("b"), fail("c"), recover_("c"), remove("d")}}
	res := mustReplay(t, s)
	steps := res.Rules[0].Steps
	for i, wantNote := range []bool{false, true, true, true, false} {
		if got := len(steps[i].Notes) > 0; got != wantNote {
			t.Errorf("step %d: notes %q, want a note: %v", i, steps[i].Notes, wantNote)
		}
	}
	if !strings.Contains(steps[1].Notes[0], `remove "b" (bucket 1 of 4)`) || !strings.Contains(steps[1].Notes[0], "renumber") {
		t.Errorf("note %q should name the node, its bucket and the renumbering", steps[1].Notes[0])
	}
	if steps[1].Collateral() == 0 {
		t.Error("renumbering after a middle removal should move keys between surviving nodes")
	}
	// The model: after removing b, buckets 0, 1, 2 are a, c, d.
	owners := ownersAt(res, 0, 1)
	names := []string{"a", "c", "d"}
	for i, h := range res.Keys.Pos {
		if got := res.Timeline.Nodes[owners[i]]; got != names[gojump.Hash(uint64(h), 3)] {
			t.Fatalf("key %d: owner %s, want %s", i, got, names[gojump.Hash(uint64(h), 3)])
		}
	}
}

// TestJumpWeights: adding a weighted last node is native (moved equals
// needed) and shares follow the weights; the buckets themselves are
// tested in internal/tablerules.
func TestJumpWeights(t *testing.T) {
	s := &Scenario{Name: "j", Title: "j", Seed: 1, Keys: keys.KeySpec{Count: 40000}, Replicas: 2,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}, Rules: []placer.RuleSpec{{Kind: "jump"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "c", Weight: 2}}}}}
	res := mustReplay(t, s)
	sr := res.Rules[0].Steps[1]
	if sr.Moved != sr.Needed || len(sr.Notes) != 1 {
		t.Errorf("adding a weighted last node: moved %d, needed %d, notes %q", sr.Moved, sr.Needed, sr.Notes)
	}
	for id, want := range []float64{1.0 / 6, 3.0 / 6, 2.0 / 6} {
		if got := float64(sr.Loads[id]) / 40000; got < want-0.01 || got > want+0.01 {
			t.Errorf("node %d share %.3f, want %.3f ± 0.01", id, got, want)
		}
	}
}
