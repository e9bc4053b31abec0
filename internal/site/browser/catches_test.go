package browser

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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
	srv := serve(t, dir)
	files := make([]figFile, len(embedCases))
	for i, c := range embedCases {
		files[i] = figFile{rel: c.file, url: srv.url + "/site/" + c.file, schemes: schemesOf(t, filepath.Join(dir, c.file))}
	}
	got := embedFindings(t, ctx, srv, "catches", files)
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
