package build

import (
	"bytes"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/text"
)

// Target is one output that One can write.
type Target struct {
	// Name is what asks for it (render's <what>).
	Name string
	// PerStep marks a figure of one step, which needs a step.
	PerStep bool
	// AnyStep marks an output that takes a step, and covers every step
	// without one.
	AnyStep bool
	// About says what it is, for a usage message.
	About string
	// needs are the stages it needs beyond parsing.
	needs stages
}

// stages are the pipeline stages an output needs; allPairs replays
// keeping every transfer pair, however many (sim.Options.AllPairs).
type stages struct{ replay, sweep, figures, allPairs bool }

// ringFigure names the rings of a step (svg's figure kind "rings"), a
// figure, not the rule of the same name.
const ringFigure = "ring"

// Targets lists what One can write, in the order a usage message shows.
var Targets = []Target{
	{ringFigure, true, false, "the rings of one step (SVG; rings works too)", stages{replay: true}},
	{"strips", true, false, "the changed-key strips of one step after step 0 (SVG)", stages{replay: true}},
	{"history", false, false, "keys moved per step and in total (SVG)", stages{replay: true}},
	{"balance", false, false, "keys per node after the last step (SVG)", stages{replay: true}},
	{"deviation", false, false, "worst deviation from the fair share, step by step (SVG)", stages{replay: true}},
	{"transfers", false, false, "keys each node received and sent over the run (SVG)", stages{replay: true}},
	{"migrations", false, false, "keys whose owner differs between the compare: pairs of rules, per step (SVG)", stages{replay: true}},
	{"availability", false, false, "keys below quorum and with no live replica, per step and rule (SVG; when there are some)", stages{replay: true}},
	{"replicas", false, false, "replica copies made and primaries moved, per step and rule (SVG; with more than one replica)", stages{replay: true}},
	{"requests", false, false, "requests moved and keys moved, per step and rule (SVG; with request counts)", stages{replay: true}},
	{"busiest", false, false, "the busiest node's requests over its fair share, step by step (SVG; with request counts)", stages{replay: true}},
	{"served", false, false, "requests per node after the last step, against the fair share (SVG; with request counts, at most 24 live nodes)", stages{replay: true}},
	{"sweep-cv", false, false, "cv at step 0 against the swept parameter (SVG; needs sweep:)", stages{sweep: true}},
	{"sweep-worst-deviation", false, false, "worst deviation at step 0 against the swept parameter (SVG; needs sweep:)", stages{sweep: true}},
	{"sweep-moved", false, false, "keys moved by step 1 against the swept parameter (SVG; needs sweep:)", stages{sweep: true}},
	{"report", false, false, "the Markdown report (report.md; its figures are separate files)", stages{replay: true, sweep: true, figures: true}},
	{"data", false, false, "every metric per step and rule, and the sweep (data.json)", stages{replay: true, sweep: true}},
	{"csv", false, false, "one row per step and rule (steps.csv)", stages{replay: true}},
	{"owners", false, true, "every key's position and preference list per rule at -step n, default the last (CSV)", stages{replay: true}},
	{"transfers-csv", false, true, "every from → to pair of moved keys per step and rule, or at -step n alone (transfers.csv)", stages{replay: true, allPairs: true}},
}

// TargetOf returns the target named what ("rings" is "ring").
func TargetOf(what string) (Target, bool) {
	if what == "rings" {
		what = ringFigure
	}
	i := slices.IndexFunc(Targets, func(t Target) bool { return t.Name == what })
	if i < 0 {
		return Target{}, false
	}
	return Targets[i], true
}

// Request asks One for one output of one scenario.
type Request struct {
	// Target is what to write.
	Target Target
	// Step is the step of a per-step output, or -1.
	Step int
	// Rule, when not "", keeps only the rule with that label.
	Rule string
	// Theme is the colour scheme of a figure.
	Theme svg.Theme
}

// One runs, for the scenario in, only the stages that req's output needs
// and writes the output to w: a sweep figure replays the variants alone,
// a figure of the scenario draws that figure alone, an output of one step
// replays the states up to it, a data file renders as it is written. A panic below it is a bug; it becomes an error.
func One(in Input, req Request, w io.Writer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: internal error (please report it): %v\n%s", text.Path(in.Path), p, debug.Stack())
		}
	}()
	parsed, err := Parse([]Input{in})
	if err != nil {
		return err
	}
	p := parsed[0]
	if err := req.check(in.Path, p); err != nil {
		return err
	}
	var res *sim.Result
	if req.Target.needs.replay {
		if res, err = sim.ReplayWith(p.Scenario, req.replayOptions()); err != nil {
			return fmt.Errorf("%s: %w", text.Path(in.Path), err)
		}
	}
	var study *sweep.Result
	if req.Target.needs.sweep && p.Plan.Active() {
		if study, err = sweep.Execute(p.Scenario, p.Plan, sweep.Options{}); err != nil {
			return fmt.Errorf("%s: %w", text.Path(in.Path), err)
		}
	}
	return req.write(w, in.Path, res, study)
}

// replayOptions replays what req's output depends on: for an output of
// one step, the states up to it, since no step's figure reads a later
// state (TestRenderStepIsBuildFile holds them to the build's files);
// every state for everything else; and every transfer pair (of the step
// asked for) where the output lists them.
func (req Request) replayOptions() sim.Options {
	opts := sim.Options{AllPairs: req.Target.needs.allPairs, AllPairsStep: max(req.Step, 0)}
	if (req.Target.PerStep || req.Target.AnyStep) && req.Step >= 0 {
		opts.States = req.Step + 1
	}
	return opts
}

// check narrows the scenario to the rule asked for and refuses a step or
// a sweep figure that it does not have.
func (req Request) check(file string, p Parsed) error {
	s := p.Scenario
	if req.Rule != "" {
		i := slices.IndexFunc(s.Rules, func(r placer.RuleSpec) bool { return r.Label == req.Rule })
		if i < 0 {
			var labels []string
			for _, r := range s.Rules {
				labels = append(labels, fmt.Sprintf("%q", r.Label))
			}
			return fmt.Errorf("%s: -rule %q: the scenario has no rule with that label; its rules are %s", text.Path(file), req.Rule, strings.Join(labels, ", "))
		}
		s.Rules = []placer.RuleSpec{s.Rules[i]}
	}
	if req.Step >= len(s.Steps)+1 {
		return fmt.Errorf("%s: -step %d: the scenario has steps 0 to %d", text.Path(file), req.Step, len(s.Steps))
	}
	return checkSweep(file, req.Target.Name, s, p.Plan)
}

// checkSweep refuses a sweep figure that the scenario cannot draw: one
// without sweep:, or sweep-moved without a step 1.
func checkSweep(file, what string, s *sim.Scenario, plan sweep.Plan) error {
	if !strings.HasPrefix(what, "sweep-") {
		return nil
	}
	if plan.Param == "" {
		if plan.Active() {
			return fmt.Errorf("%s: %s: the scenario has seeds: but no sweep: to chart; seeds alone show as bands in the report", text.Path(file), what)
		}
		return fmt.Errorf("%s: %s: the scenario has no sweep: to chart", text.Path(file), what)
	}
	if what == "sweep-moved" && len(s.Steps) == 0 {
		return fmt.Errorf("%s: sweep-moved: the scenario has no steps; sweep-moved charts the keys moved by step 1", text.Path(file))
	}
	return nil
}

// write renders the output from what the stages computed.
func (req Request) write(w io.Writer, file string, res *sim.Result, study *sweep.Result) error {
	var out []byte
	var err error
	switch name := req.Target.Name; {
	case name == "report":
		out, err = markdown(res, study)
	case name == "data":
		return report.WriteJSON(w, res, study)
	case name == "csv":
		return report.WriteCSV(w, res)
	case name == "transfers-csv":
		return report.WriteTransfersCSV(w, res, req.Step)
	case name == "owners":
		out, err = report.OwnersCSV(res, cmpStep(req.Step, len(res.Timeline.States)-1))
	case req.Target.needs.sweep:
		out, err = req.sweepFigure(file, study)
	default:
		out, err = req.figure(file, res)
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("ringreport: %w", err)
	}
	return nil
}

// cmpStep is step, or last when step is -1.
func cmpStep(step, last int) int {
	if step < 0 {
		return last
	}
	return step
}

// markdown renders report.md, which names every figure a build draws.
func markdown(res *sim.Result, study *sweep.Result) ([]byte, error) {
	figs, err := figures(res)
	if err != nil {
		return nil, err
	}
	figs = append(figs, svg.SweepFigures(study)...)
	return report.Markdown(res, figs, report.Options{Study: study})
}

// sweepFigure renders the requested sweep chart.
func (req Request) sweepFigure(file string, study *sweep.Result) ([]byte, error) {
	for _, fig := range svg.SweepFigures(study) {
		if fig.Name == req.Target.Name+".svg" {
			return standalone(fig, req.Theme), nil
		}
	}
	return nil, fmt.Errorf("%s: no %s figure", text.Path(file), req.Target.Name)
}

// figure renders the requested figure of the scenario, and only it.
func (req Request) figure(file string, res *sim.Result) ([]byte, error) {
	kind := req.Target.Name
	if kind == ringFigure {
		kind = "rings"
	}
	fig, ok, err := svg.FigureOf(res, kind, req.Step)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: no %s figure for step %d", text.Path(file), req.Target.Name, req.Step)
	}
	return standalone(fig, req.Theme), nil
}

// standalone is a figure's file in theme, ending in one newline.
func standalone(fig svg.Figure, theme svg.Theme) []byte {
	return append(bytes.TrimRight(fig.File(theme), "\n"), '\n')
}
