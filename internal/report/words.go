package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
)

// This file puts results into words: step headings, recurrences and the
// sentence that compares the rules. Everything here is plain text.

// change says what step i did, e.g. "remove d (random)", naming at most
// six nodes (the members list of each step names them all).
func change(res *sim.Result, i int) string { return text.Change(res, i, 6) }

// recurrence says whether a step's placement repeats an earlier one.
func recurrence(sr *sim.StepResult) string {
	if sr.Recurs < 0 {
		return ""
	}
	return recurrenceWords(sr.Recurs, sr.Moved)
}

// recurrenceWords says that a step which moved moved keys returns to
// the placement of step to.
func recurrenceWords(to, moved int) string {
	if moved == 0 {
		return "unchanged; same as step " + strconv.Itoa(to)
	}
	return "returns to the placement of step " + strconv.Itoa(to)
}

// maxRecurrences is the most groups recurrences names; a long run that
// keeps returning (a node failed and recovered ten thousand times) would
// otherwise put a line per return in one Summary cell.
const maxRecurrences = 12

// recurrences lists the steps whose placement repeats an earlier step's,
// grouping consecutive steps that repeat the same one: "steps 4–9 repeat
// step 3; step 12 repeats step 0"; past maxRecurrences groups, it counts
// the steps of the rest: "…; and 4,988 more steps repeat earlier ones".
func recurrences(steps []sim.StepResult) string {
	var parts []string
	rest := 0
	for i := 0; i < len(steps); i++ {
		to := steps[i].Recurs
		if to < 0 {
			continue
		}
		j := i
		for j+1 < len(steps) && steps[j+1].Recurs == to {
			j++
		}
		switch {
		case len(parts) == maxRecurrences:
			rest += j - i + 1
		case i == j:
			parts = append(parts, fmt.Sprintf("step %d repeats step %d", i, to))
		default:
			parts = append(parts, fmt.Sprintf("steps %d–%d repeat step %d", i, j, to))
		}
		i = j
	}
	if len(parts) == 0 {
		return "none"
	}
	if rest > 0 {
		parts = append(parts, "and "+plural(rest, "more step repeats an earlier one", "more steps repeat earlier ones"))
	}
	return strings.Join(parts, "; ")
}

// comparison compares the rules in words: the keys each moved in the
// membership changes and, separately, in the reconfigurations, each time
// relative to the rule that moved the fewest, then the balance at the end.
func comparison(res *sim.Result, r *Report) string {
	if len(res.Timeline.States) == 1 {
		return "The scenario makes no changes after the starting cluster, so no keys move."
	}
	var parts []string
	if n := len(r.MemberSteps); n > 0 {
		parts = append(parts, movedSentence(r.Summary, "Over the "+plural(n, "membership change", "membership changes")+" ("+r.MemberText+")",
			func(s SummaryRow) int { return s.MemberMoved }, maxStoryRules))
	}
	if n := len(r.ReconfSteps); n > 0 {
		parts = append(parts, movedSentence(r.Summary, "Over the "+plural(n, "reconfiguration", "reconfigurations")+" ("+r.ReconfText+")",
			func(s SummaryRow) int { return s.ReconfMoved }, maxStoryRules))
	}
	return strings.Join(parts, " ") + " " + balanceSentence(r.Summary)
}

// movedSentence gives every rule's moves (of moved) in one sentence after
// the opening over, each compared with the rule that moved fewest: "Over
// the 9 membership changes (steps 1–3, 7–12) ring moved 1,158 keys and
// modulo 6,974 (6.02× as many as ring)." With more than max rules that
// differ, it names only the rules that moved the fewest and the most.
func movedSentence(rows []SummaryRow, over string, moved func(SummaryRow) int, max int) string {
	best, worst := extremes(rows, moved)
	if len(rows) > max && best != worst {
		b, w := rows[best], rows[worst]
		s := fmt.Sprintf("%s %s moved the fewest keys of %d rules (%s) and %s the most (%s",
			over, b.Label, len(rows), count(moved(b)), w.Label, count(moved(w)))
		if moved(b) > 0 {
			s += ", " + times(ratio(moved(w), moved(b))) + " as many"
		}
		return s + ")."
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		verb := " "
		if i == 0 {
			verb = " moved "
		}
		parts[i] = r.Label + verb + movedPhrase(rows, i, best, moved)
	}
	return fmt.Sprintf("%s %s.", over, list(parts))
}

// movedPhrase is "3,114 keys" for the first rule, a bare count for the
// others, with the ratio to the rule that moved fewest: "8,102 (2.60× as
// many as ring)".
func movedPhrase(rows []SummaryRow, i, best int, moved func(SummaryRow) int) string {
	n := moved(rows[i])
	s := count(n)
	if i == 0 {
		s = plural(n, "key", "keys")
	}
	b := rows[best]
	switch {
	case len(rows) == 1:
		return s + " (" + fixed(2, rows[i].TimesK) + " × K" + optimumClause(rows[i]) + ")"
	case i == best || moved(b) == 0:
		return s
	case n == moved(b):
		return s + " (as many as " + b.Label + ")"
	}
	return s + " (" + times(ratio(n, moved(b))) + " as many as " + b.Label + ")"
}

// optimumClause compares a rule's moves at the membership changes with
// their optimum: "; at the 8 membership changes 1.02× their optimum", or
// "" when there is no optimum to compare with.
func optimumClause(row SummaryRow) string {
	if row.TotalOptimum == 0 {
		return ""
	}
	their := "their"
	if row.OptimumSteps == 1 {
		their = "its"
	}
	return "; at the " + plural(row.OptimumSteps, "step that changes a fair share", "steps that change a fair share") + " " + times(row.OptimumRatio) + " " + their + " optimum"
}

// balanceSentence gives every rule's worst deviation at the last step,
// or with more than maxStoryRules rules the most and the least even.
func balanceSentence(rows []SummaryRow) string {
	if len(rows) > maxStoryRules {
		steps := make([]StepRow, len(rows))
		for i, r := range rows {
			steps[i] = StepRow{Label: r.Label, WorstDeviation: r.WorstDeviation}
		}
		return "At the last step " + deviationClause(steps)
	}
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = pct(r.WorstDeviation) + " under " + r.Label
	}
	return "At the last step the node furthest from its fair share is off by " + list(parts) + "."
}

// extremes returns the indexes of the rows with the smallest and the
// largest value of by, the first of each on ties (0, 0 for no rows).
func extremes[R any, V int | float64](rows []R, by func(R) V) (lo, hi int) {
	for i, r := range rows {
		if by(r) < by(rows[lo]) {
			lo = i
		}
		if by(r) > by(rows[hi]) {
			hi = i
		}
	}
	return lo, hi
}
