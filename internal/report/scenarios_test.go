package report

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The scenarios of the golden tests, built in Go. Their golden files are
// testdata/golden/<Name>.{md,json,csv}.

// ringWalkthrough is the "Ring" walkthrough: 900 keys on five nodes, a
// ring with 160 points per node beside modulo, through adds, a random
// removal (seed 1 draws d), point-count changes, a failure and weights.
func ringWalkthrough() *sim.Scenario {
	return &sim.Scenario{
		Name:     "ring",
		Title:    "Ring: what a membership change costs",
		About:    "Consistent hashing moves about 1/n of the keys when a node joins; *modulo* moves almost all of them.\n\nThis walkthrough replays the same changes under both rules.",
		Seed:     1,
		Keys:     keys.KeySpec{Count: 900},
		Nodes:    names("a", "b", "c", "d", "e"),
		Rules:    []placer.RuleSpec{{Kind: "ring", VNodes: 160}, {Kind: "modulo"}},
		Replicas: 1,
		Steps: []timeline.Step{
			{Op: timeline.OpAdd, Nodes: names("f"), Note: "a sixth node joins"},
			{Op: timeline.OpRemove, Random: true},
			{Op: timeline.OpAdd, Nodes: names("d"), Note: "the removed node comes back"},
			{Op: timeline.OpVNodes, Value: 1},
			{Op: timeline.OpVNodes, Value: 16},
			{Op: timeline.OpVNodes, Value: 240},
			{Op: timeline.OpFail, Nodes: names("b")},
			{Op: timeline.OpRecover, Nodes: names("b")},
			{Op: timeline.OpVNodes, Value: 160, Note: "back to the starting point count"},
			{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 2}}},
			{Op: timeline.OpRemove, Nodes: names("f")},
			{Op: timeline.OpAdd, Nodes: names("g")},
			{Op: timeline.OpFail, Random: true},
		},
		Expect: []sim.Expectation{
			{Step: 1, Rule: "ring", Metric: "moved_fraction", Op: "<=", Value: 0.2, Text: "<= 0.2"},
			{Step: -1, Rule: "modulo", Metric: "moved_fraction", Op: "<", Value: 0.5, Text: "< 0.5"},
			{Step: 3, Rule: "ring", Metric: "recurs", Op: "==", Value: 1, Text: "1"},
		},
	}
}

// replicated keeps three copies of every key and follows two probe keys.
func replicated() *sim.Scenario {
	return &sim.Scenario{
		Name:     "replicas",
		Title:    "Three replicas on four nodes",
		Seed:     7,
		Keys:     keys.KeySpec{Count: 600, Prefix: "user:"},
		Nodes:    names("n1", "n2", "n3", "n4"),
		Rules:    []placer.RuleSpec{{Kind: "ring", Label: "ring-100", VNodes: 100}, {Kind: "modulo"}},
		Replicas: 3,
		Probes:   []string{"user:42", "session:7"},
		Steps: []timeline.Step{
			{Op: timeline.OpAdd, Nodes: names("n5")},
			{Op: timeline.OpFail, Nodes: names("n2", "n3")},
			{Op: timeline.OpRecover, All: true},
			{Op: timeline.OpReplicas, Value: 2},
			{Op: timeline.OpRemove, Nodes: names("n1")},
			{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "n6", Weight: 2}}},
			{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "n3", Weight: 3}}},
		},
	}
}

// testFigures stands in for svg.Figures, so that golden files do not
// change when the figures do: three whole-run figures and two for step 1.
func testFigures() []svg.Figure {
	return []svg.Figure{
		{Name: "history.svg", Kind: "history", Step: -1, Title: "Keys moved per step", Caption: "Bars count the keys each rule moved at each step."},
		{Name: "deviation.svg", Kind: "deviation", Step: -1, Title: "Worst deviation per step", Caption: "How far the worst node is from its fair share."},
		{Name: "balance.svg", Kind: "balance", Step: -1, Title: "cv per step", Caption: "The dashed line is the noise floor."},
		{Name: "step-1-rings.svg", Kind: "rings", Step: 1, Title: "Rings after step 1", Caption: "Each arc is owned by one node."},
		{Name: "step-1-strips.svg", Kind: "strips", Step: 1, Title: "Keys moved at step 1", Caption: "One cell per key; coloured cells moved."},
	}
}

func names(ns ...string) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, len(ns))
	for i, n := range ns {
		out[i] = timeline.NodeSpec{Name: n}
	}
	return out
}

// replay replays s or fails the test.
func replay(t *testing.T, s *sim.Scenario) *sim.Result {
	t.Helper()
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// stepSectionOf builds step i's section of res as Build does.
func stepSectionOf(res *sim.Result, i int) StepSection {
	return stepSection(res, i, newColumnGroups(res))
}
