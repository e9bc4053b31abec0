package browser

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// embedCase is a file of testdata/embed and what embedFindings must
// report about it: a part of each message, in order.
type embedCase struct {
	file string
	want []string
}

// embedCases are the files of testdata/embed.
var embedCases = []embedCase{
	{"good.svg", nil},
	{"see-through.svg", []string{"pixel (0, 199) has alpha 0: the page shows through it"}},
	{"fractional.svg", []string{"pixel (300, 0) has alpha"}},
	{"follows-reader.svg", []string{"its colours follow the reader"}},
	{"low-on-page.svg", []string{`(light scheme): text "pale grey on white" has contrast 2.32:1`}},
	{"low-on-shape.svg", []string{`(light scheme): text "grey on a dark box" has contrast 1.`}},
	{"low-in-dark.svg", []string{"its colours follow the reader", `(dark scheme): text "lost in the dark" has contrast 1.`}},
	{"broken.svg", []string{"(light scheme): does not load as an image", "(light scheme): is not an SVG document", "(dark scheme): does not load as an image"}},
}

// checkCatches runs embedFindings on embedCases: every check of the
// embedded figures must fail the file made to break it, and only that.
func checkCatches(t *testing.T, ctx context.Context) {
	dir, err := filepath.Abs(filepath.Join("testdata", "embed"))
	if err != nil {
		t.Fatal(err)
	}
	serve(t, dir).open(t, ctx)
	files := make([]figFile, len(embedCases))
	for i, c := range embedCases {
		files[i] = figFile{rel: c.file, schemes: schemesOf(t, filepath.Join(dir, c.file))}
	}
	got := embedFindings(t, ctx, "catches", files)
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
			t.Errorf("%s: embedFindings says\n\t%s\nwant messages with\n\t%s", c.file, strings.Join(mine, "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
	for _, m := range got {
		if !slices.ContainsFunc(embedCases, func(c embedCase) bool { return strings.HasPrefix(m, c.file) }) {
			t.Errorf("a finding about no file of testdata/embed: %s", m)
		}
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
