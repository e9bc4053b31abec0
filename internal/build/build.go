package build

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/workers"
)

// File is one output file, at a slash-separated path relative to the
// output directory.
type File = site.File

// Options tunes a build.
type Options struct {
	// Jobs, when not 0, sets how many goroutines the whole process keeps
	// busy at once (workers.SetLimit): scenarios, rules, key hashing,
	// sweep variants and figures share them. 0 leaves the pool as it is
	// (one per CPU by default). Output does not depend on it.
	Jobs int
	// Templates, when non-nil, holds template files (see site.PageTemplate
	// and the other names) that replace the embedded ones of the same
	// name; files it lacks come from the embedded set.
	Templates fs.FS
	// InlineBudget is how many bytes of SVG a page may inline; a page
	// whose figures exceed it links its step figures as images instead.
	// 0 means site.DefaultInlineBudget.
	InlineBudget int
	// Theme is the colour scheme of the figure files (the pages inline
	// figures that follow the page's); the zero value is svg.Light.
	Theme svg.Theme
	// Progress, when non-nil, is called after each scenario is replayed
	// and rendered, with the number done so far, the total and the
	// scenario's name. Calls are serialized, in completion order.
	Progress func(done, total int, name string)
}

// site returns the site stage's options.
func (o Options) site() site.Options {
	return site.Options{Templates: o.Templates, InlineBudget: o.InlineBudget, Theme: o.Theme}
}

// Build runs the pipeline over every input and returns the output files
// sorted by path. When the only problem is failed expectations it
// returns the complete files and an ExpectationsFailed error: for every
// scenario its folder (figures in opts.Theme, report.md, data.json,
// steps.csv, transfers.csv within its limit, migrations.csv with
// compare:, page/ when the page links its step figures, and
// index.html), and for the whole set index.html and README.md. The files
// do not depend on opts.Jobs.
func Build(inputs []Input, opts Options) ([]File, error) {
	var files []File
	err := Stream(inputs, opts, func(f File) error {
		files = append(files, f)
		return nil
	})
	var failed ExpectationsFailed
	if err != nil && !errors.As(err, &failed) {
		return nil, err
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, err
}

// Stream builds what Build builds but hands every file to emit as soon as
// its scenario is rendered, and then forgets it, so that a site holds in
// memory only the scenarios being built (opts.Jobs), not all of them.
// Calls to emit are serialized; their order depends on scheduling, the
// files do not. The first error emit returns stops the emitting and is
// returned. With failed expectations, Stream emits every file and then
// returns ExpectationsFailed.
func Stream(inputs []Input, opts Options, emit func(File) error) error {
	parsed, err := Parse(inputs)
	if err != nil {
		return err
	}
	st, err := site.New(opts.site())
	if err != nil {
		return err
	}
	if opts.Jobs > 0 {
		workers.SetLimit(opts.Jobs)
	}
	scens := scenarios(parsed)
	out := &emitter{emit: emit}
	cards := make([]site.Card, len(parsed))
	failed := make([]ExpectationsFailed, len(parsed))
	err = eachScenario(parsed, opts.Progress, func(i int) error {
		sc, err := scenarioFiles(parsed[i], opts)
		if err != nil {
			return err
		}
		files, card, err := st.Scenario(&sc.Scenario, site.PageLinks(scens, i))
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		cards[i], failed[i] = card, sc.failed
		out.send(append(sc.data, files...)...)
		return nil
	})
	if out.err != nil {
		return out.err
	}
	if err != nil {
		return err
	}
	index, err := st.Index(cards)
	if err != nil {
		return err
	}
	if out.send(index...); out.err != nil {
		return out.err
	}
	if all := slices.Concat(failed...); len(all) > 0 {
		return all
	}
	return nil
}

// eachScenario runs do for every scenario on the process-wide worker
// pool, and reports progress after each; it returns every error.
func eachScenario(parsed []Parsed, progress func(done, total int, name string), do func(i int) error) error {
	errs := make([]error, len(parsed))
	var mu sync.Mutex
	finished := 0
	workers.Each(len(parsed), func(i int) {
		errs[i] = do(i)
		if progress != nil {
			mu.Lock()
			defer mu.Unlock()
			finished++
			progress(finished, len(parsed), parsed[i].Scenario.Name)
		}
	})
	return errors.Join(errs...)
}

// emitter serializes calls to an emit function and keeps its first error,
// after which it emits nothing more.
type emitter struct {
	mu   sync.Mutex
	emit func(File) error
	err  error
}

func (e *emitter) send(files ...File) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, f := range files {
		if e.err != nil {
			return
		}
		e.err = e.emit(f)
	}
}

// ExpectationsFailed is the error Build returns, together with complete
// files, when every scenario built but some of their expect: entries
// failed: the reports show the failures, and the command exits non-zero.
type ExpectationsFailed []string

func (e ExpectationsFailed) Error() string { return strings.Join(e, "\n") }

// failedExpectations lists every failed expectation of sc, one line each:
// "file:line:col: scenario ring: expectation failed: moved_fraction <= 0.2
// at step 1 for ring: failed 1 of 1 checks; first: 0.25 at step 1 for ring".
func failedExpectations(name string, res *sim.Result) ExpectationsFailed {
	var out ExpectationsFailed
	for _, o := range res.Check() {
		if !o.Passed() {
			out = append(out, fmt.Sprintf("%s: scenario %s: expectation failed: %s: %s",
				o.Expectation.Where, name, text.Expectation(o.Expectation), text.Verdict(o)))
		}
	}
	return out
}
