package figdata

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// longRun is n steps over ring and modulo that fail and recover the nodes
// in turn, with a heavy node joining at step 150, an expectation that
// names step 200 and one that fails first at step 150, and one probe.
func longRun(n int) *sim.Scenario {
	s := &sim.Scenario{Keys: keys.KeySpec{Count: 1000}, Nodes: nodeNames(10), Replicas: 1, Probes: []string{"p1"},
		Rules: []placer.RuleSpec{{Kind: "ring", Label: "ring", VNodes: 40}, {Kind: "modulo", Label: "modulo"}},
		Expect: []sim.Expectation{
			{Step: 200, Rule: "ring", Metric: "moved", Op: ">=", Value: 0},
			{Step: -1, Rule: "ring", Metric: "moved", Op: "<", Value: 200}, // fails first at step 150
		}}
	j := 0 // the fail / recover cycle, around step 150
	for i := 1; i <= n; i++ {
		if i == 150 {
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "heavy", Weight: 8}}})
			continue
		}
		name := fmt.Sprintf("node-%d", (j/2)%10+1)
		if j%2 == 0 {
			s.Steps = append(s.Steps, fail(name))
		} else {
			s.Steps = append(s.Steps, recover_(name))
		}
		j++
	}
	return s
}

// TestShownStepsShort: a run of at most DetailedSteps steps shows every
// step.
func TestShownStepsShort(t *testing.T) {
	res := mustReplay(t, longRun(DetailedSteps))
	picks := ShownSteps(res)
	if len(picks) != DetailedSteps+1 {
		t.Fatalf("%d picks of %d states", len(picks), DetailedSteps+1)
	}
	for i, p := range picks {
		if p.Step != i || p.Reason != ShowAll {
			t.Fatalf("pick %d = %+v, want step %d for ShowAll", i, p, i)
		}
	}
}

// TestShownStepsLong: past DetailedSteps, the start and DetailedSteps
// steps, ascending: the first, the last, the named and failing steps,
// each rule's largest moves and the earliest probe changes. The test
// fails if any of them is left out (each was left out once to see it).
func TestShownStepsLong(t *testing.T) {
	const n = 240
	res := mustReplay(t, longRun(n))
	picks := ShownSteps(res)
	if len(picks) != DetailedSteps+1 {
		t.Fatalf("%d picks, want %d", len(picks), DetailedSteps+1)
	}
	why := map[int]Pick{}
	for i, p := range picks {
		if i > 0 && p.Step <= picks[i-1].Step {
			t.Fatalf("picks not ascending at %d: %v", i, StepsOf(picks))
		}
		why[p.Step] = p
	}
	for step, want := range map[int]Reason{0: ShowStart, 1: ShowFirst, n: ShowLast, 200: ShowNamed, 150: ShowFails} {
		if got, ok := why[step]; !ok || got.Reason != want {
			t.Errorf("step %d: picked %v as %+v, want reason %d", step, ok, got, want)
		}
	}
	for r := range res.Rules {
		least := -1
		for _, p := range picks {
			if p.Reason == ShowLargest && p.Rule == r && (least < 0 || res.Rules[r].Steps[p.Step].Moved < least) {
				least = res.Rules[r].Steps[p.Step].Moved
			}
		}
		if least < 0 {
			t.Errorf("rule %d: no largest moves picked", r)
		}
		for i := 1; i <= n; i++ {
			if _, ok := why[i]; !ok && res.Rules[r].Steps[i].Moved > least {
				t.Errorf("rule %d: step %d moved %d, more than the %d of a picked largest move, and is not picked", r, i, res.Rules[r].Steps[i].Moved, least)
			}
		}
	}
	var probes []int
	for _, p := range picks {
		if p.Reason == ShowProbe {
			probes = append(probes, p.Step)
		}
	}
	if len(probes) == 0 {
		t.Fatal("no probe changes picked")
	}
	for i := 1; i <= slices.Max(probes); i++ {
		if _, ok := why[i]; probeChanged(res, i) && !ok {
			t.Errorf("step %d: the probe changes owner, before the last probe pick %d, and is not picked", i, slices.Max(probes))
		}
	}
}
