// Package site turns scenario files into the files of an output
// directory: for every scenario its report, data and figures, and for the
// whole set an index. It reads nothing and writes nothing itself: the
// command hands it file contents and writes what it returns (Build) or
// what it emits as each scenario finishes (Stream).
package site

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/ringreport/ringreport/internal/workers"
	"html/template"
	"io/fs"
	"path"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/text"
)

// Input is one scenario file.
type Input struct {
	// Path names the file in error messages.
	Path string
	// Src is the file's contents.
	Src []byte
	// ReadFile reads a keys file named relative to the scenario's folder.
	ReadFile func(rel string) ([]byte, error)
	// Limits bounds the scenario (see scenario.Limits); zero fields take
	// scenario.DefaultLimits.
	Limits scenario.Limits
}

// File is one output file, at a slash-separated path relative to the
// output directory.
type File struct {
	Path string
	Data []byte
}

// Options tunes a build.
type Options struct {
	// Jobs, when not 0, sets how many goroutines the whole process keeps
	// busy at once (workers.SetLimit): scenarios, rules, key hashing,
	// sweep variants and figures share them. 0 leaves the pool as it is
	// (one per CPU by default). Output does not depend on it.
	Jobs int
	// Templates, when non-nil, holds template files (see PageTemplate and
	// the other names) that replace the embedded ones of the same name;
	// files it lacks come from the embedded set.
	Templates fs.FS
	// InlineBudget is how many bytes of SVG a page may inline; a page
	// whose figures exceed it links its step figures as images instead
	// (see linkSteps). 0 means DefaultInlineBudget.
	InlineBudget int
	// Theme is the colour scheme of the figure files (the pages inline
	// figures that follow the page's); the zero value is svg.Light.
	Theme svg.Theme
	// Progress, when non-nil, is called after each scenario is replayed
	// and rendered, with the number done so far, the total and the
	// scenario's name. Calls are serialized, in completion order.
	Progress func(done, total int, name string)
}

// Scenario is one parsed, replayed scenario.
type Scenario struct {
	// Name is the output folder name, derived from the file name.
	Name string
	// Result is the replay.
	Result *sim.Result
	// Figures are the rendered figures.
	Figures []svg.Figure
	// Report is the report model.
	Report *report.Report
	// Study holds the variants that sweep: and seeds: asked for, or is
	// nil when the scenario has neither.
	Study *sweep.Result

	files    []File        // the scenario's files but index.html
	body     template.HTML // the report as HTML, figures inlined
	headings []Heading     // the report's sections
	// transfersCSV is set when files hold transfers.csv, which a build
	// leaves out past report.TransfersCSVLimit.
	transfersCSV bool
}

// Parse parses every input and returns all problems of all files at once.
func Parse(inputs []Input) ([]*sim.Scenario, error) {
	out, _, err := ParseStudies(inputs)
	return out, err
}

// ParseStudies is Parse that also returns each scenario's sweep: and
// seeds: plan.
func ParseStudies(inputs []Input) ([]*sim.Scenario, []sweep.Plan, error) {
	out := make([]*sim.Scenario, len(inputs))
	plans := make([]sweep.Plan, len(inputs))
	var errs []error
	names := map[string]string{}  // output name → file
	folded := map[string]string{} // folderKey → output name
	for i, in := range inputs {
		s, plan, err := scenario.ParseStudy(in.Path, in.Src, scenario.Options{ReadFile: in.ReadFile, Limits: in.Limits})
		plans[i] = plan
		if err != nil {
			errs = append(errs, err)
			continue
		}
		s.Name = Name(in.Path)
		key, file := folderKey(s.Name), scenario.FileName(in.Path)
		switch prev, dup := names[s.Name]; {
		case slices.ContainsFunc(SiteFiles, func(f string) bool { return folderKey(f) == key }):
			errs = append(errs, fmt.Errorf("%s: output name %q is taken by the site's own %s; rename the file", file, s.Name, siteFile(key)))
		case dup:
			errs = append(errs, fmt.Errorf("%s: output name %q is already used by %s; rename one of the files", file, s.Name, scenario.FileName(prev)))
		case folded[key] != "":
			other := folded[key]
			errs = append(errs, fmt.Errorf("%s: output name %q and %q of %s are one folder on macOS and Windows, which ignore case (and a final dot); rename one of the files", file, s.Name, other, scenario.FileName(names[other])))
		}
		names[s.Name] = in.Path
		if folded[key] == "" {
			folded[key] = s.Name
		}
		out[i] = s
	}
	return out, plans, errors.Join(errs...)
}

// SiteFiles are the files a build writes at the top of the output folder,
// beside the scenarios' folders; no scenario's folder may take their
// names.
var SiteFiles = []string{"index.html", "README.md"}

// folderKey is the name a case-insensitive file system (macOS's, Windows')
// sees: Unicode case folded, and on Windows a final dot or space ignored.
func folderKey(name string) string {
	return strings.ToLower(strings.TrimRight(name, ". "))
}

// siteFile is the site file whose folderKey is key.
func siteFile(key string) string {
	for _, f := range SiteFiles {
		if folderKey(f) == key {
			return f
		}
	}
	return key
}

// Name derives a scenario's output folder name from its file name: the
// base name without .yaml or .yml, with every byte outside [A-Za-z0-9._-]
// replaced by '-', no leading dot, and a '-' after a name that Windows
// reserves (CON, NUL, COM1, ...).
func Name(file string) string {
	base := path.Base(strings.ReplaceAll(file, `\`, "/"))
	for _, ext := range []string{".yaml", ".yml"} { // in any case: .YAML too
		if n := len(base) - len(ext); n >= 0 && strings.EqualFold(base[n:], ext) {
			base = base[:n]
		}
	}
	b := []byte(base)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			b[i] = '-'
		}
	}
	name := strings.TrimLeft(string(b), ".")
	if name == "" {
		name = "scenario"
	}
	if windowsReserved(name) {
		name += "-" // CON, NUL, COM1, ... cannot be checked out on Windows
	}
	return name
}

// windowsReserved reports a name that Windows reserves for a device,
// with or without an extension.
func windowsReserved(name string) bool {
	stem, _, _ := strings.Cut(strings.ToUpper(name), ".")
	switch stem {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(stem) == 4 && (strings.HasPrefix(stem, "COM") || strings.HasPrefix(stem, "LPT")) && stem[3] >= '1' && stem[3] <= '9'
}

// Build parses, replays and renders every input and returns the output
// files sorted by path. When the only problem is failed expectations it
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
	scens, plans, err := ParseStudies(inputs)
	if err != nil {
		return err
	}
	tmpls, err := parseTemplates(templateFS(opts.Templates))
	if err != nil {
		return fmt.Errorf("cannot parse the page templates: %w", err)
	}
	out := &emitter{emit: emit}
	cards := make([]Card, len(scens))
	failed := make([]ExpectationsFailed, len(scens))
	err = replayAll(scens, plans, opts, func(i int, sc *Scenario) error {
		page, err := renderPage(tmpls, sc, pageLinks(scens, i))
		if err != nil {
			return fmt.Errorf("%s: %w", sc.Name, err)
		}
		cards[i], failed[i] = card(sc), failedExpectations(sc)
		out.send(append(sc.files, File{Path: sc.Name + "/index.html", Data: page})...)
		return nil
	})
	if out.err != nil {
		return out.err
	}
	if err != nil {
		return err
	}
	index, err := renderIndex(tmpls, cards)
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
func failedExpectations(sc *Scenario) ExpectationsFailed {
	var out ExpectationsFailed
	for _, o := range sc.Result.Check() {
		if !o.Passed() {
			out = append(out, fmt.Sprintf("%s: scenario %s: expectation failed: %s: %s",
				o.Expectation.Where, sc.Name, text.Expectation(o.Expectation), text.Verdict(o)))
		}
	}
	return out
}

// replayAll replays and renders the scenarios on the process-wide worker
// pool, whose size opts.Jobs sets when it is not 0, and hands each to done, with its index, as it finishes; it
// reports progress after done returns. The scenario is not used again.
func replayAll(scens []*sim.Scenario, plans []sweep.Plan, opts Options, done func(int, *Scenario) error) error {
	if opts.Jobs > 0 {
		workers.SetLimit(opts.Jobs)
	}
	errs := make([]error, len(scens))
	var mu sync.Mutex
	finished := 0
	workers.Each(len(scens), func(i int) {
		s := scens[i]
		sc, err := replayOne(s, plans[i], opts)
		if err == nil {
			err = done(i, sc)
		}
		errs[i] = err
		if opts.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			finished++
			opts.Progress(finished, len(scens), s.Name)
		}
	})
	return errors.Join(errs...)
}

// replayOne replays one scenario, and the variants its plan asks for,
// and renders its own files, on the worker pool (the variants' replays
// draw from it too, so -j bounds them all at once). A panic below it is a bug; it becomes this scenario's
// error, so that the other scenarios still report and the command exits
// cleanly.
func replayOne(s *sim.Scenario, plan sweep.Plan, opts Options) (sc *Scenario, err error) {
	defer func() {
		if p := recover(); p != nil {
			sc, err = nil, fmt.Errorf("%s: internal error (please report it): %v\n%s", s.Name, p, debug.Stack())
		}
	}()
	res, err := sim.Replay(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	sc = &Scenario{Name: s.Name, Result: res}
	if err := sc.build(s, plan, opts); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return sc, nil
}

// build draws the replayed scenario's figures, runs the variants its plan
// asks for, and renders its files. Figures are drawn while the variants
// replay; data.json and steps.csv, which need neither, render beside the
// figures and then beside the report, so that each core stays busy
// until the page is done.
func (sc *Scenario) build(s *sim.Scenario, plan sweep.Plan, opts Options) error {
	res := sc.Result
	var figs []svg.Figure
	var figErr error
	var figWG sync.WaitGroup
	goCatching(&figWG, &figErr, func() (err error) {
		figs, err = svg.Figures(res)
		return err
	})
	var err error
	if plan.Active() {
		sc.Study, err = sweep.Execute(s, plan, sweep.Options{})
	}
	if err != nil {
		figWG.Wait()
		return err
	}
	var data []report.File
	var dataErr error
	var dataWG sync.WaitGroup
	goCatching(&dataWG, &dataErr, func() (err error) {
		data, err = dataFiles(res, sc.Study)
		return err
	})
	figWG.Wait()
	if figErr == nil {
		// Only figures read the per-step geometry and strips: dropping
		// them now frees O(points × steps) memory before pages are built.
		sc.Result = res.WithoutFigureData()
		sc.Figures = figs
		if sc.Study != nil {
			sc.Figures = append(sc.Figures, svg.SweepFigures(sc.Study)...)
		}
		err = sc.render(opts)
	}
	dataWG.Wait()
	switch {
	case figErr != nil:
		return fmt.Errorf("cannot draw figures: %w", figErr)
	case err != nil:
		return err
	case dataErr != nil:
		return dataErr
	}
	for _, f := range data {
		sc.files = append(sc.files, File{Path: sc.Name + "/" + f.Name, Data: f.Data})
		sc.transfersCSV = sc.transfersCSV || f.Name == TransfersCSV
	}
	return nil
}

// goCatching runs f on a new goroutine of wg and stores its error in
// *errp; a panic in f becomes that error, as it does on replayOne's own
// goroutine, so that a bug stays one scenario's error.
func goCatching(wg *sync.WaitGroup, errp *error, f func() error) {
	wg.Go(func() {
		defer func() {
			if p := recover(); p != nil {
				*errp = fmt.Errorf("internal error (please report it): %v\n%s", p, debug.Stack())
			}
		}()
		*errp = f()
	})
}

// dataFiles renders data.json and steps.csv, which need no figures, and
// transfers.csv while it stays within report.TransfersCSVLimit.
func dataFiles(res *sim.Result, study *sweep.Result) ([]report.File, error) {
	js, err := report.JSONStudy(res, study)
	if err != nil {
		return nil, err
	}
	csv, err := report.CSV(res)
	if err != nil {
		return nil, err
	}
	files := []report.File{{Name: "data.json", Data: js}, {Name: "steps.csv", Data: csv}}
	tr, ok, err := report.TransfersCSV(res)
	if err != nil {
		return nil, err
	}
	if ok {
		files = append(files, report.File{Name: TransfersCSV, Data: tr})
	}
	mig, err := report.MigrationsCSV(res)
	if err != nil || mig == nil {
		return files, err
	}
	return append(files, report.File{Name: "migrations.csv", Data: mig}), nil
}

// pageFigures is the folder of a scenario that holds the step figures a
// page links instead of inlining (see linkSteps), in the page's form:
// transparent, following the page's light or dark colours.
const pageFigures = "page"

// TransfersCSV is the name of the side file with every transfer pair.
const TransfersCSV = "transfers.csv"

// render fills in the report model, the page body and the scenario's
// figures and report.md.
func (sc *Scenario) render(opts Options) error {
	rep, err := report.Build(sc.Result, sc.Figures)
	if err != nil {
		return fmt.Errorf("cannot build the report: %w", err)
	}
	sc.Report = rep
	for i := range sc.Figures {
		f := &sc.Figures[i]
		sc.files = append(sc.files, File{Path: sc.Name + "/" + f.Name, Data: f.File(opts.Theme)})
	}
	md, err := report.MarkdownOf(rep, report.Options{Templates: templateFS(opts.Templates), Study: sc.Study})
	if err != nil {
		return err
	}
	sc.files = append(sc.files, File{Path: sc.Name + "/report.md", Data: md})
	budget := cmp.Or(opts.InlineBudget, DefaultInlineBudget)
	if linkSteps(sc.Figures, budget) {
		// The page's images follow its colours, as its inline figures
		// do: they are the page's form, beside the files.
		for _, f := range sc.Figures {
			if f.Step >= 0 {
				sc.files = append(sc.files, File{Path: sc.Name + "/" + pageFigures + "/" + f.Name, Data: f.SVG})
			}
		}
	}
	sc.body, sc.headings, err = renderBody(md, sc.Figures, budget)
	return err
}
