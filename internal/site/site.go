// Package site renders the files of the static site from scenarios that
// the pipeline (internal/build) has replayed, modelled and drawn: for
// each scenario its figure files, report.md, its page's linked figures
// and index.html, and for the whole set the gallery (index.html and
// README.md). It reads and writes nothing itself.
package site

import (
	"cmp"
	"fmt"
	"io/fs"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
)

// File is one output file, at a slash-separated path relative to the
// output directory.
type File struct {
	Path string
	Data []byte
}

// SiteFiles are the files a build writes at the top of the output folder,
// beside the scenarios' folders; no scenario's folder may take their
// names.
var SiteFiles = []string{"index.html", "README.md"}

// TransfersCSV is the name of the side file with every transfer pair.
const TransfersCSV = "transfers.csv"

// pageFigures is the folder of a scenario that holds the step figures a
// page links instead of inlining (see linkSteps), in the page's form:
// transparent, following the page's light or dark colours.
const pageFigures = "page"

// Options tunes the site's files.
type Options struct {
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
}

// Scenario is one scenario as the site renders it.
type Scenario struct {
	// Name is the output folder name (scenario.Name of the file).
	Name string
	// Report is the report model.
	Report *report.Report
	// Figures are the drawn figures, sweep figures included.
	Figures []svg.Figure
	// Study holds the variants that sweep: and seeds: asked for, or is
	// nil when the scenario has neither.
	Study *sweep.Result
	// TransfersCSV is set when the scenario's folder has transfers.csv,
	// which a build leaves out past report.TransfersCSVLimit.
	TransfersCSV bool
}

// Site renders the files of one build, with one set of templates parsed
// once. It is safe for concurrent use.
type Site struct {
	opts  Options
	tmpls *siteTemplates
}

// New parses the templates opts names.
func New(opts Options) (*Site, error) {
	tmpls, err := parseTemplates(templateFS(opts.Templates))
	if err != nil {
		return nil, fmt.Errorf("cannot parse the page templates: %w", err)
	}
	return &Site{opts: opts, tmpls: tmpls}, nil
}

// Scenario renders sc's files — its figures in the Options' theme,
// report.md, the page form of its step figures when the page links them
// (page/), and index.html — and its gallery card; nav is its place in the
// gallery (PageLinks).
func (s *Site) Scenario(sc *Scenario, nav Page) ([]File, Card, error) {
	var files []File
	add := func(name string, data []byte) { files = append(files, File{Path: sc.Name + "/" + name, Data: data}) }
	for _, f := range sc.Figures {
		add(f.Name, f.File(s.opts.Theme))
	}
	md, err := report.MarkdownOf(sc.Report, report.Options{Templates: templateFS(s.opts.Templates), Study: sc.Study})
	if err != nil {
		return nil, Card{}, err
	}
	add("report.md", md)
	budget := cmp.Or(s.opts.InlineBudget, DefaultInlineBudget)
	if linkSteps(sc.Figures, budget) {
		// The page's images follow its colours, as its inline figures
		// do: they are the page's form, beside the files.
		for _, f := range sc.Figures {
			if f.Step >= 0 {
				add(pageFigures+"/"+f.Name, f.SVG)
			}
		}
	}
	body, headings, err := renderBody(md, sc.Figures, budget)
	if err != nil {
		return nil, Card{}, err
	}
	page, err := renderPage(s.tmpls, sc, body, headings, nav)
	if err != nil {
		return nil, Card{}, err
	}
	add("index.html", page)
	return files, card(sc), nil
}

// Index renders the site's index.html and README.md from the scenarios'
// cards, in gallery order.
func (s *Site) Index(cards []Card) ([]File, error) { return renderIndex(s.tmpls, cards) }

// PageLinks returns scenario i's place in the gallery and links to its
// neighbours, which parsing alone gives, so that a page can be rendered
// before the other scenarios are replayed.
func PageLinks(scens []*sim.Scenario, i int) Page {
	link := func(s *sim.Scenario) *Link {
		return &Link{Href: "../" + s.Name + "/index.html", Text: report.Title(s)}
	}
	p := Page{Position: i + 1, Total: len(scens)}
	if i > 0 {
		p.Prev = link(scens[i-1])
	}
	if i+1 < len(scens) {
		p.Next = link(scens[i+1])
	}
	return p
}
