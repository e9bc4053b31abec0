package report

import (
	"cmp"
	"slices"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/sim"
)

// This file says which steps a report shows in full and why. Past
// figdata.DetailedSteps steps the report gives sections (and the
// pipeline draws step figures) for the steps figdata.ShownSteps picks
// only, lists them by reason above the table of keys moved at each step,
// and gives every step a line of that table; data.json and steps.csv keep
// every number of every step.

// StepChoice is which steps a report shows in full, and why.
type StepChoice struct {
	// Steps is the run's number of steps after the start, and Limit
	// figdata.DetailedSteps.
	Steps, Limit int
	// Shown are the steps shown in full, ascending: every step, or the
	// start and at most Limit more.
	Shown []int
	// All reports that every step is shown in full.
	All bool
	// Reasons group the steps of Shown by why they were picked, in the
	// order figdata.ShownSteps picks by; nil when All.
	Reasons []ShownReason
}

// ShownReason is one reason for showing steps in full, and its steps.
type ShownReason struct {
	// Why says why, e.g. "the largest moves under ring".
	Why string
	// Steps are its steps, ascending, and Text the same in words,
	// "steps 4–6, 9".
	Steps []int
	Text  string
}

// stepChoice describes in words the steps figdata.ShownSteps picks.
func stepChoice(res *sim.Result) StepChoice {
	picks := figdata.ShownSteps(res)
	c := StepChoice{Steps: len(res.Timeline.States) - 1, Limit: figdata.DetailedSteps, Shown: figdata.StepsOf(picks)}
	c.All = len(picks) == len(res.Timeline.States)
	if c.All {
		return c
	}
	type key struct {
		reason figdata.Reason
		rule   int
	}
	var order []key
	steps := map[key][]int{}
	for _, p := range picks {
		k := key{p.Reason, p.Rule}
		if _, ok := steps[k]; !ok {
			order = append(order, k)
		}
		steps[k] = append(steps[k], p.Step)
	}
	slices.SortFunc(order, func(a, b key) int { return cmp.Or(cmp.Compare(a.reason, b.reason), cmp.Compare(a.rule, b.rule)) })
	for _, k := range order {
		c.Reasons = append(c.Reasons, ShownReason{Why: whyShown(res, k.reason, k.rule), Steps: steps[k], Text: stepsText(steps[k])})
	}
	return c
}

// whyShown says why figdata picked a step.
func whyShown(res *sim.Result, r figdata.Reason, rule int) string {
	switch r {
	case figdata.ShowStart:
		return "the starting cluster"
	case figdata.ShowFirst:
		return "the first change"
	case figdata.ShowLast:
		return "the last step"
	case figdata.ShowNamed:
		return "named by an expectation"
	case figdata.ShowFails:
		return "where an expectation fails first"
	case figdata.ShowLargest:
		return "the largest moves under " + res.Rules[rule].Spec.Label
	case figdata.ShowProbe:
		return "where a probe key changes owner"
	}
	return "every step"
}

// overview is one line per timeline state for the table of keys moved
// at each step; shown are the steps with sections.
func overview(res *sim.Result, shown []int) []StepLine {
	lines := make([]StepLine, len(res.Timeline.States))
	for _, i := range shown {
		lines[i].Shown = true
	}
	for i := range lines {
		l := &lines[i]
		l.Step, l.Change = i, change(res, i)
		l.Cells = make([]StepCell, len(res.Rules))
		for r, rr := range res.Rules {
			l.Cells[r] = StepCell{Moved: rr.Steps[i].Moved, MovedFraction: ratio(rr.Steps[i].Moved, res.Keys.Len()),
				WorstDeviation: res.Balance(r, i).WorstDeviation}
		}
	}
	return lines
}
