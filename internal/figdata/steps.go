package figdata

import (
	"cmp"
	"slices"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file picks the steps a report shows in full. A step in full is a
// section of report.md and of the page and a wheel and a strip per rule,
// about 90 KB of figures a rule: ten thousand steps of them would write
// gigabytes that nobody reads. So past DetailedSteps steps the pipeline
// draws step figures, and the report writes sections, for the steps a
// reader needs only (internal/report says which and why, and gives every
// step's key numbers in one table); the cost model (internal/cost)
// counts figures for that many steps.

// DetailedSteps is the most steps after the start that a report shows in
// full. A run of at most DetailedSteps steps is shown step by step; a
// longer one shows the start and DetailedSteps of its steps (ShownSteps).
const DetailedSteps = 100

// Reason is why ShownSteps picked a step, in the order it picks by.
type Reason int

const (
	// ShowAll: the run has at most DetailedSteps steps.
	ShowAll Reason = iota
	// ShowStart, ShowFirst and ShowLast: step 0, step 1 and the last.
	ShowStart
	ShowFirst
	ShowLast
	// ShowNamed: an expectation names the step.
	ShowNamed
	// ShowFails: an expectation fails first at the step.
	ShowFails
	// ShowLargest: among the rule's largest moves (Pick.Rule).
	ShowLargest
	// ShowProbe: a probe key's first owner changes under some rule.
	ShowProbe
)

// Pick is one step shown in full and why.
type Pick struct {
	Step   int
	Reason Reason
	// Rule is the rule index of ShowLargest, else -1.
	Rule int
}

// ShownSteps picks the steps of res that a report shows in full, in
// ascending step order: every step in a run of at most DetailedSteps
// steps after the start; otherwise, until the start and DetailedSteps
// steps are picked, the start, the first and the last step, the steps an
// expectation names and the step where each failed expectation fails
// first, and then, taking turns, each rule's steps by keys moved (the
// most first, the earlier of a tie) and the steps at which a probe key's
// first owner changes under some rule (the earliest first). A step
// counts under the first reason that picks it.
func ShownSteps(res *sim.Result) []Pick {
	states := len(res.Timeline.States)
	if states-1 <= DetailedSteps {
		all := make([]Pick, states)
		for i := range all {
			all[i] = Pick{Step: i, Reason: ShowAll, Rule: -1}
		}
		return all
	}
	p := picker{picked: map[int]Pick{}, limit: DetailedSteps + 1}
	p.add(Pick{0, ShowStart, -1})
	p.add(Pick{1, ShowFirst, -1})
	p.add(Pick{states - 1, ShowLast, -1})
	outcomes := res.Check()
	for _, o := range outcomes {
		if e := o.Expectation; e.Step >= 0 && e.Step < states {
			p.add(Pick{e.Step, ShowNamed, -1})
		}
	}
	for _, o := range outcomes {
		if o.Failed > 0 && o.Step >= 0 && o.Step < states {
			p.add(Pick{o.Step, ShowFails, -1})
		}
	}
	var queues [][]Pick
	for r := range res.Rules {
		queues = append(queues, largestMoves(res, r))
	}
	p.takeTurns(append(queues, probeChanges(res)))
	return p.sorted()
}

// StepsOf is the steps of picks.
func StepsOf(picks []Pick) []int {
	steps := make([]int, len(picks))
	for i, p := range picks {
		steps[i] = p.Step
	}
	return steps
}

// picker collects picks up to a limit, one per step.
type picker struct {
	picked map[int]Pick
	limit  int
}

// add picks p unless its step is picked already or the limit is
// reached; it reports whether the limit leaves room for more.
func (p *picker) add(pick Pick) bool {
	if len(p.picked) >= p.limit {
		return false
	}
	if _, ok := p.picked[pick.Step]; !ok {
		p.picked[pick.Step] = pick
	}
	return len(p.picked) < p.limit
}

// takeTurns picks the next unpicked step of each queue in turn until
// every queue is empty or the limit is reached.
func (p *picker) takeTurns(queues [][]Pick) {
	for more := true; more; {
		more = false
		for q := range queues {
			for len(queues[q]) > 0 {
				next := queues[q][0]
				queues[q] = queues[q][1:]
				if _, ok := p.picked[next.Step]; !ok {
					if !p.add(next) {
						return
					}
					break
				}
			}
			more = more || len(queues[q]) > 0
		}
	}
}

// sorted returns the picks in step order.
func (p *picker) sorted() []Pick {
	out := make([]Pick, 0, len(p.picked))
	for _, pick := range p.picked {
		out = append(out, pick)
	}
	slices.SortFunc(out, func(a, b Pick) int { return cmp.Compare(a.Step, b.Step) })
	return out
}

// largestMoves lists rule r's steps after the start that moved keys, the
// most keys first, the earlier step of a tie first.
func largestMoves(res *sim.Result, r int) []Pick {
	rs := res.Rules[r].Steps
	var out []Pick
	for i := 1; i < len(rs); i++ {
		if rs[i].Moved > 0 {
			out = append(out, Pick{i, ShowLargest, r})
		}
	}
	slices.SortFunc(out, func(a, b Pick) int {
		return cmp.Or(cmp.Compare(rs[b.Step].Moved, rs[a.Step].Moved), cmp.Compare(a.Step, b.Step))
	})
	return out
}

// probeChanges lists the steps at which some probe key's first owner
// changes under some rule, ascending.
func probeChanges(res *sim.Result) []Pick {
	var out []Pick
	for i := 1; i < len(res.Timeline.States); i++ {
		if probeChanged(res, i) {
			out = append(out, Pick{i, ShowProbe, -1})
		}
	}
	return out
}

// probeChanged reports whether some probe's first owner differs at step i
// from step i−1 under some rule.
func probeChanged(res *sim.Result, i int) bool {
	for _, rr := range res.Rules {
		prev, cur := rr.Steps[i-1].Probes, rr.Steps[i].Probes
		for p := range cur {
			if p < len(prev) && first(prev[p]) != first(cur[p]) {
				return true
			}
		}
	}
	return false
}

// first is a probe's first owner, or timeline.NoNode.
func first(p sim.Probe) timeline.NodeID {
	if len(p.Owners) == 0 {
		return timeline.NoNode
	}
	return p.Owners[0]
}
