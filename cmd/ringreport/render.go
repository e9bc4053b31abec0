package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/text"
)

// target is one thing render can write.
type target struct {
	name    string // the <what> argument
	perStep bool   // a figure of one step, which needs -step
	about   string // for the usage message
	anyStep bool   // takes -step n, and covers every step without it
}

// renderable lists what render can write.
var renderable = []target{
	{"ring", true, "the rings of one step (SVG; rings works too)", false},
	{"strips", true, "the changed-key strips of one step after step 0 (SVG)", false},
	{"history", false, "keys moved per step and in total (SVG)", false},
	{"balance", false, "keys per node after the last step (SVG)", false},
	{"deviation", false, "worst deviation from the fair share, step by step (SVG)", false},
	{"transfers", false, "keys each node received and sent over the run (SVG)", false},
	{"migrations", false, "keys whose owner differs between the compare: pairs of rules, per step (SVG)", false},
	{"availability", false, "keys below quorum and with no live replica, per step and rule (SVG; when there are some)", false},
	{"replicas", false, "replica copies made and primaries moved, per step and rule (SVG; with more than one replica)", false},
	{"requests", false, "requests moved and keys moved, per step and rule (SVG; with request counts)", false},
	{"busiest", false, "the busiest node's requests over its fair share, step by step (SVG; with request counts)", false},
	{"sweep-cv", false, "cv at step 0 against the swept parameter (SVG; needs sweep:)", false},
	{"sweep-worst-deviation", false, "worst deviation at step 0 against the swept parameter (SVG; needs sweep:)", false},
	{"sweep-moved", false, "keys moved by step 1 against the swept parameter (SVG; needs sweep:)", false},
	{"report", false, "the Markdown report (report.md; its figures are separate files)", false},
	{"data", false, "every metric per step and rule, and the sweep (data.json)", false},
	{"csv", false, "one row per step and rule (steps.csv)", false},
	{"owners", false, "every key's position and preference list per rule at -step n, default the last (CSV)", true},
	{"transfers-csv", false, "every from → to pair of moved keys per step and rule, or at -step n alone (transfers.csv)", true},
}

// renderFlags are render's flags and arguments.
type renderFlags struct {
	rule    string
	stepArg stepFlag
	step    int // stepArg's value, -1 when not given
	theme   svg.Theme
	what    string
	file    string
	limits  scenario.Limits
}

// stepFlag is -step: a step number ≥ 0, or -1 while unset. Its zero
// value prints as unset, so usage shows no default.
type stepFlag struct{ n int }

func (s *stepFlag) String() string {
	if s == nil || s.n <= 0 {
		return ""
	}
	return strconv.Itoa(s.n - 1)
}

func (s *stepFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("want a step number ≥ 0")
	}
	s.n = n + 1
	return nil
}

// step is the step asked for, or -1.
func (s stepFlag) step() int { return s.n - 1 }

func runRender(args []string, stdout, stderr io.Writer) int {
	var f renderFlags
	fs := newFlagSet("render", "<what> <scenario.yaml>", stderr)
	fs.StringVar(&f.rule, "rule", "", "render only the rule labelled `label` (default: every rule)")
	fs.Var(&f.stepArg, "step", "the step `n` of a ring or strips figure, of owners or of transfers-csv (0 is the starting cluster)")
	registerTheme(fs, &f.theme)
	registerLimits(fs, &f.limits)
	fs.Usage = func() { renderUsage(fs, stderr) }
	pos, code, ok := parseInterspersed(fs, args)
	if !ok {
		return code
	}
	f.step = f.stepArg.step()
	if err := f.check(pos); err != nil {
		fmt.Fprintln(stderr, "ringreport render:", err)
		fmt.Fprintln(stderr, "run 'ringreport help render' for usage")
		return exitUsage
	}
	out := bufio.NewWriterSize(stdout, 64<<10)
	if err := f.render(out); err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	return exitOK
}

func renderUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: ringreport render [flags] <what> <scenario.yaml>\n\nWrites one figure or one data file of one scenario to standard output. <what> is one of:\n\n")
	width := 0
	for _, r := range renderable {
		width = max(width, len(r.name))
	}
	for _, r := range renderable {
		fmt.Fprintf(w, "\t%-*s %s\n", width, r.name, r.about)
	}
	fmt.Fprintf(w, "\nFlags:\n")
	fs.PrintDefaults()
}

// parseInterspersed parses flags that may come before, between or after
// the positional arguments, which it returns.
func parseInterspersed(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	for {
		if code, ok := parseFlags(fs, args); !ok {
			return nil, code, false
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, 0, true
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// check validates the command line before any input is read.
func (f *renderFlags) check(pos []string) error {
	if len(pos) != 2 {
		return fmt.Errorf("want <what> and one scenario file, got %d arguments", len(pos))
	}
	f.what, f.file = pos[0], pos[1]
	if f.what == "rings" {
		f.what = "ring"
	}
	i := slices.IndexFunc(renderable, func(r target) bool { return r.name == f.what })
	if i < 0 {
		return fmt.Errorf("unknown figure or file %q; want one of %s", f.what, renderNames())
	}
	r := renderable[i]
	switch {
	case r.perStep && f.step < 0:
		return fmt.Errorf("%s needs -step n (0 is the starting cluster)", f.what)
	case !r.perStep && f.step >= 0 && !r.anyStep:
		return fmt.Errorf("-step does not apply to %s, which covers every step", f.what)
	case f.what == "strips" && f.step == 0:
		return errors.New("strips show what changed at a step; step 0 has none: use -step 1 or later")
	}
	return nil
}

func renderNames() string {
	names := make([]string, len(renderable))
	for i, r := range renderable {
		names[i] = r.name
	}
	return strings.Join(names, ", ")
}

// render reads, parses and replays the scenario and writes the request
// to w: the data files (data, csv, transfers-csv) as they are rendered,
// anything else once complete. A panic below it is a bug; it becomes an
// error, so that the command still exits with status 1.
func (f *renderFlags) render(w io.Writer) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s: internal error (please report it): %v\n%s", text.Path(f.file), p, debug.Stack())
		}
	}()
	out, err := f.rendered(w)
	if err != nil || out == nil {
		return err
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("ringreport: %w", err)
	}
	return nil
}

// rendered does render's work: it writes a data file to w itself and
// returns nil, and returns anything else.
func (f *renderFlags) rendered(w io.Writer) ([]byte, error) {
	in, err := readInput(f.file, f.limits)
	if err != nil {
		return nil, fmt.Errorf("ringreport: %w", err)
	}
	scens, plans, err := site.ParseStudies([]site.Input{in})
	if err != nil {
		return nil, err
	}
	s, plan := scens[0], plans[0]
	if err := f.selectRule(s); err != nil {
		return nil, err
	}
	if f.step >= len(s.Steps)+1 {
		return nil, fmt.Errorf("%s: -step %d: the scenario has steps 0 to %d", text.Path(f.file), f.step, len(s.Steps))
	}
	if err := f.checkSweep(s, plan); err != nil {
		return nil, err
	}
	res, err := sim.Replay(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", text.Path(f.file), err)
	}
	var st *sweep.Result
	if plan.Active() && (f.what == "report" || f.what == "data" || strings.HasPrefix(f.what, "sweep-")) {
		if st, err = sweep.Execute(s, plan, sweep.Options{}); err != nil {
			return nil, fmt.Errorf("%s: %w", text.Path(f.file), err)
		}
	}
	switch f.what {
	case "report":
		figs, err := svg.Figures(res)
		if err != nil {
			return nil, err
		}
		figs = append(figs, svg.SweepFigures(st)...)
		return report.Markdown(res, figs, report.Options{Study: st})
	case "data":
		return nil, report.WriteJSON(w, res, st)
	case "csv":
		return nil, report.WriteCSV(w, res)
	case "transfers-csv":
		return nil, report.WriteTransfersCSV(w, res, f.step)
	case "owners":
		step := f.step
		if step < 0 {
			step = len(res.Timeline.States) - 1
		}
		return report.OwnersCSV(res, step)
	}
	if st != nil {
		return f.sweepFigure(st)
	}
	return f.figure(res)
}

// checkSweep refuses a sweep figure that the scenario cannot draw: one
// without sweep:, or sweep-moved without a step 1.
func (f *renderFlags) checkSweep(s *sim.Scenario, plan sweep.Plan) error {
	if !strings.HasPrefix(f.what, "sweep-") {
		return nil
	}
	if plan.Param == "" {
		if plan.Active() {
			return fmt.Errorf("%s: %s: the scenario has seeds: but no sweep: to chart; seeds alone show as bands in the report", text.Path(f.file), f.what)
		}
		return fmt.Errorf("%s: %s: the scenario has no sweep: to chart", text.Path(f.file), f.what)
	}
	if f.what == "sweep-moved" && len(s.Steps) == 0 {
		return fmt.Errorf("%s: sweep-moved: the scenario has no steps; sweep-moved charts the keys moved by step 1", text.Path(f.file))
	}
	return nil
}

// sweepFigure renders the requested sweep chart.
func (f *renderFlags) sweepFigure(st *sweep.Result) ([]byte, error) {
	for _, fig := range svg.SweepFigures(st) {
		if fig.Name == f.what+".svg" {
			return append(bytes.TrimRight(fig.File(f.theme), "\n"), '\n'), nil
		}
	}
	return nil, fmt.Errorf("%s: no %s figure", text.Path(f.file), f.what)
}

// selectRule keeps only the rule labelled f.rule, when one is asked for.
func (f *renderFlags) selectRule(s *sim.Scenario) error {
	if f.rule == "" {
		return nil
	}
	var labels []string
	for _, r := range s.Rules {
		if r.Label == f.rule {
			s.Rules = []placer.RuleSpec{r}
			return nil
		}
		labels = append(labels, fmt.Sprintf("%q", r.Label))
	}
	return fmt.Errorf("%s: -rule %q: the scenario has no rule with that label; its rules are %s", text.Path(f.file), f.rule, strings.Join(labels, ", "))
}

// figure renders the requested figure, and only it.
func (f *renderFlags) figure(res *sim.Result) ([]byte, error) {
	kind := f.what
	if kind == "ring" {
		kind = "rings"
	}
	fig, ok, err := svg.FigureOf(res, kind, f.step)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%s: no %s figure for step %d", text.Path(f.file), f.what, f.step)
	}
	return append(bytes.TrimRight(fig.File(f.theme), "\n"), '\n'), nil
}
