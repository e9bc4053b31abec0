package report

import "fmt"

// maxFindingRules is the most rules a finding names one by one; with more
// it names the rules that moved the fewest and the most keys.
const maxFindingRules = 3

// Finding returns a one-sentence summary of a report for a gallery or an
// index. With membership changes it gives the keys each rule moved in
// them (reconfigurations move keys for other reasons, and are left out),
// relative to the rule that moved the fewest: "Over 9 membership changes
// ring moved 1,158 keys and modulo 6,974 (6.02× as many as ring)." A run
// of reconfigurations only is about balance, and its finding says how
// the worst deviation from the fair share went from step 0 to the end.
// With more than three rules it names only the extremes. It is plain
// text: escape it for Markdown or HTML. r must come from Build.
func Finding(r *Report) string {
	rows := r.Summary
	switch {
	case r.Setup.Changes == 0 || len(rows) == 0:
		return "The scenario makes no changes after the starting cluster, so no keys move."
	case len(r.MemberSteps) == 0 && len(r.Steps) > 1:
		return balanceFinding(r)
	}
	over := "Over " + plural(len(r.MemberSteps), "membership change", "membership changes")
	moved := func(s SummaryRow) int { return s.MemberMoved }
	return movedSentence(rows, over, moved, maxFindingRules)
}

// balanceFinding says, for a run of reconfigurations only, how each rule's
// worst deviation went from step 0 to the last step; with more than
// maxFindingRules rules, for the rule whose deviation changed the most.
func balanceFinding(r *Report) string {
	first, last := r.Steps[0].Rows, r.Steps[len(r.Steps)-1].Rows
	over := "Over " + plural(len(r.ReconfSteps), "reconfiguration", "reconfigurations") +
		" the node furthest from its fair share goes from "
	span := func(i int) string {
		return pct(first[i].WorstDeviation) + " off to " + pct(last[i].WorstDeviation) + " under " + first[i].Label
	}
	if len(first) <= maxFindingRules {
		parts := make([]string, len(first))
		for i := range first {
			parts[i] = span(i)
			if i > 0 {
				parts[i] = "from " + parts[i]
			}
		}
		return over + list(parts) + "."
	}
	most := 0
	for i := range first {
		if devChange(first, last, i) > devChange(first, last, most) {
			most = i
		}
	}
	return fmt.Sprintf("%s%s, the largest change of %d rules.", over, span(most), len(first))
}

// devChange is how far rule i's worst deviation moved between two steps.
func devChange(first, last []StepRow, i int) float64 {
	d := last[i].WorstDeviation - first[i].WorstDeviation
	if d < 0 {
		return -d
	}
	return d
}

// KeyFigure is the one number a gallery card shows large, with what it
// measures in words.
type KeyFigure struct {
	// Value is the number as shown, e.g. "5.74×" or "139.9% → 4.5%".
	Value string
	// Label says what it is, e.g. "the keys modulo moved, as a multiple of
	// ring's, over 9 membership changes".
	Label string
}

// Key returns a report's key figure, the number behind its Finding: with
// membership changes and two or more rules, how many times the keys of
// the rule that moved the fewest the rule that moved the most moved in
// them; with reconfigurations only, the worst deviation from the fair
// share at step 0 and at the end under the rule whose deviation changed
// the most; with one rule, its total moves as a multiple of K. ok is
// false when there is no such number (no changes, or no rule moved a key
// in the membership changes).
func Key(r *Report) (k KeyFigure, ok bool) {
	rows := r.Summary
	switch {
	case r.Setup.Changes == 0 || len(rows) == 0 || len(r.Steps) < 2:
		return k, false
	case len(rows) == 1:
		return KeyFigure{Value: fixed(2, rows[0].TimesK) + " × K",
			Label: rows[0].Label + "'s keys moved over " + plural(r.Setup.Changes, "change", "changes") + ", as a multiple of the keys"}, true
	case len(r.MemberSteps) == 0:
		first, last := r.Steps[0].Rows, r.Steps[len(r.Steps)-1].Rows
		most := 0
		for i := range first {
			if devChange(first, last, i) > devChange(first, last, most) {
				most = i
			}
		}
		return KeyFigure{Value: pct(first[most].WorstDeviation) + " → " + pct(last[most].WorstDeviation),
			Label: "the worst deviation from the fair share under " + first[most].Label + ", at step 0 and after " +
				plural(len(r.ReconfSteps), "reconfiguration", "reconfigurations")}, true
	}
	best, worst := extremes(rows, func(r SummaryRow) int { return r.MemberMoved })
	b, w := rows[best], rows[worst]
	if b.MemberMoved == 0 || best == worst {
		return k, false
	}
	return KeyFigure{Value: times(ratio(w.MemberMoved, b.MemberMoved)),
		Label: "the keys " + w.Label + " moved, as a multiple of " + b.Label + "'s, over " +
			plural(len(r.MemberSteps), "membership change", "membership changes")}, true
}
