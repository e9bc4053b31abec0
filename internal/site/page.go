package site

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"strings"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/svg"
)

// Page is the model of a scenario's index.html (PageTemplate).
type Page struct {
	// Name is the scenario's folder name.
	Name string
	// Title is the scenario's title, plain text.
	Title string
	// Finding is the report's one-sentence summary (report.Finding).
	Finding string
	// Body is the report rendered as HTML with its figures inlined.
	Body template.HTML
	// Sections are the report's second-level headings, in order; step
	// sections have Step ≥ 0 and the id "step-N".
	Sections []Heading
	// Steps are the step sections alone.
	Steps []Heading
	// Summarised reports that the run has more steps than a report shows
	// in full (report.Report.Detail): Steps are those shown in full.
	Summarised bool
	// Prev and Next link the neighbouring scenarios in gallery order;
	// nil at either end.
	Prev, Next *Link
	// Position is the scenario's 1-based place in the gallery, of Total.
	Position, Total int
	// Files link the scenario's other outputs: report.md, data.json,
	// steps.csv, and transfers.csv and migrations.csv when written.
	Files []Link
	// TransfersCSV is set when the scenario's folder has transfers.csv
	// (every transfer pair of every step; a build leaves it out past
	// report.TransfersCSVLimit).
	TransfersCSV bool
}

// Link is one hyperlink.
type Link struct {
	// Href is a relative URL.
	Href string
	// Text is the link text, plain text.
	Text string
}

// Gallery is the model of the site's index.html (GalleryTemplate) and
// README.md (ReadmeTemplate).
type Gallery struct {
	// Cards hold one entry per scenario, in build order.
	Cards []Card
}

// Card is one scenario in the gallery.
type Card struct {
	// Name is the scenario's folder name; its page is Name/index.html
	// and its Markdown report Name/report.md.
	Name string
	// Title is the scenario's title, plain text.
	Title string
	// Finding is the one-sentence summary (report.Finding).
	Finding string
	// KeyValue is the number behind the finding, shown large, and
	// KeyLabel what it measures (report.Key); both "" when there is none.
	KeyValue, KeyLabel string
	// Keys, Nodes and Changes count the keys, the starting nodes and the
	// steps after step 0.
	Keys, Nodes, Changes int
	// Rules are the rules' labels.
	Rules []string
	// Thumb is the thumbnail figure's SVG, ready to inline.
	Thumb template.HTML
	// ThumbFile is the thumbnail's file name in the scenario's folder.
	ThumbFile string
	// ThumbTitle is the thumbnail's title, usable as alt text.
	ThumbTitle string
}

// renderPage renders sc's index.html from its report's HTML body and
// sections; nav holds its place in the gallery and its neighbours' links.
func renderPage(t *siteTemplates, sc *Scenario, body template.HTML, headings []Heading, nav Page) ([]byte, error) {
	p := nav
	p.Name, p.Title = sc.Name, sc.Report.Title
	p.Finding = report.Finding(sc.Report)
	p.Body, p.Sections = body, headings
	p.Summarised = sc.Report.Detail != nil
	p.Files = []Link{{"report.md", "report.md"}, {"data.json", "data.json"}, {"steps.csv", "steps.csv"}}
	if sc.TransfersCSV {
		p.Files = append(p.Files, Link{TransfersCSV, TransfersCSV})
		p.TransfersCSV = true
	}
	if len(sc.Report.Migrations) > 0 {
		p.Files = append(p.Files, Link{"migrations.csv", "migrations.csv"})
	}
	for _, h := range headings {
		if h.Step >= 0 {
			p.Steps = append(p.Steps, h)
		}
	}
	return execute(t.html, PageTemplate, p)
}

// renderIndex renders the site's index.html and README.md.
func renderIndex(t *siteTemplates, cards []Card) ([]File, error) {
	g := Gallery{Cards: cards}
	html, err := execute(t.html, GalleryTemplate, g)
	if err != nil {
		return nil, err
	}
	var md bytes.Buffer
	if err := t.readme.ExecuteTemplate(&md, ReadmeTemplate, g); err != nil {
		return nil, fmt.Errorf("cannot render %s: %w", ReadmeTemplate, err)
	}
	readme := append(bytes.TrimRight(md.Bytes(), " \n"), '\n')
	return []File{{"index.html", html}, {"README.md", readme}}, nil
}

// card describes one scenario for the gallery.
func card(sc *Scenario) Card {
	r := sc.Report
	c := Card{
		Name: sc.Name, Title: r.Title, Finding: report.Finding(r),
		Keys: r.Setup.Keys, Nodes: r.Setup.NodeCount, Changes: r.Setup.Changes,
	}
	for _, ru := range r.Rules {
		c.Rules = append(c.Rules, ru.Label)
	}
	if k, ok := report.Key(r); ok {
		c.KeyValue, c.KeyLabel = k.Value, k.Label
	}
	if f := thumbnail(sc.Figures); f != nil {
		// Our own SVG, drawn by package svg.
		c.Thumb = template.HTML(inlineSVG(f.SVG))
		c.ThumbFile, c.ThumbTitle = f.Name, f.Title
	}
	return c
}

// thumbnail picks a scenario's gallery figure: the history chart when
// there is one, else the first figure.
func thumbnail(figs []svg.Figure) *svg.Figure {
	for i := range figs {
		if figs[i].Kind == "history" {
			return &figs[i]
		}
	}
	if len(figs) > 0 {
		return &figs[0]
	}
	return nil
}

// execute runs the named template and normalizes the final newline.
func execute(t *template.Template, name string, data any) ([]byte, error) {
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		return nil, fmt.Errorf("cannot render %s: %w", name, err)
	}
	return append(bytes.TrimRight(buf.Bytes(), " \n"), '\n'), nil
}

// shortStep is a step heading's text without its "Step N: " prefix.
func shortStep(text string) string {
	if _, after, ok := strings.Cut(text, ": "); ok {
		return cmp.Or(after, text)
	}
	return text
}
