package report

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/prose"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Build turns a finished replay and its figures into the report model.
// res must come from sim.Replay. It fails when the result cannot be
// reported faithfully: no states, no rules, or two rules with one label.
func Build(res *sim.Result, figs []svg.Figure) (*Report, error) {
	if err := check(res); err != nil {
		return nil, err
	}
	s := res.Scenario
	r := &Report{
		Name:    s.Name,
		Title:   Title(s),
		About:   prose.Safe(s.About),
		Setup:   setup(res),
		Rules:   ruleInfos(res),
		Summary: summary(res),
	}
	r.MemberSteps, r.ReconfSteps = splitSteps(res)
	r.MemberText, r.ReconfText = stepsText(r.MemberSteps), stepsText(r.ReconfSteps)
	for i := range r.Summary {
		r.Summary[i].MemberMoved = sumMoved(res, i, r.MemberSteps)
		r.Summary[i].ReconfMoved = sumMoved(res, i, r.ReconfSteps)
	}
	r.Comparison = comparison(res, r)
	r.Choices = choices(res, r.Summary)
	r.Requests = requestSummary(res)
	r.Transfers = transferTable(res)
	for _, o := range res.Check() {
		r.Expectations = append(r.Expectations, ExpectationRow{
			What: text.Expectation(o.Expectation), Passed: o.Passed(), Verdict: text.Verdict(o)})
	}
	choice := stepChoice(res)
	groups := newColumnGroups(res)
	for _, i := range choice.Shown {
		r.Steps = append(r.Steps, stepSection(res, i, groups))
	}
	r.Overview = overview(res, choice.Shown)
	if !choice.All {
		r.Detail = &choice
	}
	r.Probes = probeTable(res, choice.Shown)
	r.Migrations = migrationTables(res, choice.Shown)
	placeFigures(r, figs)
	r.Guide = guide(r.Steps)
	return r, nil
}

// check rejects results that the renderers cannot report faithfully.
func check(res *sim.Result) error {
	switch {
	case res == nil || res.Scenario == nil || res.Timeline == nil || res.Keys == nil:
		return errors.New("incomplete replay result")
	case len(res.Timeline.States) == 0:
		return errors.New("replay result has no steps")
	case len(res.Rules) == 0:
		return errors.New("replay result has no rules")
	}
	seen := map[string]bool{}
	for _, rr := range res.Rules {
		if seen[rr.Spec.Label] {
			return fmt.Errorf("two rules are labelled %q", rr.Spec.Label)
		}
		seen[rr.Spec.Label] = true
		if len(rr.Steps) != len(res.Timeline.States) {
			return fmt.Errorf("rule %q has %d steps, the timeline %d", rr.Spec.Label, len(rr.Steps), len(res.Timeline.States))
		}
	}
	return nil
}

// setup describes the scenario's inputs.
func setup(res *sim.Result) Setup {
	s := res.Scenario
	st := &res.Timeline.States[0]
	return Setup{
		Keys:      res.Keys.Len(),
		KeySource: keySource(res),
		Requests:  requestSource(res),
		Seed:      s.Seed,
		Nodes:     memberList(res, st, true),
		NodeCount: len(st.Members),
		Weights:   weightsText(st),
		Replicas:  st.Replicas,
		Changes:   len(res.Timeline.States) - 1,
	}
}

// keySource says how the keys were made, with one example key.
func keySource(res *sim.Result) string {
	ks := res.Scenario.Keys
	example := ""
	if res.Keys.Len() > 0 {
		example = ", such as " + shownKey(res.Keys.Name(0))
	}
	if ks.List != nil {
		return "read from a keys file" + example
	}
	prefix := ks.Prefix
	if prefix == "" {
		prefix = keys.DefaultKeyPrefix
	}
	return fmt.Sprintf("generated from seed %d as %q followed by a number%s", res.Scenario.Seed, prefix, example)
}

// MaxKeyShown is the most bytes of a key that the report prints; data.json
// and the CSV files carry keys whole.
const MaxKeyShown = 200

// shownKey is a key as the report prints it: a key comes from a keys
// file, which no check has read, so it goes through text.Visible (control,
// invisible and bidirectional characters escaped, cut at MaxKeyShown).
func shownKey(k string) string { return text.Visible(k, MaxKeyShown) }

// memberList lists the members of st in join order, with weights when
// withWeights is set and they are not all 1, and failed members marked;
// past maxListed members, the first and last few (shortList).
func memberList(res *sim.Result, st *timeline.State, withWeights bool) string {
	weighted := withWeights && !text.EqualWeights(st)
	names := make([]string, len(st.Members))
	for i, m := range st.Members {
		names[i] = res.Timeline.Nodes[m.ID]
		if weighted {
			names[i] += " (weight " + strconv.Itoa(m.Weight) + ")"
		}
		if m.Failed {
			names[i] += " (failed)"
		}
	}
	return shortList(names)
}

// maxListed is the most members a step section names one by one;
// memberSummary shortens a longer list to listedEnds members at each end
// and the failed ones.
const (
	maxListed  = figdata.MaxListed
	listedEnds = 3
)

// memberSummary is memberList for a step section: up to maxListed members
// all of them, else how many, the ends of the list in join order and the
// failed ones, e.g. "node-1, node-2, node-3, … 96 more …, node-100,
// node-101, node-102; failed: node-54".
func memberSummary(res *sim.Result, st *timeline.State) string {
	if len(st.Members) <= maxListed {
		return memberList(res, st, false)
	}
	var all, failed []string
	for _, m := range st.Members {
		all = append(all, res.Timeline.Nodes[m.ID])
		if m.Failed {
			failed = append(failed, res.Timeline.Nodes[m.ID])
		}
	}
	s := shortList(all)
	if len(failed) > 0 {
		s += "; failed: " + shortList(failed)
	}
	return s
}

// shortList joins up to maxListed names, and of more names the first and
// last listedEnds around how many it leaves out.
func shortList(names []string) string {
	n := len(names)
	if n <= maxListed {
		return strings.Join(names, ", ")
	}
	ends := slices.Concat(names[:listedEnds], []string{"… " + text.Count(n-2*listedEnds) + " more …"}, names[n-listedEnds:])
	return strings.Join(ends, ", ")
}

func weightsText(st *timeline.State) string {
	if text.EqualWeights(st) {
		return "equal weights"
	}
	total := 0
	for _, m := range st.Members {
		total += m.Weight
	}
	return "total weight " + strconv.Itoa(total)
}

// ruleInfos describes the rules with their effective parameters.
func ruleInfos(res *sim.Result) []RuleInfo {
	out := make([]RuleInfo, len(res.Rules))
	for i, rr := range res.Rules {
		out[i] = RuleInfo{Label: rr.Spec.Label, Kind: rr.Spec.Kind, Params: strings.Join(ruleParams(rr.Spec), ", ")}
	}
	return out
}

// ruleParams lists a rule's parameters in words, defaults filled in.
func ruleParams(spec placer.RuleSpec) []string {
	var ps []string
	for _, v := range registry.Values(spec) {
		if v.One != "" {
			n, _ := strconv.Atoi(v.Value)
			ps = append(ps, text.Plural(n, v.One, v.Many))
			continue
		}
		ps = append(ps, v.Prefix+v.Value+v.Suffix)
	}
	return ps
}

// summary computes each rule's whole-run totals.
func summary(res *sim.Result) []SummaryRow {
	last := len(res.Timeline.States) - 1
	k := res.Keys.Len()
	out := make([]SummaryRow, len(res.Rules))
	for r, rr := range res.Rules {
		ideal, changes, changesMoved, optimum := 0, 0, 0, 0
		for i, sr := range rr.Steps {
			ideal += sr.Ideal
			if n, ok := res.Optimum(r, i); ok {
				changes, changesMoved, optimum = changes+1, changesMoved+sr.Moved, optimum+n
			}
		}
		moved := rr.Steps[last].TotalMoved
		b := res.Balance(r, last)
		out[r] = SummaryRow{
			Label:          rr.Spec.Label,
			TotalMoved:     moved,
			TimesK:         ratio(moved, k),
			TotalIdeal:     ideal,
			Ratio:          ratio(moved, ideal),
			OptimumSteps:   changes,
			OptimumMoved:   changesMoved,
			TotalOptimum:   optimum,
			OptimumRatio:   ratio(changesMoved, optimum),
			PeakToMean:     b.PeakToMean,
			WorstDeviation: b.WorstDeviation,
			Recurrences:    recurrences(rr.Steps),
		}
	}
	return out
}

// placeFigures sorts figures into the whole-run list, the step sections
// and, for steps without a section, the unplaced list.
func placeFigures(r *Report, figs []svg.Figure) {
	section := make(map[int]int, len(r.Steps))
	for i, sec := range r.Steps {
		section[sec.Step] = i
	}
	for _, f := range figs {
		ref := FigureRef{Name: f.Name, Title: f.Title, Caption: f.Caption}
		i, ok := section[f.Step]
		switch {
		case f.Step == -1:
			r.Figures = append(r.Figures, ref)
		case ok:
			r.Steps[i].Figures = append(r.Steps[i].Figures, ref)
		default:
			r.Unplaced = append(r.Unplaced, ref)
		}
	}
}

// Title is a scenario's title: its title, or its name when it has none.
func Title(s *sim.Scenario) string { return cmp.Or(s.Title, s.Name) }
