package sim

import (
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestSlotsFailover: a failed master's slots are spread over the live
// ones with a note, and recovery brings the exact table back (the
// serving table itself is tested in internal/tablerules).
func TestSlotsFailover(t *testing.T) {
	s := &Scenario{Name: "s", Title: "s", Seed: 1, Keys: keys.KeySpec{Count: 30000}, Nodes: names("a", "b", "c", "d", "e"),
		Replicas: 1, Rules: []placer.RuleSpec{{Kind: "slots"}}, Steps: []timeline.Step{fail("c"), recover_("c")}}
	res := mustReplay(t, s)
	steps := res.Rules[0].Steps
	if steps[1].Moved != steps[1].Needed || steps[1].Loads[2] != 0 {
		t.Errorf("fail: moved %d, needed %d, failed node keeps %d", steps[1].Moved, steps[1].Needed, steps[1].Loads[2])
	}
	if steps[2].Recurs != 0 || !strings.Contains(steps[1].Notes[0], "replica") || len(steps[2].Notes) != 1 {
		t.Errorf("recover: recurs %d, notes %q / %q", steps[2].Recurs, steps[1].Notes, steps[2].Notes)
	}
}

// TestSlotsReplicaNote: more than one replica is noted (the weighted ranges
// themselves are tested in internal/tablerules).
func TestSlotsReplicaNote(t *testing.T) {
	s := &Scenario{Name: "s", Title: "s", Seed: 1, Keys: keys.KeySpec{Count: 100}, Replicas: 2,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}, Rules: []placer.RuleSpec{{Kind: "slots"}},
		Steps: []timeline.Step{{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 3}}}}}
	res := mustReplay(t, s)
	if n := res.Rules[0].Steps[0].Notes; len(n) != 1 || !strings.Contains(n[0], "replicas") {
		t.Errorf("replicas > 1 should be noted: %q", n)
	}
}
