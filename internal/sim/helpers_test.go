package sim

import (
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/timeline"
)

func names(ns ...string) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, len(ns))
	for i, n := range ns {
		out[i] = timeline.NodeSpec{Name: n, Weight: 1}
	}
	return out
}

func nodeNames(n int) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, n)
	for i := range out {
		out[i] = timeline.NodeSpec{Name: "node-" + strconv.Itoa(i+1), Weight: 1}
	}
	return out
}

func sequentialKeys(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "key-" + strconv.Itoa(i+1)
	}
	return out
}

func mustReplay(t testing.TB, s *Scenario) *Result {
	t.Helper()
	if s.Replicas == 0 {
		s.Replicas = 1
	}
	res, err := Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// ownersAt recomputes the primary owners of rule r at step i from
// scratch, for tests that compare whole assignments.
func ownersAt(res *Result, r, i int) []timeline.NodeID {
	e := res.env()
	return replayTo(res.Rules[r].Spec, e, res.Timeline, i)[0]
}

func add(n ...string) timeline.Step { return timeline.Step{Op: timeline.OpAdd, Nodes: names(n...)} }
func remove(n ...string) timeline.Step {
	return timeline.Step{Op: timeline.OpRemove, Nodes: names(n...)}
}
func fail(n ...string) timeline.Step { return timeline.Step{Op: timeline.OpFail, Nodes: names(n...)} }
func recover_(n ...string) timeline.Step {
	return timeline.Step{Op: timeline.OpRecover, Nodes: names(n...)}
}

// The -update flag exists in every test binary so that
// `go test ./... -update` works; sim has no golden files of its own.
var _ = golden.Update
