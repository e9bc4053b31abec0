package report

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"text/template"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/templates"
)

// File is one rendered output file.
type File struct {
	// Name is the file name relative to the scenario's output directory.
	Name string
	// Data is the file's content.
	Data []byte
}

// Options configures rendering. The zero value is ready to use.
type Options struct {
	// Templates holds report.md.tmpl; nil means the embedded default
	// (templates.FS). A custom set must define the same template name and
	// may use the functions that Funcs returns.
	Templates fs.FS
	// Study, when non-nil, is what the scenario's sweep: and seeds:
	// measured (sweep.Execute); report.md then has a Sweep section or
	// seed bands, and data.json a "sweep" member. Everything else in
	// data.json, and steps.csv, stay the scenario as written.
	Study *sweep.Result
}

// MarkdownTemplate is the name of the template that renders report.md.
const MarkdownTemplate = "report.md.tmpl"

// Files renders one scenario's report files, figures excepted:
// "report.md", "data.json" and "steps.csv", in that order. figs are the
// scenario's figures (svg.Figures), which report.md references by their
// relative file names. res must come from sim.Replay.
func Files(res *sim.Result, figs []svg.Figure, opts Options) ([]File, error) {
	md, err := Markdown(res, figs, opts)
	if err != nil {
		return nil, err
	}
	js, err := JSONStudy(res, opts.Study)
	if err != nil {
		return nil, err
	}
	csv, err := CSV(res)
	if err != nil {
		return nil, err
	}
	return []File{{"report.md", md}, {"data.json", js}, {"steps.csv", csv}}, nil
}

// Markdown renders report.md: Build's model through the report.md.tmpl
// template of opts. The output is GitHub-flavoured Markdown ending in
// exactly one newline.
func Markdown(res *sim.Result, figs []svg.Figure, opts Options) ([]byte, error) {
	r, err := Build(res, figs)
	if err != nil {
		return nil, fmt.Errorf("cannot build the report: %w", err)
	}
	return MarkdownOf(r, opts)
}

// MarkdownOf renders report.md from a model Build made, for a caller that
// keeps the model too; it adds opts.Study to r.
func MarkdownOf(r *Report, opts Options) ([]byte, error) {
	// The study's sections go into a copy: the model stays as given.
	c := *r
	c.Figures = slices.Clone(r.Figures)
	addStudy(&c, opts.Study)
	r = &c
	tmpl, err := parse(opts)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := tmpl.ExecuteTemplate(&buf, MarkdownTemplate, r); err != nil {
		return nil, fmt.Errorf("cannot render %s: %w", MarkdownTemplate, err)
	}
	return append(bytes.TrimRight(buf.Bytes(), " \n"), '\n'), nil
}

// parse loads the Markdown template from opts.Templates or the default.
func parse(opts Options) (*template.Template, error) {
	fsys := opts.Templates
	if fsys == nil {
		fsys = templates.FS
	}
	tmpl, err := template.New(MarkdownTemplate).Funcs(Funcs()).ParseFS(fsys, MarkdownTemplate)
	if err != nil {
		return nil, fmt.Errorf("cannot parse the report template: %w", err)
	}
	return tmpl, nil
}

// Funcs returns the functions report templates may call:
//
//   - esc s: s escaped as plain text for a Markdown paragraph, heading or
//     table cell (see Escape)
//   - dest name: a file name as a Markdown link destination
//   - count n: an integer with thousands separators, 12,345
//   - fixed n x: x with exactly n decimals ("—" for NaN)
//   - grouped n x: fixed with thousands separators, 9,901.0
//   - pct x: a fraction as a percentage with one decimal, 12.3%
//   - signedPct x: pct with a sign for non-zero values, +1.5%, −0.3%
//   - times x: a ratio with two decimals, 2.60×
//   - plural n one many: "1 node", "3 nodes"
func Funcs() template.FuncMap {
	return template.FuncMap{
		"esc": esc, "dest": dest, "count": count, "fixed": fixed, "grouped": grouped, "pct": pct,
		"signedPct": signedPct, "times": times, "plural": plural, "round": round,
	}
}

// Escape makes s safe as plain text in Markdown: it backslash-escapes the
// characters that could start emphasis, code, links, raw HTML, entities or
// table cells and folds white space and control characters into single
// spaces, so that s cannot break a table row or inject HTML.
func Escape(s string) string { return esc(s) }
