package tablerules

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	gojump "github.com/dgryski/go-jump"
)

// TestJumpMatchesGoJump cross-checks jumpHash with github.com/dgryski/go-jump
// (itself checked against the paper's C++ code) over many keys and sizes.
func TestJumpMatchesGoJump(t *testing.T) {
	key := uint64(1)
	for i := range 20000 {
		key = keys.Mix64(key + uint64(i))
		for _, n := range []int{1, 2, 3, 7, 10, 11, 64, 1000, 65535} {
			if got, want := jumpHash(key, n), int(gojump.Hash(key, n)); got != want {
				t.Fatalf("jumpHash(%#x, %d) = %d, go-jump says %d", key, n, got, want)
			}
		}
	}
}

// TestJumpWeightedBuckets: a node of weight w holds w consecutive
// buckets, and a key's second choice is the next distinct bucket's node.
func TestJumpWeightedBuckets(t *testing.T) {
	e, states := statesOf(t, 1, 100, []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}, 2,
		timeline.Step{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "c", Weight: 2}}})
	j, err := newJump(placer.RuleSpec{Kind: JumpKind.Name}, e)
	if err != nil {
		t.Fatal(err)
	}
	j.Update(&states[1])
	if got := j.Buckets; len(got) != 6 || got[0] != 0 || got[3] != 1 || got[4] != 2 {
		t.Errorf("buckets %v, want [a b b b c c]", got)
	}
	if pref := j.Prefs(2); pref[1][0] != 1 || pref[1][3] != 2 || pref[1][5] != 0 {
		t.Errorf("second choices %v, want the next distinct bucket's node", pref[1])
	}
}
