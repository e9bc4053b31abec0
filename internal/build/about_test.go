package build

import (
	"strings"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/scenario"
	"go.yaml.in/yaml/v3"
)

// TestBuildAboutAtTheLimit builds scenarios whose about: is as large and
// as awkward as the parser accepts — a figure named on every line,
// quotes at the nesting limit with lazy lines, emphasis runs at the
// limit in every paragraph — and checks that each page builds quickly,
// holds each figure's SVG once, and has no markup from the text.
func TestBuildAboutAtTheLimit(t *testing.T) {
	n := int(scenario.DefaultLimits.AboutBytes)
	fill := func(unit string) string { return strings.Repeat(unit, n/len(unit)) }
	for name, about := range map[string]string{
		"figures": fill("![x](step-0-rings.svg) <script>x</script>\n\n"),
		"quotes":  strings.Repeat("> ", scenario.MaxMarkdownDepth-1) + "a\n" + fill("b [x](javascript:y)\n")[:n-2*scenario.MaxMarkdownDepth-10],
		"runs":    fill(strings.Repeat("a*b ", scenario.MaxMarkdownRuns/2) + "<img src=x onerror=y>\n\n"),
	} {
		about = about[:min(len(about), n)]
		src, err := yaml.Marshal(map[string]any{"title": name, "keys": 100, "nodes": []string{"a", "b"}, "about": about})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		files, err := Build([]Input{{Path: name + ".yaml", Src: src}}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: build took %v", name, d)
		}
		m := fileMap(t, files)
		page := string(m[name+"/index.html"])
		ring := string(m[name+"/step-0-rings.svg"])
		if i := strings.Index(ring, "<svg"); i < 0 || strings.Count(page, ring[i:i+200]) != 1 {
			t.Errorf("%s: the rings figure is not inlined exactly once", name)
		}
		for _, bad := range unsafeMarkup(page) {
			t.Errorf("%s: page: %s", name, bad)
		}
		for _, bad := range unsafeMarkup(mdToHTML(t, m[name+"/report.md"])) {
			t.Errorf("%s: report.md rendered with raw HTML allowed: %s", name, bad)
		}
	}
}
