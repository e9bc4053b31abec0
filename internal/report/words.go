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
	switch {
	case sr.Recurs < 0:
		return ""
	case sr.Moved == 0:
		return "unchanged; same as step " + strconv.Itoa(sr.Recurs)
	}
	return "returns to the placement of step " + strconv.Itoa(sr.Recurs)
}

// recurrences lists the steps whose placement repeats an earlier step's,
// grouping consecutive steps that repeat the same one: "steps 4–9 repeat
// step 3; step 12 repeats step 0".
func recurrences(steps []sim.StepResult) string {
	var parts []string
	for i := 0; i < len(steps); i++ {
		to := steps[i].Recurs
		if to < 0 {
			continue
		}
		j := i
		for j+1 < len(steps) && steps[j+1].Recurs == to {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprintf("step %d repeats step %d", i, to))
		} else {
			parts = append(parts, fmt.Sprintf("steps %d–%d repeat step %d", i, j, to))
		}
		i = j
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, "; ")
}

// comparison compares the rules' total moves in a sentence, relative to
// the rule that moved the fewest keys, then their balance at the end.
func comparison(res *sim.Result, rows []SummaryRow) string {
	changes := len(res.Timeline.States) - 1
	if changes == 0 {
		return "The scenario makes no changes after the starting cluster, so no keys move."
	}
	best := 0
	for i, r := range rows {
		if r.TotalMoved < rows[best].TotalMoved {
			best = i
		}
	}
	return movedSentence(rows, best, changes) + " " + balanceSentence(rows)
}

// movedSentence gives every rule's total moves in one sentence, each
// compared with the rule that moved fewest (rows[best]): "Over 13 changes
// ring moved 3,658 keys and modulo 6,974 (1.91× as many as ring)."
func movedSentence(rows []SummaryRow, best, changes int) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		verb := " "
		if i == 0 {
			verb = " moved "
		}
		parts[i] = r.Label + verb + movedPhrase(rows, i, best)
	}
	return fmt.Sprintf("Over %s %s.", plural(changes, "change", "changes"), list(parts))
}

// movedPhrase is "3,114 keys" for the first rule, a bare count for the
// others, with the ratio to the rule that moved fewest: "8,102 (2.60× as
// many as ring)".
func movedPhrase(rows []SummaryRow, i, best int) string {
	n := rows[i].TotalMoved
	s := count(n)
	if i == 0 {
		s = plural(n, "key", "keys")
	}
	b := rows[best]
	switch {
	case len(rows) == 1:
		return s + " (" + fixed(2, rows[i].TimesK) + " × K" + optimumClause(rows[i]) + ")"
	case i == best || b.TotalMoved == 0:
		return s
	case n == b.TotalMoved:
		return s + " (as many as " + b.Label + ")"
	}
	return s + " (" + times(ratio(n, b.TotalMoved)) + " as many as " + b.Label + ")"
}

// optimumClause compares a rule's moves at the membership changes with
// their optimum: "; at the 8 membership changes 1.02× their optimum", or
// "" when there is no optimum to compare with.
func optimumClause(row SummaryRow) string {
	if row.TotalOptimum == 0 {
		return ""
	}
	their := "their"
	if row.Changes == 1 {
		their = "its"
	}
	return "; at the " + plural(row.Changes, "membership change", "membership changes") + " " + times(row.OptimumRatio) + " " + their + " optimum"
}

// balanceSentence gives every rule's worst deviation at the last step.
func balanceSentence(rows []SummaryRow) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = pct(r.WorstDeviation) + " under " + r.Label
	}
	return "At the last step the node furthest from its fair share is off by " + list(parts) + "."
}
