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
	return stream(inputs, opts, []site.Options{opts.site()}, func(_ int, f File) error { return emit(f) })
}

// BuildEach returns, for each of opts, the files and error that
// Build(inputs, opts[k]) returns, from one parse, replay and model of
// every scenario: only the site stage (the figure files in each theme,
// the pages, the gallery) runs once per option set. The option sets may
// differ only in InlineBudget, Theme and Templates, which only the site
// stage reads; Jobs is read from opts[0], and the others' Progress must be
// nil (it is called once per scenario, for all of them).
func BuildEach(inputs []Input, opts ...Options) ([][]File, error) {
	if len(opts) == 0 {
		return nil, errors.New("BuildEach needs at least one set of options")
	}
	sites := make([]site.Options, len(opts))
	for k, o := range opts {
		if k > 0 && (o.Jobs != opts[0].Jobs || o.Progress != nil) {
			return nil, fmt.Errorf("BuildEach: options %d differ from the first in Jobs or Progress, which all sites share", k)
		}
		sites[k] = o.site()
	}
	out := make([][]File, len(opts))
	err := stream(inputs, opts[0], sites, func(k int, f File) error {
		out[k] = append(out[k], f)
		return nil
	})
	var failed ExpectationsFailed
	if err != nil && !errors.As(err, &failed) {
		return nil, err
	}
	for _, files := range out {
		slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	}
	return out, err
}

// stream runs the pipeline over inputs with opts's Jobs and Progress and
// renders the site stage once for each of sites, handing each file to
// emit with the index of its site; the files that do not depend on the
// site stage (data.json and the CSVs) go to every site. Otherwise it is
// Stream.
func stream(inputs []Input, opts Options, sites []site.Options, emit func(k int, f File) error) error {
	parsed, err := Parse(inputs)
	if err != nil {
		return err
	}
	sts := make([]*site.Site, len(sites))
	for k, so := range sites {
		if sts[k], err = site.New(so); err != nil {
			return err
		}
	}
	if opts.Jobs > 0 {
		workers.SetLimit(opts.Jobs)
	}
	scens := scenarios(parsed)
	out := &emitter{emit: emit}
	cards := make([][]site.Card, len(sites))
	for k := range cards {
		cards[k] = make([]site.Card, len(parsed))
	}
	failed := make([]ExpectationsFailed, len(parsed))
	err = eachScenario(parsed, opts.Progress, func(i int) error {
		sc, err := scenarioFiles(parsed[i], opts)
		if err != nil {
			return err
		}
		for k, st := range sts {
			files, card, err := st.Scenario(&sc.Scenario, site.PageLinks(scens, i))
			if err != nil {
				return fmt.Errorf("%s: %w", sc.Name, err)
			}
			cards[k][i] = card
			out.send(k, append(slices.Clip(sc.data), files...)...)
		}
		failed[i] = sc.failed
		return nil
	})
	if out.err != nil {
		return out.err
	}
	if err != nil {
		return err
	}
	for k, st := range sts {
		index, err := st.Index(cards[k])
		if err != nil {
			return err
		}
		if out.send(k, index...); out.err != nil {
			return out.err
		}
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
	emit func(k int, f File) error
	err  error
}

// send emits files, of site k.
func (e *emitter) send(k int, files ...File) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, f := range files {
		if e.err != nil {
			return
		}
		e.err = e.emit(k, f)
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
