package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/svg"
)

// renderFlags are render's flags and arguments.
type renderFlags struct {
	rule    string
	stepArg stepFlag
	step    int // stepArg's value, -1 when not given
	theme   svg.Theme
	target  build.Target
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
	for _, r := range build.Targets {
		width = max(width, len(r.Name))
	}
	for _, r := range build.Targets {
		fmt.Fprintf(w, "\t%-*s %s\n", width, r.Name, r.About)
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
	what := pos[0]
	f.file = pos[1]
	r, ok := build.TargetOf(what)
	if !ok {
		return fmt.Errorf("unknown figure or file %q; want one of %s", what, renderNames())
	}
	f.target = r
	switch {
	case r.PerStep && f.step < 0:
		return fmt.Errorf("%s needs -step n (0 is the starting cluster)", r.Name)
	case !r.PerStep && f.step >= 0 && !r.AnyStep:
		return fmt.Errorf("-step does not apply to %s, which covers every step", r.Name)
	case r.Name == "strips" && f.step == 0:
		return errors.New("strips show what changed at a step; step 0 has none: use -step 1 or later")
	}
	return nil
}

func renderNames() string {
	names := make([]string, len(build.Targets))
	for i, r := range build.Targets {
		names[i] = r.Name
	}
	return strings.Join(names, ", ")
}

// render reads the scenario and has the pipeline write the request to w:
// the data files (data, csv, transfers-csv) as they are rendered,
// anything else once complete.
func (f *renderFlags) render(w io.Writer) error {
	in, err := readInput(f.file, f.limits)
	if err != nil {
		return fmt.Errorf("ringreport: %w", err)
	}
	return build.One(in, build.Request{Target: f.target, Step: f.step, Rule: f.rule, Theme: f.theme}, w)
}
