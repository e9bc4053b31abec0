package sim

import (
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

// TestLabelSelectors checks steps that name their nodes by zone or rack:
// fail takes the live members that carry the labels, recover the failed
// ones, remove all of them, and a node keeps the labels it was given.
func TestLabelSelectors(t *testing.T) {
	node := func(name, zone, rack string) timeline.NodeSpec {
		return timeline.NodeSpec{Name: name, Weight: 1, Labels: timeline.Labels{Zone: zone, Rack: rack}}
	}
	s := &Scenario{Nodes: []timeline.NodeSpec{node("a1", "z1", "r1"), node("a2", "z1", "r2"), node("b1", "z2", "r1"), node("b2", "z2", "r2")},
		Steps: []timeline.Step{
			fail("a1"),
			{Op: timeline.OpFail, Where: timeline.Labels{Zone: "z1"}}, // a2 only: a1 has failed already
			{Op: timeline.OpRecover, Where: timeline.Labels{Zone: "z1"}},
			{Op: timeline.OpRemove, Where: timeline.Labels{Rack: "r2"}},
			{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{node("c1", "z3", "r1")}},
		}}
	tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	named := func(i int) []string {
		var out []string
		for _, id := range tl.States[i].Named {
			out = append(out, tl.Nodes[id])
		}
		return out
	}
	for i, want := range [][]string{nil, {"a1"}, {"a2"}, {"a1", "a2"}, {"a2", "b2"}, {"c1"}} {
		if got := named(i); !slices.Equal(got, want) {
			t.Errorf("step %d acts on %v, want %v", i, got, want)
		}
	}
	if l := tl.Labels[tl.States[5].Named[0]]; l.Zone != "z3" || l.Rack != "r1" {
		t.Errorf("c1's labels %v", l)
	}

	bad := &Scenario{Nodes: []timeline.NodeSpec{node("a1", "z1", "r1"), node("b1", "z2", "r1")},
		Steps: []timeline.Step{{Op: timeline.OpFail, Where: timeline.Labels{Zone: "z9"}}, remove("a1"), {Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{node("a1", "z2", "r1")}}}}
	_, errs = timeline.NewTimeline(bad.Seed, bad.Nodes, bad.Replicas, bad.Steps)
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	want := []string{`step 1: cannot fail the nodes zone "z9": no live member has those labels`,
		`step 3: node "a1" was labelled zone "z1", rack "r1"; a node keeps its labels`}
	if !slices.Equal(msgs, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}
