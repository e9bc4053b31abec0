package tablerules

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// statesOf resolves nodes and steps into the membership after every step
// and the Env a placer of them shares, as a replay of count keys with
// this seed would: what a rule's own tests drive its placer with.
func statesOf(t *testing.T, seed uint64, count int, nodes []timeline.NodeSpec, replicas int, steps ...timeline.Step) (*placer.Env, []timeline.State) {
	t.Helper()
	tl, errs := timeline.NewTimeline(seed, nodes, replicas, steps)
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	e := &placer.Env{Keys: keys.NewKeySet(keys.KeySpec{Count: count}, seed), Nodes: tl.Nodes, Labels: tl.Labels}
	return e, tl.States
}

// named returns nodes of weight 1 with these names.
func named(ns ...string) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, len(ns))
	for i, n := range ns {
		out[i] = timeline.NodeSpec{Name: n, Weight: 1}
	}
	return out
}

// assignAt returns p's lists at step i of states, p having seen every
// step up to it.
func assignAt(p placer.Placer, e *placer.Env, states []timeline.State, i int) [][]timeline.NodeID {
	for s := 0; s <= i; s++ {
		p.Update(&states[s])
	}
	lists := make([][]timeline.NodeID, states[i].Replicas)
	for k := range lists {
		lists[k] = make([]timeline.NodeID, e.Keys.Len())
	}
	p.Assign(lists)
	return lists
}
