package browser

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// embedCase is a file of testdata/embed and what embedFindings and then
// the pixel anchor (anchorFindings) must report about it: a part of each
// message, in order.
type embedCase struct {
	file string
	want []string
}

// embedCases are the files of testdata/embed; restyledCase is checked
// as the first of them restyled.
var embedCases = []embedCase{
	{"follows-reader.svg", []string{"follows-reader.svg: its colours follow the reader: a rule under @media (prefers-color-scheme: dark) in its style sheet 0",
		"follows-reader.svg: drawn as an image, its pixel (0, 0) is rgba[17 17 17 255] in the dark scheme and rgba[255 255 255 255] in the light: its colours follow the reader"}},
	{"good.svg", nil},
	{"see-through.svg", []string{"(light scheme): embedded as an image, the page shows through it: its first <rect> does not cover it: it covers (0, 0)–(300, 199) of 300 × 200 px",
		"see-through.svg (light scheme): drawn as an image, its pixel (0, 199) has alpha 0: the page shows through it"}},
	{"fractional.svg", []string{"(light scheme): embedded as an image, the page shows through it: it is 300.5 × 200 px, and its last column or row is drawn in part",
		"fractional.svg (light scheme): drawn as an image, its pixel (300, 0) has alpha "}},
	{"faded.svg", []string{"(light scheme): embedded as an image, the page shows through it: its first <rect> does not cover it: it is in a <g> of opacity 0.9",
		"faded.svg (light scheme): drawn as an image, its pixel (0, 0) has alpha 230: the page shows through it"}},
	{"quietly-follows.svg", []string{
		"quietly-follows.svg: its colours follow the reader: .bg in its style sheet 0 sets --paper to light-dark()",
		"quietly-follows.svg: its colours follow the reader: a rule under @media (prefers-color-scheme: dark) in its style sheet 0",
		"quietly-follows.svg: its colours follow the reader: the fill of a <rect> holds light-dark()",
		"quietly-follows.svg: its colours follow the reader: the style attribute of a <text> sets color-scheme: light dark",
		"in the light: its colours follow the reader", // at a pixel of its text, which antialiasing picks
		"quietly-follows.svg: the proofs and the pixels disagree on whether an image of it lets the page show through no pixel: the proofs say no, the pixels yes"}},
	{"hole-in-dark.svg", []string{"hole-in-dark.svg: its colours follow the reader: a rule under @media (prefers-color-scheme: dark) in its style sheet 0",
		"hole-in-dark.svg (dark scheme): drawn as an image, its pixel (0, 0) has alpha 0: the page shows through it",
		"hole-in-dark.svg: drawn as an image, its pixel (0, 0) is rgba[0 0 0 0] in the dark scheme and rgba[255 255 255 255] in the light: its colours follow the reader"}},
	{"elsewhere.svg", []string{
		"elsewhere.svg: an image of it may draw what this test does not read: style sheet 0: a rule under @media (max-width: 400px), which an image answers for its own viewport",
		"elsewhere.svg: an image of it may draw what this test does not read: style sheet 0: the selector :root .fg matches otherwise in an image",
		"elsewhere.svg (light scheme): drawn as an image, its pixel (0, 0) has alpha 0: the page shows through it",
		"elsewhere.svg: the proofs and the pixels disagree on whether an image of it draws the same in both schemes: the proofs say no, the pixels yes"}},
	{"low-on-page.svg", []string{`(light scheme): text "pale grey on white" has contrast 2.32:1`}},
	{"low-on-shape.svg", []string{`(light scheme): text "grey on a dark box" has contrast 1.`}},
	{"low-in-dark.svg", []string{"its colours follow the reader: a rule under @media (prefers-color-scheme: dark)", `(dark scheme): text "lost in the dark" has contrast 1.`,
		"low-in-dark.svg: drawn as an image, its pixel (0, 0) is rgba[17 17 17 255] in the dark scheme and rgba[255 255 255 255] in the light: its colours follow the reader"}},
	{"broken.svg", []string{"broken.svg (light scheme): is not an SVG document", "broken.svg: drawn as an image, it does not load"}},
}

// checkCatches runs embedFindings on embedCases, and draws every one of
// them for the pixel anchor: every check of the embedded figures must
// fail the file made to break it, and only that; every file that breaks
// the opacity or the scheme sameness of an image of it must fail its
// pixels too, and the pixels must agree with the proofs but where a case
// says they do not.
func checkCatches(t *testing.T, ctx context.Context) {
	dir, err := filepath.Abs(filepath.Join("testdata", "embed"))
	if err != nil {
		t.Fatal(err)
	}
	serve(t, dir).open(t, ctx)
	files := make([]figFile, len(embedCases))
	for i, c := range embedCases {
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		files[i] = figFile{rel: c.file, path: "0/" + c.file, text: b, schemes: schemesOf(b)}
	}
	got, verdicts := embedFindings(t, ctx, "catches", files)
	checkRestyled(t, ctx, dir, files[0]) // before the anchor drops the batch it restyles
	for _, msgs := range anchorFindings(t, ctx, files, verdicts) {
		got = append(got, msgs...)
	}
	for _, c := range embedCases {
		var mine []string
		for _, m := range got {
			if strings.HasPrefix(m, c.file+":") || strings.HasPrefix(m, c.file+" ") {
				mine = append(mine, m)
			}
		}
		ok := len(mine) == len(c.want)
		for i := 0; ok && i < len(mine); i++ {
			ok = strings.Contains(mine[i], c.want[i])
		}
		if !ok {
			t.Errorf("%s: the checks say\n\t%s\nwant messages with\n\t%s", c.file, strings.Join(mine, "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
	for _, m := range got {
		if !slices.ContainsFunc(embedCases, func(c embedCase) bool { return strings.HasPrefix(m, c.file) }) {
			t.Errorf("a finding about no file of testdata/embed: %s", m)
		}
	}
}

// restyledCase is a file of testdata/embed/restyled that differs from the
// first of embedCases only in its style sheet, and what embedFindings
// must report about it: a text of low contrast in its own colours, and
// not that its colours follow the reader, as those of the file it is
// made from do.
var restyledCase = embedCase{"restyled/follows-reader.svg", []string{`restyled/follows-reader.svg (light scheme): text "legible in both schemes" has contrast 1.92:1`}}

// checkRestyled checks restyledCase as the file before it (first, the
// last batch's first file) restyled: embedFindings must read it in its
// own style.
func checkRestyled(t *testing.T, ctx context.Context, dir string, first figFile) {
	c := restyledCase
	b, err := os.ReadFile(filepath.Join(dir, c.file))
	if err != nil {
		t.Fatal(err)
	}
	f := figFile{rel: c.file, path: "0/" + c.file, text: b, schemes: schemesOf(b), restyle: restyles(first.text, b)}
	if !f.restyle {
		t.Fatalf("%s is not %s restyled", c.file, first.rel)
	}
	got, _ := embedFindings(t, ctx, "catches", []figFile{f})
	if len(got) != len(c.want) || !strings.HasPrefix(got[0], c.want[0]) {
		t.Errorf("%s: the checks say\n\t%s\nwant\n\t%s", c.file, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
	}
}

// schemeCase is a page of testdata/scheme and what schemeProof must find
// in it: a part of each message, in order.
type schemeCase struct {
	file string
	want []string
}

// schemeCases are the pages of testdata/scheme.
var schemeCases = []schemeCase{
	{"good.html", nil},
	{"dark-padding.html", []string{"main in style sheet 0: a prefers-color-scheme rule sets padding"}},
	{"dark-font-size.html", []string{"p in style sheet 0: a prefers-color-scheme rule sets font-size", "h1 in style sheet 1: a prefers-color-scheme rule sets margin-top"}},
	{"dark-variable.html", []string{`--gap, which follows the colour scheme, is set to "1rem"`, `--gap, which follows the colour scheme, is set to "2rem"`,
		"main in style sheet 0: padding reads --gap", ".bar in style sheet 0: --copy takes its value from --fg", "the style attribute of a <main>: width reads --fg"}},
	{"dark-source.html", []string{"a CSSFontFaceRule under a prefers-color-scheme query", "a <source> whose media follow the colour scheme"}},
}

// checkSchemeCatches runs schemeProof on schemeCases: it must find what
// each page's dark scheme could change in its layout, and nothing in a
// page whose dark scheme changes colours only.
func checkSchemeCatches(t *testing.T, ctx context.Context) {
	for _, c := range schemeCases {
		page, err := filepath.Abs(filepath.Join("testdata", "scheme", c.file))
		if err != nil {
			t.Fatal(err)
		}
		open(t, ctx, page)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string]("("+schemeProof+")()"))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		ok := len(got) == len(c.want)
		for i := 0; ok && i < len(got); i++ {
			ok = strings.Contains(got[i], c.want[i])
		}
		if !ok {
			t.Errorf("%s: schemeProof says\n\t%s\nwant messages with\n\t%s", c.file, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
}
