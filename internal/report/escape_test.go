package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

func TestEscape(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"script", "<script>alert(1)</script>", `\<script\>alert(1)\</script\>`},
		{"pipe", "a|b", `a\|b`},
		{"attribute", `"><svg onload=x>`, `"\>\<svg onload=x\>`},
		{"emphasis", "*a* _b_ `c` ~d~", "\\*a\\* \\_b\\_ \\`c\\` \\~d\\~"},
		{"link", "[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"entity", "&lt; &amp;", `\&lt; \&amp;`},
		{"backslash", `a\|b`, `a\\\|b`},
		{"heading closer", "C #", `C \#`},
		{"white space", "  a\n\tb\r\n\x00c  ", "a b c"},
		{"plain", "cache-01.eu", "cache-01.eu"},
		{"unicode", "nœud → ✓", "nœud → ✓"},
		{"math", "$x$ and $$y$$", `\$x\$ and \$\$y\$\$`},
		{"url", "https://evil.example/a", `https\://evil.example/a`},
		{"www", "WWW.evil.example", `WWW\.evil.example`},
		{"colon", "zone:a", "zone:a"},
		{"dots", "cache-01.eu.www", "cache-01.eu.www"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Escape(tt.in); got != tt.want {
				t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// hostile is a scenario whose every user string tries to break the
// Markdown or inject HTML.
func hostile() *sim.Scenario {
	return &sim.Scenario{
		Name:     "hostile",
		Title:    "<script>alert(1)</script> | *title*",
		Seed:     3,
		Keys:     keys.KeySpec{Count: 50},
		Nodes:    names("<script>alert(1)</script>", "a|b", `"><svg onload=x>`, "[x](javascript:y)", "https://evil.example/x", "www.evil.example", "$x^2$"),
		Rules:    []placer.RuleSpec{{Kind: "ring", Label: "<b>r|ng</b>", VNodes: 8}, {Kind: "modulo", Label: "`m`\\"}},
		Replicas: 2,
		Probes:   []string{"<img src=x onerror=y>", "p|q"},
		Steps: []timeline.Step{
			{Op: timeline.OpAdd, Nodes: names("&amp;<i>"), Note: "<script>alert(2)</script>\n| a | b |"},
			{Op: timeline.OpFail, Nodes: names("a|b")},
		},
	}
}

// TestHostileNames renders the hostile scenario to HTML the way the site
// will (goldmark, GFM, safe mode) and checks that no tag got through and
// that every table row has as many cells as its header.
func TestHostileNames(t *testing.T) {
	md, err := Markdown(replay(t, hostile()), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := toHTML(t, md)
	for _, bad := range []string{"<script", "<svg", "<img", "<b>", "<i>", "<code>", "href=\"javascript", "<a href"} {
		if strings.Contains(out, bad) {
			t.Errorf("HTML contains %q:\n%s", bad, out)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt;", "a|b", "&amp;amp;&lt;i&gt;"} {
		if !strings.Contains(out, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	golden.Tables(t, out)
	// GitHub renders $…$ as math: every dollar sign in report.md is escaped.
	if i := bytes.IndexFunc(md, func(r rune) bool { return r == '$' }); i >= 0 && (i == 0 || md[i-1] != '\\') {
		t.Errorf("report.md has an unescaped $ at byte %d", i)
	}
}

// toHTML converts Markdown the way the site will: goldmark with GFM and
// its safe default (raw HTML omitted).
func toHTML(t *testing.T, md []byte) string {
	t.Helper()
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md, &html); err != nil {
		t.Fatal(err)
	}
	return html.String()
}
