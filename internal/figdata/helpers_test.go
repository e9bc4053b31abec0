package figdata

import (
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

func nodeNames(n int) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, n)
	for i := range out {
		out[i] = timeline.NodeSpec{Name: "node-" + strconv.Itoa(i+1), Weight: 1}
	}
	return out
}

func mustReplay(t testing.TB, s *sim.Scenario) *sim.Result {
	t.Helper()
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// env is what the placers of res's replay shared.
func env(res *sim.Result) *placer.Env {
	return &placer.Env{Keys: res.Keys, Nodes: res.Timeline.Nodes, Labels: res.Timeline.Labels}
}

// ownersAt recomputes the primary owners of rule r at step i from
// scratch, through a fresh placer.
func ownersAt(t testing.TB, res *sim.Result, r, i int) []timeline.NodeID {
	t.Helper()
	p, err := registry.NewPlacer(res.Rules[r].Spec, env(res))
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j <= i; j++ {
		p.Update(&res.Timeline.States[j])
	}
	lists := placer.MakeLists(max(res.Timeline.States[i].Replicas, 1), res.Keys.Len())
	p.Assign(lists)
	return lists[0]
}

func steps(op timeline.Op, n ...string) timeline.Step {
	ns := make([]timeline.NodeSpec, len(n))
	for i, name := range n {
		ns[i] = timeline.NodeSpec{Name: name, Weight: 1}
	}
	return timeline.Step{Op: op, Nodes: ns}
}

func add(n ...string) timeline.Step      { return steps(timeline.OpAdd, n...) }
func remove(n ...string) timeline.Step   { return steps(timeline.OpRemove, n...) }
func fail(n ...string) timeline.Step     { return steps(timeline.OpFail, n...) }
func recover_(n ...string) timeline.Step { return steps(timeline.OpRecover, n...) }
