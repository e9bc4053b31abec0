package build

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// longName is a node name at the parser's length limit: whole in tables,
// shortened in figures, where its tooltip (<title>) has it whole.
var longName = "node-" + strings.Repeat("0123456789", 19) + "-end"

// hostileInput is a scenario whose every string tries to inject markup,
// a script, a link or a table cell.
func hostileInput() Input {
	src := fmt.Sprintf(`title: "<script>alert(1)</script> | [x](javascript:alert(1)) &amp; \"><svg onload=alert(1)>"
about: |
  An about with [a link](javascript:alert(1)), <img src=x onerror=alert(1)>,
  <script>alert(2)</script>, ![an image](javascript:alert(3)) and
  <a href="javascript:alert(4)">raw</a>.
keys: {count: 300, prefix: "<script>alert(1)</script>|"}
nodes: ["<script>alert(1)</script>", "\"><svg onload=alert(1)>", "a|b", "[x](javascript:alert(1))", "&amp;", %q]
rules:
  - {rule: ring, vnodes: 20, label: "<b onmouseover=alert(1)>r|ng</b>"}
  - {rule: modulo, label: "[m](javascript:alert(1))"}
replicas: 2
probes: ["<script>alert(1)</script>", "\"><svg onload=alert(1)>", "a|b", "&amp;"]
steps:
  - add: "<img src=x onerror=alert(1)>"
    note: "<script>alert(1)</script> | a | b | [x](javascript:alert(1))"
  - fail: "a|b"
  - remove: "&amp;"
`, longName)
	return Input{Path: "hostile.yaml", Src: []byte(src)}
}

// TestHostileSite builds the hostile scenario into a site and checks
// every file: no script, event handler or javascript: link got through,
// every SVG is well-formed XML, data.json is valid and keeps the names
// exactly, and every Markdown table row keeps its column count.
func TestHostileSite(t *testing.T) {
	files, err := Build([]Input{hostileInput(), smallInputs()[0]}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := fileMap(t, files)
	for _, p := range []string{"index.html", "README.md", "hostile/index.html", "hostile/report.md", "hostile/data.json", "hostile/steps.csv"} {
		if _, ok := m[p]; !ok {
			t.Fatalf("no %s", p)
		}
	}
	for p, data := range m {
		s := string(data)
		switch {
		case strings.HasSuffix(p, ".html"), strings.HasSuffix(p, ".svg"):
			for _, bad := range unsafeMarkup(s) {
				t.Errorf("%s: %s", p, bad)
			}
		case strings.HasSuffix(p, ".md"):
			html := mdToHTML(t, data)
			for _, bad := range unsafeMarkup(html) {
				t.Errorf("%s, rendered: %s", p, bad)
			}
			checkMarkdownTables(t, p, s)
		}
		if strings.HasSuffix(p, ".svg") {
			if text := checkXML(t, p, data); strings.Contains(text, longName) {
				t.Errorf("%s shows the long node name whole; figures shorten it", p)
			}
			if strings.HasPrefix(p, "hostile/") && strings.Contains(p, "rings") && !strings.Contains(s, ">"+longName+"</title>") {
				t.Errorf("%s: the shortened long node name has no tooltip with the whole name", p)
			}
		}
	}
	var data struct {
		Title string `json:"title"`
		Steps []struct {
			Nodes []string `json:"nodes"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(m["hostile/data.json"], &data); err != nil {
		t.Fatalf("data.json: %v", err)
	}
	if !strings.HasPrefix(data.Title, "<script>alert(1)</script> | ") || len(data.Steps) != 4 || len(data.Steps[0].Nodes) != 6 || data.Steps[0].Nodes[5] != longName {
		t.Errorf("data.json does not keep the names as data: %+v", data)
	}
	report := string(m["hostile/report.md"])
	for _, want := range []string{`\<script\>alert(1)\</script\>`, `a\|b`, `\[x\](javascript:alert(1))`, `\&amp;`, longName,
		`An about with a link, \<img src=x onerror=alert(1)>,`, `\<a href="javascript:alert(4)">raw\</a>.`} {
		if !strings.Contains(report, want) {
			t.Errorf("report.md lacks the escaped name %q", want)
		}
	}
	page := string(m["hostile/index.html"])
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "a|b", "&amp;amp;", longName,
		"An about with a link, &lt;img src=x onerror=alert(1)&gt;,", `<pre><code class="language-html">&lt;script&gt;alert(2)&lt;/script&gt;, ![an image](javascript:alert(3)) and`,
		`&lt;a href=&quot;javascript:alert(4)&quot;&gt;raw&lt;/a&gt;.`} {
		if !strings.Contains(page, want) {
			t.Errorf("hostile/index.html lacks %q", want)
		}
	}
	if i := strings.Index(page, `\&lt;`); i >= 0 {
		t.Errorf("hostile/index.html shows Markdown escapes as text: %q", page[max(0, i-60):i+20])
	}
	golden.Tables(t, page)
}

// mdToHTML renders Markdown as the laxest docs pipeline would: GFM with
// raw HTML passed through (MkDocs, Jekyll, Hugo with unsafe), so that
// report.md must be safe on its own.
func mdToHTML(t *testing.T, md []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe())).Convert(md, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// checkXML fails unless data is one well-formed XML document, and
// returns its visible text: the text of tooltips (<title>) and
// descriptions (<desc>) left out.
func checkXML(t *testing.T, name string, data []byte) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var text strings.Builder
	hidden := 0 // inside a <title> (a tooltip) or <desc>
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return text.String()
		}
		if err != nil {
			t.Errorf("%s is not well-formed XML: %v", name, err)
			return text.String()
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if tok.Name.Local == "title" || tok.Name.Local == "desc" {
				hidden++
			}
		case xml.EndElement:
			if tok.Name.Local == "title" || tok.Name.Local == "desc" {
				hidden--
			}
		case xml.CharData:
			if hidden == 0 {
				text.Write(tok)
				text.WriteByte(' ')
			}
		}
	}
}

// unsafeMarkup scans HTML or SVG tag by tag and lists what could run a
// script: a script, iframe, object or embed element, an on* attribute,
// or a javascript: URL in href, src or xlink:href. Attribute values are
// read as values, so escaped text inside them is not mistaken for markup.
func unsafeMarkup(doc string) []string {
	var bad []string
	for i := 0; i < len(doc); i++ {
		if doc[i] != '<' {
			continue
		}
		if strings.HasPrefix(doc[i:], "<!--") {
			i += max(0, strings.Index(doc[i:], "-->"))
			continue
		}
		j := i + 1
		for j < len(doc) && (isNameByte(doc[j]) || doc[j] == '/') {
			j++
		}
		tag := strings.ToLower(strings.TrimPrefix(doc[i+1:j], "/"))
		switch closing := i+1 < len(doc) && doc[i+1] == '/'; {
		case !closing && (tag == "script" || tag == "iframe" || tag == "object" || tag == "embed"):
			bad = append(bad, "a <"+tag+"> element")
		}
		for j < len(doc) && doc[j] != '>' {
			if !isNameByte(doc[j]) {
				j++
				continue
			}
			k := j
			for k < len(doc) && isNameByte(doc[k]) {
				k++
			}
			attr := strings.ToLower(doc[j:k])
			val := ""
			if k < len(doc) && doc[k] == '=' {
				k++
				if k < len(doc) && (doc[k] == '"' || doc[k] == '\'') {
					end := strings.IndexByte(doc[k+1:], doc[k])
					if end < 0 {
						return append(bad, "an unterminated attribute value")
					}
					val, k = doc[k+1:k+1+end], k+end+2
				} else {
					start := k
					for k < len(doc) && doc[k] != ' ' && doc[k] != '>' {
						k++
					}
					val = doc[start:k]
				}
			}
			if strings.HasPrefix(attr, "on") {
				bad = append(bad, fmt.Sprintf("an event handler %s=%q on <%s>", attr, val, tag))
			}
			if (attr == "href" || attr == "src" || attr == "xlink:href") && strings.HasPrefix(strings.ToLower(strings.TrimSpace(val)), "javascript:") {
				bad = append(bad, fmt.Sprintf("a javascript: URL in %s on <%s>", attr, tag))
			}
			j = k
		}
		if tag == "style" {
			if end := strings.Index(doc[j:], "</style>"); end >= 0 {
				j += end
			}
		}
		i = j
	}
	return bad
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == ':' || c == '_'
}

// TestUnsafeMarkup checks the checker.
func TestUnsafeMarkup(t *testing.T) {
	for doc, want := range map[string]int{
		`<p title="&lt;script&gt; onload=x">ok</p>`:   0,
		`<svg onload=alert(1)>`:                       1,
		`<a href=" JavaScript:alert(1)">x</a>`:        1,
		`<img src=x onerror='alert(1)'>`:              1,
		`<script>alert(1)</script>`:                   1,
		`<!-- <script> --><style>a<b{}</style><p>`:    0,
		`<use xlink:href="javascript:x"/><a href="">`: 1,
	} {
		if got := unsafeMarkup(doc); len(got) != want {
			t.Errorf("unsafeMarkup(%q) = %q, want %d findings", doc, got, want)
		}
	}
}

// checkMarkdownTables fails when a row of a GFM table has a different
// number of cells from its header; escaped pipes do not count.
func checkMarkdownTables(t *testing.T, name, md string) {
	t.Helper()
	header := -1
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			header = -1
			continue
		}
		n := cells(line)
		if header < 0 {
			header = n
		} else if n != header {
			t.Errorf("%s:%d: table row has %d cells, header %d: %s", name, i+1, n, header, line)
		}
	}
}

// cells counts the unescaped pipes of a table row, less one.
func cells(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}
