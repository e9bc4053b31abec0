package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file computes the Summary's split of the moves into membership
// changes and reconfigurations, and the recommendation table: for each
// kind of change the scenario makes, and for balance, the rule its own
// numbers favour, or none where they do not separate the rules.

// Separation is how much better a rule's number must be than every other
// rule's for a recommendation to name it: the named rules' figures are at
// most 1/Separation of the best figure outside them (keys moved, or worst
// deviation), that is more than 10% lower. Rules whose figures lie within
// Separation of the lowest are named together; when that is every rule,
// the row names none.
const Separation = 1.1

// Choice is one row of the recommendation table.
type Choice struct {
	// For says what the row is about, e.g. "adding nodes (steps 1, 3)".
	For string
	// Metric says what was measured, e.g. "keys moved in those steps".
	Metric string
	// Best are the labels of the rules the numbers favour, lowest figure
	// first (ties in scenario order); empty when the numbers do not
	// separate the rules.
	Best []string
	// Measured gives every rule's figure, lowest first, with its
	// multiple of the lowest: "ring 460 · modulo 3,100 (6.74×)".
	Measured string
}

// choiceGroup is a kind of step that the recommendation table weighs.
type choiceGroup struct {
	what string
	ops  []timeline.Op
}

// choiceGroups are the rows about moves, in table order; a scenario gets
// the rows of the kinds of step it has. Every op after the start is in
// exactly one group.
var choiceGroups = []choiceGroup{
	{"adding nodes", []timeline.Op{timeline.OpAdd}},
	{"removing nodes", []timeline.Op{timeline.OpRemove}},
	{"failures and recoveries", []timeline.Op{timeline.OpFail, timeline.OpRecover}},
	{"reconfigurations", []timeline.Op{timeline.OpVNodes, timeline.OpReplicas, timeline.OpWeight, timeline.OpPartitions, timeline.OpShards}},
}

// choices computes the recommendation table, or nil with a single rule
// (there is nothing to choose between).
func choices(res *sim.Result, sum []SummaryRow) []Choice {
	if len(res.Rules) < 2 {
		return nil
	}
	var out []Choice
	for _, g := range choiceGroups {
		var steps []int
		for i, st := range res.Timeline.States {
			if i > 0 && slices.Contains(g.ops, st.Op) {
				steps = append(steps, i)
			}
		}
		if len(steps) == 0 {
			continue
		}
		vals := make([]float64, len(res.Rules))
		for r, rr := range res.Rules {
			for _, i := range steps {
				vals[r] += float64(rr.Steps[i].Moved)
			}
		}
		c := choose(labels(sum), vals, count0)
		c.For = g.what + " (" + stepRanges(steps) + ")"
		c.Metric = "keys moved in those steps"
		out = append(out, c)
	}
	last := len(res.Timeline.States) - 1
	dev := make([]float64, len(sum))
	for r, row := range sum {
		dev[r] = row.WorstDeviation
	}
	c := choose(labels(sum), dev, pct)
	c.For, c.Metric = "balance", "worst deviation from the fair share at the end (step "+strconv.Itoa(last)+")"
	out = append(out, c)
	if res.Keys.Weight != nil {
		for r := range dev {
			b, _ := res.RequestBalance(r, last)
			dev[r] = b.WorstDeviation
		}
		c := choose(labels(sum), dev, pct)
		c.For, c.Metric = "request balance", "request worst deviation at the end (step "+strconv.Itoa(last)+")"
		out = append(out, c)
	}
	return out
}

// count0 formats a whole-number figure held in a float64.
func count0(x float64) string { return count(int(x)) }

// labels are the rules' labels in scenario order.
func labels(sum []SummaryRow) []string {
	out := make([]string, len(sum))
	for i, r := range sum {
		out[i] = r.Label
	}
	return out
}

// choose names the rules whose vals (lower is better) are within
// Separation of the lowest, when that leaves another rule out, and lists
// every value lowest first.
func choose(names []string, vals []float64, format func(float64) string) Choice {
	order := make([]int, len(vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(vals[a], vals[b]) })
	lo := vals[order[0]]
	var c Choice
	var parts []string
	for _, i := range order {
		s := names[i] + " " + format(vals[i])
		if lo > 0 && vals[i] != lo {
			s += " (" + times(vals[i]/lo) + ")"
		}
		parts = append(parts, s)
	}
	c.Measured = strings.Join(parts, " · ")
	for _, i := range order {
		if within(vals[i], lo) {
			c.Best = append(c.Best, names[i])
		}
	}
	if len(c.Best) == len(names) {
		c.Best = nil
	}
	return c
}

// within reports whether v is within Separation of the lowest value lo.
func within(v, lo float64) bool {
	if lo == 0 {
		return v == 0
	}
	return v <= lo*Separation
}

// stepRanges writes increasing step numbers as "step 4" or "steps 1–3, 7,
// 9–12".
func stepRanges(steps []int) string {
	var parts []string
	for i := 0; i < len(steps); i++ {
		j := i
		for j+1 < len(steps) && steps[j+1] == steps[j]+1 {
			j++
		}
		switch {
		case i == j:
			parts = append(parts, strconv.Itoa(steps[i]))
		case j == i+1:
			parts = append(parts, strconv.Itoa(steps[i]), strconv.Itoa(steps[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", steps[i], steps[j]))
		}
		i = j
	}
	if len(steps) == 1 {
		return "step " + parts[0]
	}
	return "steps " + strings.Join(parts, ", ")
}

// splitSteps returns the steps after the start that are membership
// changes and those that are reconfigurations.
func splitSteps(res *sim.Result) (member, reconf []int) {
	for i, st := range res.Timeline.States {
		switch {
		case i == 0:
		case Membership(st.Op):
			member = append(member, i)
		default:
			reconf = append(reconf, i)
		}
	}
	return member, reconf
}

// sumMoved is rule r's keys moved over the given steps.
func sumMoved(res *sim.Result, r int, steps []int) int {
	n := 0
	for _, i := range steps {
		n += res.Rules[r].Steps[i].Moved
	}
	return n
}

// stepsText is stepRanges, or "" for no steps.
func stepsText(steps []int) string {
	if len(steps) == 0 {
		return ""
	}
	return stepRanges(steps)
}
