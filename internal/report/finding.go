package report

import "fmt"

// maxFindingRules is the most rules a finding names one by one; with more
// it names the rules that moved the fewest and the most keys.
const maxFindingRules = 3

// Finding returns a one-sentence summary of a report for a gallery or an
// index: how many keys each rule moved in total, relative to the rule
// that moved the fewest, e.g. "Over 13 changes ring moved 3,658 keys and
// modulo 6,974 (1.91× as many as ring)." With more than three rules it
// names only the rules that moved the fewest and the most keys. It is
// plain text: escape it for Markdown or HTML. r must come from Build.
func Finding(r *Report) string {
	changes := r.Setup.Changes
	rows := r.Summary
	if changes == 0 || len(rows) == 0 {
		return "The scenario makes no changes after the starting cluster, so no keys move."
	}
	best, worst := 0, 0
	for i, row := range rows {
		if row.TotalMoved < rows[best].TotalMoved {
			best = i
		}
		if row.TotalMoved > rows[worst].TotalMoved {
			worst = i
		}
	}
	if len(rows) <= maxFindingRules || best == worst {
		return movedSentence(rows, best, changes)
	}
	b, w := rows[best], rows[worst]
	return fmt.Sprintf("Over %s %s moved the fewest keys of %d rules (%s) and %s the most (%s, %s as many).",
		plural(changes, "change", "changes"), b.Label, len(rows), count(b.TotalMoved),
		w.Label, count(w.TotalMoved), times(ratio(w.TotalMoved, b.TotalMoved)))
}
