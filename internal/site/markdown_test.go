package site

import (
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/svg"
)

func TestRenderBody(t *testing.T) {
	figs := []svg.Figure{
		{Name: "history.svg", Kind: "history", SVG: []byte(`<?xml version="1.0"?>` + "\n" + `<svg id="h"><title>H</title></svg>`)},
		{Name: "step-1-rings.svg", Kind: "rings", SVG: []byte(`<svg id="r1"></svg>`)},
	}
	md := "# T\n\n## Setup\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n" +
		"![History](history.svg)\n\n*How to read it, with **bold**.*\n\n" +
		"## Step 1: add c\n\n![Rings](step-1-rings.svg)\n\nNo caption here.\n\n" +
		"![Elsewhere](other.svg)\n\nText with an inline ![x](history.svg) figure.\n\n<script>alert(1)</script>\n"
	body, heads, err := renderBody([]byte(md), figs, DefaultInlineBudget)
	if err != nil {
		t.Fatal(err)
	}
	html := string(body)
	for _, want := range []string{
		"<figure class=\"fig fig-history\" id=\"fig-history\" tabindex=\"0\">\n<svg id=\"h\"><title>H</title></svg>\n<figcaption>How to read it, with <strong>bold</strong>.</figcaption>\n</figure>",
		"<figure class=\"fig fig-rings\" id=\"fig-step-1-rings\" tabindex=\"0\">\n<svg id=\"r1\"></svg>\n</figure>\n<p>No caption here.</p>",
		`<h2 id="step-1">Step 1: add c</h2>`,
		`<h2 id="setup">Setup</h2>`,
		`<div class="scroll" tabindex="0" role="region" aria-label="Table (scrolls sideways)">` + "\n<table>",
		`<img src="other.svg" alt="Elsewhere">`,
		`inline <img src="history.svg" alt="x"> figure`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("body lacks %q\n%s", want, html)
		}
	}
	if strings.Contains(html, "<?xml") || strings.Contains(html, "<script") {
		t.Errorf("body has an XML prolog or raw HTML:\n%s", html)
	}
	want := []Heading{{ID: "setup", Text: "Setup", Short: "Setup", Step: -1}, {ID: "step-1", Text: "Step 1: add c", Short: "add c", Step: 1}}
	if len(heads) != len(want) {
		t.Fatalf("headings = %+v, want %+v", heads, want)
	}
	for i := range want {
		if heads[i] != want[i] {
			t.Errorf("heading %d = %+v, want %+v", i, heads[i], want[i])
		}
	}
}

// TestRenderBodyConcurrent converts on several goroutines with the one
// shared goldmark instance (run with -race).
func TestRenderBodyConcurrent(t *testing.T) {
	figs := []svg.Figure{{Name: "a.svg", Kind: "history", SVG: []byte("<svg></svg>")}}
	done := make(chan string, 8)
	for range 8 {
		go func() {
			b, _, _ := renderBody([]byte("## Step 2: x\n\n![A](a.svg)\n"), figs, DefaultInlineBudget)
			done <- string(b)
		}()
	}
	first := <-done
	for range 7 {
		if got := <-done; got != first {
			t.Errorf("concurrent conversions differ:\n%s\n%s", first, got)
		}
	}
}

// TestRenderBodyLinksStepFigures: once a page's figures exceed the inline
// budget, step figures become lazily loaded images of their files, sized
// from their viewBox, while whole-run charts stay inline.
func TestRenderBodyLinksStepFigures(t *testing.T) {
	figs := []svg.Figure{
		{Name: "history.svg", Kind: "history", Step: -1, SVG: []byte(`<svg id="h"></svg>`)},
		{Name: "step-01-rings.svg", Kind: "rings", Step: 1, Title: `Step 1 (add "a&b")`,
			SVG: []byte(`<svg width="640.0" height="449.0" viewBox="0 0 640 449" role="img"></svg>`)},
	}
	total := len(figs[0].SVG) + len(figs[1].SVG)
	md := "![History](history.svg)\n\n## Step 1: add a\n\n![Rings](step-01-rings.svg)\n\n*Caption.*\n"
	inline, _, err := renderBody([]byte(md), figs, total)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(inline), "<img") {
		t.Errorf("a page exactly at its budget links figures:\n%s", inline)
	}
	linked, _, err := renderBody([]byte(md), figs, total-1)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<figure class=\"fig fig-history\" id=\"fig-history\" tabindex=\"0\">\n<svg id=\"h\"></svg>\n</figure>",
		"<figure class=\"fig fig-rings\" id=\"fig-step-01-rings\" tabindex=\"0\" aria-label=\"Step 1 (add &#34;a&amp;b&#34;)\">\n" +
			`<img src="page/step-01-rings.svg" alt="Step 1 (add &#34;a&amp;b&#34;)" width="640" height="449" loading="lazy" decoding="async">` +
			"\n<figcaption>Caption.</figcaption>\n</figure>",
	} {
		if !strings.Contains(string(linked), want) {
			t.Errorf("body lacks %q\n%s", want, linked)
		}
	}
}

// TestRenderBodyInlinesEachFigureOnce: an about: that names a figure
// thousands of times does not multiply the figure's SVG. Each figure is
// inlined once — where the report places it, or at its first reference
// when the report does not — and every other reference stays an image of
// the file, so the page grows with the references, not with their SVG.
func TestRenderBodyInlinesEachFigureOnce(t *testing.T) {
	big := "<svg id=\"h\">" + strings.Repeat("<path d=\"M0 0\"/>", 1000) + "</svg>"
	figs := []svg.Figure{
		{Name: "history.svg", Kind: "history", Step: -1, SVG: []byte(big)},
		{Name: "step-0-rings.svg", Kind: "rings", Step: 0, SVG: []byte(`<svg id="r0"></svg>`)},
	}
	about := strings.Repeat("![x](history.svg)\n\n![y](step-0-rings.svg)\n\n", 2000)
	md := "# T\n\n" + about + "## Summary\n\n![History](history.svg)\n\n*Caption.*\n\n## Step 0: start\n\nNo figure here.\n"
	body, _, err := renderBody([]byte(md), figs, DefaultInlineBudget)
	if err != nil {
		t.Fatal(err)
	}
	html := string(body)
	if n := strings.Count(html, `<svg id="h">`); n != 1 {
		t.Errorf("history.svg inlined %d times, want once", n)
	}
	if n := strings.Count(html, `<svg id="r0">`); n != 1 {
		t.Errorf("step-0-rings.svg inlined %d times, want once", n)
	}
	if n := strings.Count(html, `id="fig-history"`) + strings.Count(html, `id="fig-step-0-rings"`); n != 2 {
		t.Errorf("%d figure ids, want 2 (one each)", n)
	}
	// The report's own placement wins: the history chart is inlined in
	// the Summary with its caption, not in the about.
	if want := "<h2 id=\"summary\">Summary</h2>\n<figure class=\"fig fig-history\" id=\"fig-history\" tabindex=\"0\">\n" + big + "\n<figcaption>Caption.</figcaption>"; !strings.Contains(html, want) {
		t.Errorf("history.svg is not inlined where the report places it")
	}
	if n := strings.Count(html, `<img src="history.svg" alt="x">`); n != 2000 {
		t.Errorf("%d references to history.svg as images, want 2000", n)
	}
	if len(html) > len(md)*3+2*len(big) {
		t.Errorf("page is %d bytes for %d bytes of Markdown and %d of SVG", len(html), len(md), len(big))
	}
}

// TestRenderBodyAboutHeadings: headings in the about: text (before the
// first section, also inside a quote) get anchors of their own, so that
// the report's sections keep #summary and #step-1 and no id is used twice.
func TestRenderBodyAboutHeadings(t *testing.T) {
	md := "# T\n\n### Summary\n\n### Step 1\n\n> ### Setup\n\n## Setup\n\n## Summary\n\n## Step 1: add c\n\n### Summary\n"
	body, heads, err := renderBody([]byte(md), nil, DefaultInlineBudget)
	if err != nil {
		t.Fatal(err)
	}
	html := string(body)
	for _, want := range []string{`<h1 id="t">`, `<h3 id="about-summary">`, `<h3 id="about-step-1">`, `<h3 id="about-setup">`,
		`<h2 id="setup">`, `<h2 id="summary">`, `<h2 id="step-1">`, `<h3 id="summary-1">`} {
		if !strings.Contains(html, want) {
			t.Errorf("body lacks %s:\n%s", want, html)
		}
	}
	if len(heads) != 3 || heads[0].ID != "setup" || heads[1].ID != "summary" || heads[2].ID != "step-1" {
		t.Errorf("sections %+v", heads)
	}
}
