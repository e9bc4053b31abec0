package sim

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestModuloWeightNote: modulo ignores weights and says so.
func TestModuloWeightNote(t *testing.T) {
	s := &Scenario{Name: "h", Title: "h", Seed: 1, Keys: keys.KeySpec{Count: 10}, Replicas: 1,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}}, Rules: []placer.RuleSpec{{Kind: "modulo"}}}
	if n := mustReplay(t, s).Rules[0].Steps[0].Notes; len(n) != 1 || n[0] != "modulo has no weighted form: weights ignored" {
		t.Errorf("notes %q", n)
	}
}
