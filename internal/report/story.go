package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file tells a run's story in words: one sentence per step that says
// what happened and what it cost, and the split of the whole run into
// membership changes and reconfigurations. Every sentence is computed from
// the replay's counts, so that it is exactly true of the numbers shown
// beside it.

// Membership reports whether op is a membership change: a step that adds,
// removes, fails or recovers nodes, so that the set of live nodes changes.
// Every other step after the start (points per node, replicas, weights,
// partitions, shards) is a reconfiguration: the same live nodes, placed
// under changed parameters. Both terms are defined once, here, and in
// SCHEMA.md's "Membership changes and reconfigurations".
func Membership(op timeline.Op) bool {
	switch op {
	case timeline.OpAdd, timeline.OpRemove, timeline.OpFail, timeline.OpRecover:
		return true
	}
	return false
}

// maxStoryRules is the most rules a step's sentence names one by one;
// with more it names the rules that moved the fewest and the most keys,
// and the ones that return to an earlier placement.
const maxStoryRules = 4

// stepStory is the sentence of step i: what the step is, what every rule
// moved (and, with replicas, copied), which placements recur, and after a
// reconfiguration how even the loads are.
func stepStory(res *sim.Result, i int, sec *StepSection) string {
	st := &res.Timeline.States[i]
	if i == 0 {
		return fmt.Sprintf("The starting cluster: %s; %s",
			plural(st.Live(), "live node", "live nodes"), deviationClause(sec.Rows))
	}
	kind := "Reconfiguration"
	if Membership(st.Op) {
		kind = "Membership change"
	}
	s := kind + ": " + movesClause(sec) + "."
	if !Membership(st.Op) {
		s += " Afterwards " + deviationClause(sec.Rows)
	}
	return s
}

// deviationClause says how far the node furthest from its fair share is
// off under every rule (or, with many rules, the most and least even),
// ending the sentence.
func deviationClause(rows []StepRow) string {
	if len(rows) <= maxStoryRules {
		parts := make([]string, len(rows))
		for i, r := range rows {
			parts[i] = pct(r.WorstDeviation) + " under " + r.Label
		}
		return "the node furthest from its fair share is off by " + list(parts) + "."
	}
	lo, hi := extremes(rows, func(r StepRow) float64 { return r.WorstDeviation })
	return fmt.Sprintf("the node furthest from its fair share is off by %s under %s, the most even of %d rules, and by %s under %s, the least even.",
		pct(rows[lo].WorstDeviation), rows[lo].Label, len(rows), pct(rows[hi].WorstDeviation), rows[hi].Label)
}

// movesClause says what each rule did at a step, rule by rule, or with
// many rules the fewest and most keys moved and the recurrences.
func movesClause(sec *StepSection) string {
	rows := sec.Rows
	if len(rows) <= maxStoryRules {
		parts := make([]string, len(rows))
		for i := range rows {
			parts[i] = ruleMove(sec, &rows[i])
		}
		return strings.Join(parts, "; ")
	}
	lo, hi := extremes(rows, func(r StepRow) int { return r.Moved })
	s := fmt.Sprintf("of %d rules %s moves the fewest keys, %s, and %s the most, %s",
		len(rows), rows[lo].Label, movedCount(sec, &rows[lo]), rows[hi].Label, movedCount(sec, &rows[hi]))
	if lo == hi {
		s = fmt.Sprintf("all %d rules move %s", len(rows), movedCount(sec, &rows[lo]))
	}
	if r := recurring(rows); r != "" {
		s += "; " + r
	}
	return s
}

// ruleMove is one rule's part of a step's sentence: "ring moves 167 keys
// (18.6%)", "ring returns to the placement of step 1, moving 150 keys
// (16.7%)", "modulo moves no keys".
func ruleMove(sec *StepSection, r *StepRow) string {
	switch n, ok := recursTo(r); {
	case r.Moved == 0:
		return r.Label + " moves no keys" + copiesNote(sec, r, false)
	case ok:
		return fmt.Sprintf("%s returns to the placement of step %d, moving %s%s", r.Label, n, movedKeys(sec, r), copiesNote(sec, r, true))
	}
	return r.Label + " moves " + movedCount(sec, r)
}

// movedKeys is "167 keys (18.6%)", with request counts "167 keys
// (18.6%) carrying 30.2% of the requests".
func movedKeys(sec *StepSection, r *StepRow) string {
	s := plural(r.Moved, "key", "keys") + " (" + pct(r.MovedFraction) + ")"
	if sec.Requests != nil {
		for _, q := range sec.Requests.Rows {
			if q.Label == r.Label {
				s += " carrying " + pct(q.MovedFraction) + " of the requests"
			}
		}
	}
	return s
}

// movedCount is movedKeys with copiesNote.
func movedCount(sec *StepSection, r *StepRow) string {
	return movedKeys(sec, r) + copiesNote(sec, r, false)
}

// copiesNote adds a step's replica copies, when replicas apply ("and
// makes 246 replica copies", or with participle ", making …"; a change
// of replica sets that needs no copy is said so), and the keys that no
// live node holds, when there are any.
func copiesNote(sec *StepSection, r *StepRow, participle bool) string {
	and, makes, changes := " and ", "makes ", "changes "
	if participle {
		and, makes, changes = ", ", "making ", "changing "
	}
	var s string
	switch {
	case !sec.ShowReplicas:
	case r.Copies > 0:
		s = and + makes + plural(r.Copies, "replica copy", "replica copies")
	case r.ReplicaMoved > 0:
		s = and + changes + "the replica sets of " + plural(r.ReplicaMoved, "key", "keys") + " without a copy"
	}
	if r.Unavailable > 0 {
		s += ", leaving " + plural(r.Unavailable, "key", "keys") + " unavailable"
	}
	return s
}

// recursTo returns the earlier step whose placement a row repeats.
func recursTo(r *StepRow) (int, bool) { return r.RecursTo, r.RecursTo >= 0 }

// recurring names the rules that return to an earlier placement at a
// step, grouped by the step they return to: "ring and jump return to the
// placement of step 1".
func recurring(rows []StepRow) string {
	var parts []string
	var done []int
	for _, r := range rows {
		to, ok := recursTo(&r)
		if !ok || slices.Contains(done, to) {
			continue
		}
		done = append(done, to)
		var names []string
		for _, o := range rows {
			if o.RecursTo == to {
				names = append(names, o.Label)
			}
		}
		verb := " returns"
		if len(names) > 1 {
			verb = " return"
		}
		parts = append(parts, list(names)+verb+" to the placement of step "+strconv.Itoa(to))
	}
	return strings.Join(parts, "; ")
}
