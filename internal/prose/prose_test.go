package prose

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
	"go.yaml.in/yaml/v3"
)

// laxHTML renders Markdown as the laxest pipeline would: GFM (tables,
// strikethrough, autolinked URLs) with raw HTML passed through.
func laxHTML(t testing.TB, src string) string {
	t.Helper()
	var buf bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(src), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// siteHTML renders Markdown as the site does (tables, strikethrough),
// raw HTML passed through so that a difference would show.
func siteHTML(t testing.TB, src string) string {
	t.Helper()
	var buf bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := gm.Convert([]byte(src), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

var spaceBetweenTags = regexp.MustCompile(`>\s+<`)

// normal makes two renderings comparable: white space between tags and
// at the ends does not count.
func normal(s string) string {
	return strings.TrimSpace(spaceBetweenTags.ReplaceAllString(s, "><"))
}

// faithful are Markdown texts that Safe must write out so that they
// render exactly as before.
var faithful = []string{
	"Plain words, with a comma; and a full stop.",
	"*em*, **strong**, ***both***, _under_, __strong__ and ~~struck~~ text.",
	"Code `a`, ``a ` b``, `` `x` ``, ` `` `, and `<script>` in code.",
	"A [link](https://example.com/a_b?q=1&r=2#frag \"a title\") and [relative](../x.md) and [anchor](#summary).",
	"An image ![alt *text*](step-0-rings.svg) and ![](history.svg \"t\").",
	"Autolinks <https://example.com/x> and <someone@example.com>.",
	"Escapes: \\*not em\\*, \\[not a link\\], 1 \\< 2, a\\_b, \\`tick\\`, back\\\\slash.",
	"Entities: &amp; &lt;b&gt; &copy; &#35; &#x41; and AT&T and a & b.",
	"Hard\\\nbreak and hard  \nbreak and soft\nbreak.",
	"Math-like $x$ and $$y$$ and 5$ and a | pipe.",
	"# Heading one\n\nText.\n\n###### Six",
	"- a\n- b\n  - c\n  - d\n- e",
	"1. one\n2. two\n\n   para in two\n3. three",
	"7. seven\n8. eight",
	"- a\n\n- b\n\n  more b",
	"- a\n- b\n\n* c\n* d",
	"1. a\n\n1) b",
	"> quoted\n> still\n>\n> - in a list\n>\n> > deeper",
	"```go\nfunc main() {\n\tfmt.Println(\"<b>\")\n}\n```",
	"~~~\nwith ``` inside\n~~~",
	"    indented code\n    <b>kept</b>",
	"***\n\n---\n\n___",
	"| a | b | c |\n|:--|:-:|--:|\n| 1 | `x\\|y` | *3* |\n| 4 | 5 |",
	"| a | b |\n|---|---|\n| `x|y` | c |",
	"Line one\n- not a list? yes a list",
	"1\\. not a list\n\n\\- not a list\n\n\\+ nor this\n\n\\# nor this\n\nnor \\= this",
	"Text\n\\=\\=\\=",
	"[ref]\n\n[ref]: https://example.com \"T\"",
	"- [ ] unchecked box\n- [x] checked box",
	"A line with trailing backslash \\\\\nnext.",
	"Émoji ✓ and 東京 and a\u00a0nbsp.",
	"**bold [link](https://x.example) inside** and [**link with bold**](https://y.example)",
	"www.example.com and https://example.com/x are bare URLs.",
	"<!-- a comment --> then text", // changes: shown as text (see hostile)
}

// TestSafeKeepsDocument: what Safe writes renders as its input did.
func TestSafeKeepsDocument(t *testing.T) {
	for _, src := range faithful {
		if strings.Contains(src, "<!--") || strings.HasPrefix(src, "#") {
			continue // changed on purpose: see TestSafeHostile and TestSafeHeadings
		}
		got := Safe(src)
		if a, b := normal(siteHTML(t, src)), normal(siteHTML(t, got)); a != b {
			t.Errorf("Safe(%q) = %q renders\n%s\nwant\n%s", src, got, b, a)
		}
		if again := Safe(got); again != got {
			t.Errorf("Safe is not idempotent on %q:\n%q\n%q", src, got, again)
		}
	}
}

// TestSafeExamples: every example scenario's about renders the same
// after Safe, and Safe changes none of its text.
func TestSafeExamples(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	if len(files) == 0 {
		t.Skip("no example scenarios")
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ About string }
		if err := yaml.Unmarshal(data, &doc); err != nil || doc.About == "" {
			continue
		}
		n++
		got := Safe(doc.About)
		if a, b := normal(siteHTML(t, doc.About)), normal(siteHTML(t, got)); a != b {
			t.Errorf("%s: the about renders differently after Safe:\n%s\nwant\n%s", f, b, a)
		}
		if got != strings.TrimSpace(doc.About) {
			t.Errorf("%s: Safe rewrote the about's text:\n%s", f, got)
		}
	}
	if n == 0 {
		t.Error("no example has an about")
	}
}

// TestSafeHeadings: headings start at level 3, below the report's own.
func TestSafeHeadings(t *testing.T) {
	for src, want := range map[string]string{
		"# A":             "### A",
		"## Step 1: x":    "### Step 1: x",
		"### C":           "### C",
		"#### D #":        "#### D",
		"Setext\n======":  "### Setext",
		"Setext\n------":  "### Setext",
		"## Summary {#x}": "### Summary {\\#x}",
	} {
		if got := Safe(src); got != want {
			t.Errorf("Safe(%q) = %q, want %q", src, got, want)
		}
	}
}

// hostile are Markdown texts that try to get raw HTML, a script or a
// dangerous link into an output, each with what the output must hold.
var hostile = map[string]string{
	"<script>alert(1)</script>":                           "&lt;script&gt;alert(1)&lt;/script&gt;",
	"a <img src=x onerror=alert(1)> b":                    "a &lt;img src=x onerror=alert(1)&gt; b",
	"<iframe src=\"https://evil.example\"></iframe>":      "&lt;iframe",
	"<div>\n<p onclick=x>block</p>\n</div>":               "&lt;div&gt;",
	"<!-- hidden --> <b>x</b>":                            "&lt;!-- hidden --&gt;",
	"<?php evil(); ?>":                                    "&lt;?php",
	"<![CDATA[ x ]]>":                                     "&lt;![CDATA[",
	"<!DOCTYPE html>":                                     "&lt;!DOCTYPE",
	"<style>body{display:none}</style>":                   "&lt;style&gt;",
	"<textarea>":                                          "&lt;textarea&gt;",
	"[x](javascript:alert(1))":                            "<p>x</p>",
	"[x](JaVaScRiPt:alert(1))":                            "<p>x</p>",
	"[x]( javascript:alert(1))":                           "<p>x</p>",
	"[x](&#106;avascript:alert(1))":                       "<p>x</p>",
	"[x](java&#x09;script:alert(1))":                      "<p>x</p>",
	"[x](<javascript:alert(1)>)":                          "<p>x</p>",
	"[x](vbscript:msgbox)":                                "<p>x</p>",
	"[x](data:text/html;base64,PHNjcmlwdD4=)":             "<p>x</p>",
	"[x](file:///etc/passwd)":                             "<p>x</p>",
	"![img](javascript:alert(1))":                         "<p>img</p>",
	"![img](data:image/svg+xml,<svg onload=alert(1)>)":    "<p>![img](data:image/svg+xml,&lt;svg onload=alert(1)&gt;)</p>",
	"[x](java	script:alert(1))":                           "<p>[x](java script:alert(1))</p>",
	"[x](page:1)":                                         "<p>x</p>",
	"<javascript:alert(1)>":                               "&lt;javascript:alert(1)&gt;",
	"[x][r]\n\n[r]: javascript:alert(1)":                  "<p>x</p>",
	"[r]\n\n[r]: <javascript:alert(1)>":                   "<p>r</p>",
	"[x](https://ok.example \"t\\\" onmouseover=\\\"x\")": `title="t&quot; onmouseover=&quot;x"`,
	"``` onload=x\ncode\n```":                             "<pre><code>code",
	"[a](https://ok.example/<script>)":                    `href="https://ok.example/%3Cscript%3E"`,
}

// TestSafeHostile: nothing of the hostile inputs gets through as markup,
// in a renderer that lets raw HTML through; each keeps its text.
func TestSafeHostile(t *testing.T) {
	for src, want := range hostile {
		got := Safe(src)
		out := laxHTML(t, got)
		for _, bad := range unsafeHTML(out) {
			t.Errorf("Safe(%q) = %q renders with %s:\n%s", src, got, bad, out)
		}
		if !strings.Contains(out, want) {
			t.Errorf("Safe(%q) = %q renders\n%s\nwant it to hold %q", src, got, out, want)
		}
	}
}

// TestSafeContained: whatever Safe writes ends where it ends — an open
// fence, HTML block, list, quote or table cannot take in the report that
// follows it.
func TestSafeContained(t *testing.T) {
	for _, src := range append(append([]string{
		"```\nunclosed fence", "~~~~\nunclosed", "<!-- unclosed comment", "<script>\nunclosed", "<pre>", "<div>",
		"- list\n  continued", "> quote", "| a |\n|---|\n| b |", "[r]: https://x.example", "para\\", "text\n===",
		"1. item", "<?", "<![CDATA[", "<!X", "    indented", "*open emphasis", "[open link", "`open code",
		"~~0~ 00~", "~~~a~~~", "*&#32;a*", "**&#32;a&#32;**", "*&#x2d; a*",
	}, faithful...), keysOf(hostile)...) {
		doc := "# Title\n\n" + Safe(src) + "\n\n## After\n\nTail [t](#a) *e*\n"
		out := laxHTML(t, doc)
		if !strings.HasSuffix(strings.TrimSpace(out), "<h2 id=\"after\">After</h2>\n<p>Tail <a href=\"#a\">t</a> <em>e</em></p>") &&
			!strings.HasSuffix(strings.TrimSpace(out), "<h2>After</h2>\n<p>Tail <a href=\"#a\">t</a> <em>e</em></p>") {
			t.Errorf("Safe(%q) = %q leaks into what follows:\n%s", src, Safe(src), out)
		}
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

var (
	tagRE  = regexp.MustCompile(`<(/?)([a-zA-Z0-9]+)([^>]*)>`)
	attrRE = regexp.MustCompile(`\s([a-zA-Z-]+)(?:="([^"]*)")?`)
)

// allowedTags are the elements Markdown itself makes.
var allowedTags = map[string]bool{
	"p": true, "em": true, "strong": true, "del": true, "a": true, "img": true, "code": true, "pre": true,
	"blockquote": true, "ul": true, "ol": true, "li": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "hr": true, "br": true, "table": true, "thead": true, "tbody": true, "tr": true,
	"th": true, "td": true, "input": true,
}

// unsafeHTML lists what in doc, HTML from a Markdown renderer, Markdown
// alone would not make: an element outside allowedTags, an attribute
// other than href, src, alt, title, start, align, class (language-*),
// id, or disabled/checked/type on a task list box, or a URL with a scheme
// other than http, https and mailto.
func unsafeHTML(doc string) []string {
	var bad []string
	if strings.Contains(doc, "<!--") {
		bad = append(bad, "an HTML comment")
	}
	for _, m := range tagRE.FindAllStringSubmatch(doc, -1) {
		tag := strings.ToLower(m[2])
		if !allowedTags[tag] {
			bad = append(bad, "a <"+tag+"> element")
			continue
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			name, val := strings.ToLower(a[1]), a[2]
			switch name {
			case "href", "src":
				if u := strings.ToLower(strings.TrimSpace(val)); strings.Contains(u, ":") {
					if !strings.HasPrefix(u, "http:") && !strings.HasPrefix(u, "https:") && !strings.HasPrefix(u, "mailto:") &&
						strings.IndexAny(u, ":") < strings.IndexAny(u+"/?#", "/?#") {
						bad = append(bad, fmt.Sprintf("the URL %s=%q", name, val))
					}
				}
			case "alt", "title", "start", "align", "id":
			case "style":
				if !regexp.MustCompile(`^text-align:(left|center|right)$`).MatchString(val) {
					bad = append(bad, fmt.Sprintf("style=%q", val))
				}
			case "class":
				if !strings.HasPrefix(val, "language-") {
					bad = append(bad, fmt.Sprintf("class=%q", val))
				}
			case "disabled", "checked", "type":
				if tag != "input" {
					bad = append(bad, name+" on <"+tag+">")
				}
			default:
				bad = append(bad, fmt.Sprintf("the attribute %s on <%s>", name, tag))
			}
		}
	}
	return bad
}

// TestUnsafeHTML checks the checker.
func TestUnsafeHTML(t *testing.T) {
	for doc, want := range map[string]int{
		`<p>a &lt;script&gt;</p>`:                    0,
		`<p><a href="https://x" title="t">x</a></p>`: 0,
		`<a href="javascript:x">`:                    1,
		`<img src="data:image/png,x" alt="">`:        1,
		`<a href="page.md#a:b">`:                     0,
		`<script>`:                                   1,
		`<p onclick="x">`:                            1,
		`<!-- x -->`:                                 1,
		`<pre><code class="language-go">`:            0,
	} {
		if got := unsafeHTML(doc); len(got) != want {
			t.Errorf("unsafeHTML(%q) = %q, want %d findings", doc, got, want)
		}
	}
}

// TestCheck: nesting past the limit is refused where it passes the limit;
// nesting at the limit, and realistic documents, are not.
func TestCheck(t *testing.T) {
	lim := Limits{Depth: 4, Runs: 10}
	for _, tc := range []struct {
		src       string
		line, col int // 0: accepted
		msg       string
	}{
		{"> > > > four", 0, 0, ""},
		{"> > > > > five", 1, 9, "a block quote or list item nested 5 deep"},
		{"intro\n\n>>>>>x", 3, 5, "a block quote or list item nested 5 deep"},
		{"- - - - four", 0, 0, ""},
		{"1. - > 2) - five", 1, 11, "a block quote or list item nested 5 deep"},
		{"- - - - - - - - - -", 0, 0, ""}, // a rule, not items
		{"[[[[x]]]]", 0, 0, ""},
		{"ab [[[[[x", 1, 8, "brackets nested 5 deep"},
		{"[a]([a]([a]([a]([a](", 1, 17, "brackets nested 5 deep"},
		{"[a](b) [c](d) [e](f) [g](h) [i](j) [k](l)", 0, 0, ""},
		{"[[[[\n\n[[[[", 0, 0, ""}, // a blank line ends a paragraph
		{"```\n[[[[[[[[\n```", 0, 0, ""},
		{"\\[\\[\\[\\[\\[\\[", 0, 0, ""},
		{"- a\n  - b\n    - c\n      - d", 0, 0, ""},
		{"- a\n  - b\n    - c\n      - d\n        - e", 5, 9, "a list item nested 5 deep"},
		{"*a **b *c **d e** f* g** h*", 0, 0, ""},
		{"*a **b *c **d ~~e~~** f* g** h*", 1, 15, "strikethrough nested 5 deep"},
		{"> - *a [**b**](x)*", 1, 9, "strong emphasis nested 5 deep"},
		{"*a* _b_ ~~c~~ **d** e", 0, 0, ""},
		{"a*b*c*d*e*f*g*h*i*j*k*l", 1, 22, "11 runs of"},
		{"a**b c* c* c* c* c* c* c* c* c* c*", 1, 34, "11 runs of"},
		{"a * b * c * d * e * f * g * h * i * j * k * l", 0, 0, ""}, // between spaces: not emphasis
		{"*a* _b_ ~~c~~ **d**\n\n*d* _e_ ~~f~~ **g**", 0, 0, ""},
		{"a*b*c*d*e*f\n*g*h*i*j*k*l", 2, 11, "11 runs of"},
	} {
		p := Check(tc.src, lim)
		switch {
		case tc.line == 0 && p != nil:
			t.Errorf("Check(%q) = %+v, want nil", tc.src, p)
		case tc.line != 0 && p == nil:
			t.Errorf("Check(%q) = nil, want a problem at %d:%d", tc.src, tc.line, tc.col)
		case tc.line != 0 && (p.Line != tc.line || p.Col != tc.col || !strings.HasPrefix(p.Msg, tc.msg)):
			t.Errorf("Check(%q) = %d:%d %s, want %d:%d %s", tc.src, p.Line, p.Col, p.Msg, tc.line, tc.col, tc.msg)
		}
	}
}

// TestSafeFallsBack: text nested past MaxDepth, which a caller of the Go
// API may pass without Check, comes out as escaped text.
func TestSafeFallsBack(t *testing.T) {
	src := strings.Repeat("> ", fallback.Depth+1) + "<b>deep</b> [x](javascript:y)"
	got := Safe(src)
	if got != `\> `+strings.Repeat("> ", fallback.Depth)+`\<b>deep\</b> \[x\](javascript:y)` {
		t.Errorf("Safe = %q", got)
	}
}

// FuzzSafe: whatever the input, Safe takes under a second, and its output
// renders with nothing but Markdown's own elements and safe URLs, even
// where raw HTML is allowed, and takes in nothing that follows it.
func FuzzSafe(f *testing.F) {
	for _, s := range faithful {
		f.Add(s)
	}
	for s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		got := Safe(src)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Safe took %v on %d bytes", d, len(src))
		}
		out := laxHTML(t, "# T\n\n"+got+"\n\n## After\n\nTail\n")
		if bad := unsafeHTML(out); len(bad) > 0 {
			t.Fatalf("Safe(%q) = %q renders with %v:\n%s", src, got, bad, out)
		}
		if !strings.HasSuffix(strings.TrimSpace(out), "<h2 id=\"after\">After</h2>\n<p>Tail</p>") && !strings.HasSuffix(strings.TrimSpace(out), "<h2>After</h2>\n<p>Tail</p>") {
			t.Fatalf("Safe(%q) = %q leaks into what follows:\n%s", src, got, out)
		}
	})
}
