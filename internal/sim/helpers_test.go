package sim

import (
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
)

func names(ns ...string) []NodeSpec {
	out := make([]NodeSpec, len(ns))
	for i, n := range ns {
		out[i] = NodeSpec{Name: n, Weight: 1}
	}
	return out
}

func nodeNames(n int) []NodeSpec {
	out := make([]NodeSpec, n)
	for i := range out {
		out[i] = NodeSpec{Name: "node-" + strconv.Itoa(i+1), Weight: 1}
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
func ownersAt(res *Result, r, i int) []NodeID {
	e := res.env()
	return replayTo(res.Rules[r].Spec, e, res.Timeline, i)[0]
}

func add(n ...string) Step      { return Step{Op: OpAdd, Nodes: names(n...)} }
func remove(n ...string) Step   { return Step{Op: OpRemove, Nodes: names(n...)} }
func fail(n ...string) Step     { return Step{Op: OpFail, Nodes: names(n...)} }
func recover_(n ...string) Step { return Step{Op: OpRecover, Nodes: names(n...)} }

// The -update flag exists in every test binary so that
// `go test ./... -update` works; sim has no golden files of its own.
var _ = golden.Update
