package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/text"
)

// buildFlags are the flags shared by build and check.
type buildFlags struct {
	out       string
	jobs      int
	templates string
	force     bool
	quiet     bool
	theme     svg.Theme
	limits    scenario.Limits
}

// newFlagSet returns a flag set for a subcommand whose usage goes to w.
func newFlagSet(name, args string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ringreport "+name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "usage: ringreport %s %s\n\n%s.\n\nFlags:\n", name, strings.TrimSpace("[flags] "+args), summaryOf(name))
		fs.PrintDefaults()
	}
	return fs
}

func (b *buildFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.out, "o", "out", "write the site to `dir`")
	fs.IntVar(&b.jobs, "j", 0, "keep at most `n` goroutines busy at once, for scenarios, rules, sweeps and figures alike (0: one per CPU)")
	fs.StringVar(&b.templates, "templates", "", "read templates from `dir`; files it lacks come from the built-in set")
	registerTheme(fs, &b.theme)
	registerLimits(fs, &b.limits)
}

// check validates the flags before any input is read.
func (b *buildFlags) check() error {
	switch {
	case b.jobs < 0:
		return fmt.Errorf("parsing -j: %d is negative; want 0 (one per CPU) or more", b.jobs)
	case b.out == "":
		return fmt.Errorf("parsing -o: want a directory name")
	}
	if b.templates != "" {
		fi, err := os.Stat(b.templates)
		if err != nil {
			return fmt.Errorf("parsing -templates: %w", text.PathError(err))
		}
		if !fi.IsDir() {
			return fmt.Errorf("parsing -templates: %s is not a directory", text.Path(b.templates))
		}
	}
	return nil
}

// summaryOf is the one-line description of the command name, as the
// command list shows it, capitalised as a sentence.
func summaryOf(name string) string {
	for _, c := range commands() {
		if c.name == name {
			return strings.ToUpper(c.summary[:1]) + c.summary[1:]
		}
	}
	return ""
}

// registerTheme adds -theme, the colours of the SVG files.
func registerTheme(fs *flag.FlagSet, t *svg.Theme) {
	fs.Var(t, "theme", "colour `scheme` of the SVG files: light or dark, on an opaque background, or auto, which follows the viewer's light or dark setting (default light)")
}

// parseFlags parses args and maps -h and bad flags to exit codes; ok is
// false when the command should stop with code.
func parseFlags(fs *flag.FlagSet, args []string) (code int, ok bool) {
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK, false
	case err != nil:
		return exitUsage, false
	}
	return 0, true
}
