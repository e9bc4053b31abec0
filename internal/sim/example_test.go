package sim_test

import (
	"fmt"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Adding a sixth node to a five-node ring moves only the keys the new node
// takes; under modulo most keys move.
func Example() {
	s := &sim.Scenario{
		Name: "grow", Title: "Grow", Seed: 1, Replicas: 1,
		Keys:  keys.KeySpec{Count: 900},
		Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}, {Name: "e"}},
		Rules: []placer.RuleSpec{{Kind: "ring"}, {Kind: "modulo"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "f"}}}},
	}
	res, err := sim.Replay(s)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rules {
		st := r.Steps[1]
		fmt.Printf("%s: moved %d of 900, needed %d, ideal %d\n", r.Spec.Label, st.Moved, st.Needed, st.Ideal)
	}
	// Output:
	// ring: moved 167 of 900, needed 167, ideal 150
	// modulo: moved 771 of 900, needed 147, ideal 150
}
