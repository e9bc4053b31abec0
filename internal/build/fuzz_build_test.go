package build

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/scenario"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// buildBound is how long one small fuzzed scenario may take to build.
const buildBound = 3 * time.Second

// fuzzScenario writes a small scenario around the fuzzed strings: the
// title, about, two starting node names (also a probe and a rule label)
// and the name a step adds, with the step's note.
func fuzzScenario(title, about, a, b, added, note string) Input {
	src := fmt.Sprintf(`title: %q
about: %q
keys: 60
nodes: [%q, %q, c]
rules: [{rule: ring, vnodes: 8, label: %q}, modulo]
replicas: 2
probes: [%q, k1]
steps:
  - add: %q
    note: %q
  - fail: %q
  - remove: c
`, title, about, a, b, a, b, added, note, a)
	return Input{Path: "fuzz.yaml", Src: []byte(src)}
}

// plainAbout uses every construct of about's Markdown, so that the
// markup a plain build writes is known (baselineTags).
const plainAbout = "## Heading\n\nSome *emphasis*, **strong**, ~~struck~~, `code`, a [link](https://example.com) and ![a figure](step-0-rings.svg).\n\n> a quote\n\n- a list\n- of items\n\n1. numbered\n\n```\ncode block\n```\n\n---\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"

var baseline = sync.OnceValues(func() (map[string]bool, error) {
	files, err := Build([]Input{fuzzScenario("Plain", plainAbout, "a", "b", "d", "a note")}, Options{})
	tags := map[string]bool{}
	for _, f := range files {
		for tag := range markupTags(outputMarkup(f)) {
			tags[tag] = true
		}
	}
	return tags, err
})

// FuzzBuild builds small scenarios whose title, about, node names and
// note are fuzzed, and checks what a build promises of any input: it
// finishes within buildBound, every SVG is well-formed XML, data.json is
// valid JSON, and nothing in the HTML, the SVGs or report.md (rendered
// as the laxest Markdown pipeline would) is markup that came from the
// input: no script, event handler or javascript: URL (unsafeMarkup), and
// no element the input names that a plain build does not write.
func FuzzBuild(f *testing.F) {
	for _, seed := range [][6]string{
		{"Plain", plainAbout, "a", "b", "d", "a note"},
		{"<script>alert(1)</script>", "<iframe src=x></iframe>\n\n<svg onload=alert(1)>", "<b>x</b>", "\"><svg onload=alert(1)>", "<img src=x onerror=alert(1)>", "<script>alert(2)</script>"},
		{"[x](javascript:alert(1))", "[a](javascript:alert(1)) ![b](data:text/html,x) <a href=\"vbscript:x\">c</a>\n\n[r]: javascript:y", "https://evil.example", "$x^2$", "www.example.com", "[n](javascript:z)"},
		{"=cmd|' /C calc'!A0", strings.Repeat("> ", 16) + "deep", "=1+1", "@SUM(A1)", "+x", "-y"},
		{"T", strings.Repeat("[a](", 16), "a|b", "&amp;", "<!-- c -->", "a\tb"},
		{"T", strings.Repeat("*a _b ", 100) + "\n\n~~~~\n<style>x</style>", "<style>", "</div>", "<x-y z=1>", "`<code>`"},
		{"T", "<details open ontoggle=alert(1)>\n\n<math><mi>x</mi></math>\n\n<form action=x><input autofocus onfocus=y>", "<object>", "<embed>", "<template>", "<noscript>"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3], seed[4], seed[5])
	}
	tags, err := baseline()
	if err != nil {
		f.Fatalf("the plain scenario does not build: %v", err)
	}
	f.Fuzz(func(t *testing.T, title, about, a, b, added, note string) {
		in := fuzzScenario(title, about, a, b, added, note)
		if _, err := scenario.Parse(in.Path, in.Src, scenario.Options{}); err != nil {
			return // FuzzParse covers what does not parse
		}
		files := buildWithin(t, in)
		inputTags := markupTags(strings.Join([]string{title, about, a, b, added, note}, "\n"))
		for _, file := range files {
			checkFuzzedFile(t, file, inputTags, tags)
		}
	})
}

// buildWithin builds in and fails the test if it takes over buildBound
// (or errs); a build that hangs fails after ten times the bound.
func buildWithin(t *testing.T, in Input) []File {
	t.Helper()
	type result struct {
		files []File
		err   error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		files, err := Build([]Input{in}, Options{})
		done <- result{files, err}
	}()
	select {
	case r := <-done:
		if took := time.Since(start); took > buildBound {
			t.Errorf("the build took %s, over the bound of %s:\n%s", took, buildBound, in.Src)
		}
		if r.err != nil {
			t.Fatalf("a scenario that parses does not build: %v\n%s", r.err, in.Src)
		}
		return r.files
	case <-time.After(10 * buildBound):
		t.Fatalf("the build did not finish in %s:\n%s", 10*buildBound, in.Src)
		return nil
	}
}

// checkFuzzedFile checks one output file of a fuzzed build.
func checkFuzzedFile(t *testing.T, f File, inputTags, baseline map[string]bool) {
	t.Helper()
	switch {
	case strings.HasSuffix(f.Path, ".svg"):
		checkXML(t, f.Path, f.Data)
	case strings.HasSuffix(f.Path, ".json"):
		if !json.Valid(f.Data) {
			t.Errorf("%s is not valid JSON", f.Path)
		}
	}
	doc := outputMarkup(f)
	if doc == "" {
		return
	}
	for _, bad := range unsafeMarkup(doc) {
		t.Errorf("%s: %s", f.Path, bad)
	}
	for tag := range markupTags(doc) {
		if inputTags[tag] && !baseline[tag] {
			t.Errorf("%s: the input's <%s> is markup here", f.Path, tag)
		}
	}
}

// outputMarkup is a file as markup: HTML and SVG as they are, report.md
// and README.md rendered as the laxest pipeline would (mdToHTML); "" for
// data files.
func outputMarkup(f File) string {
	switch {
	case strings.HasSuffix(f.Path, ".html"), strings.HasSuffix(f.Path, ".svg"):
		return string(f.Data)
	case strings.HasSuffix(f.Path, ".md"):
		var buf bytes.Buffer
		if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe())).Convert(f.Data, &buf); err != nil {
			return "cannot render: " + err.Error()
		}
		return buf.String()
	}
	return ""
}

// markupTags lists the element names of the tags in doc: "<name" and
// "</name", lower-cased; comments and declarations as "!".
func markupTags(doc string) map[string]bool {
	tags := map[string]bool{}
	for i := strings.IndexByte(doc, '<'); i >= 0; i = strings.IndexByte(doc, '<') {
		doc = strings.TrimPrefix(doc[i+1:], "/")
		if strings.HasPrefix(doc, "!") {
			tags["!"] = true
			continue
		}
		j := 0
		for j < len(doc) && (doc[j] >= 'a' && doc[j] <= 'z' || doc[j] >= 'A' && doc[j] <= 'Z' || j > 0 && (doc[j] >= '0' && doc[j] <= '9' || doc[j] == '-' || doc[j] == ':')) {
			j++
		}
		if j > 0 {
			tags[strings.ToLower(doc[:j])] = true
		}
	}
	return tags
}

// TestMarkupTags checks the tag scanner the fuzz target relies on.
func TestMarkupTags(t *testing.T) {
	got := markupTags(`a <b>x</b> <svg:g id=1> &lt;i&gt; <!-- c --> <x-y/> 1 < 2 <3`)
	want := map[string]bool{"b": true, "svg:g": true, "!": true, "x-y": true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("markupTags = %v, want %v", got, want)
	}
}
