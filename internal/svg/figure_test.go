package svg

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/golden"

	"github.com/ringreport/ringreport/internal/sim"
)

var (
	dump = flag.String("dump", "", "also write every figure into this directory")
)

func nodes(names ...string) []timeline.NodeSpec {
	var ns []timeline.NodeSpec
	for _, n := range names {
		ns = append(ns, timeline.NodeSpec{Name: n})
	}
	return ns
}

// walkthrough is the "Ring" walkthrough on k keys: five nodes, a ring and
// modulo, then add f; fail b; recover b; vnodes 1.
func walkthrough(name string, k int) *sim.Scenario {
	return &sim.Scenario{
		Name:     name,
		Title:    "Ring walkthrough",
		Seed:     1,
		Keys:     keys.KeySpec{Count: k},
		Nodes:    nodes("a", "b", "c", "d", "e"),
		Rules:    []placer.RuleSpec{{Kind: "ring"}, {Kind: "modulo"}},
		Replicas: 1,
		Steps: []timeline.Step{
			{Op: timeline.OpAdd, Nodes: nodes("f")},
			{Op: timeline.OpFail, Nodes: nodes("b")},
			{Op: timeline.OpRecover, Nodes: nodes("b")},
			{Op: timeline.OpVNodes, Value: 1},
		},
	}
}

func replay(t testing.TB, s *sim.Scenario) []Figure {
	t.Helper()
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := Figures(res)
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

func TestGolden(t *testing.T) {
	for _, s := range []*sim.Scenario{walkthrough("ring", 900), walkthrough("ring-100k", 100_000)} {
		t.Run(s.Name, func(t *testing.T) {
			figs := replay(t, s)
			want := []string{"step-0-rings.svg", "step-1-rings.svg", "step-1-strips.svg", "step-2-rings.svg", "step-2-strips.svg",
				"step-3-rings.svg", "step-3-strips.svg", "step-4-rings.svg", "step-4-strips.svg", "history.svg", "balance.svg", "deviation.svg", "transfers.svg"}
			var got []string
			for _, f := range figs {
				got = append(got, f.Name)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("figures %v, want %v", got, want)
			}
			for _, f := range figs {
				checkFigure(t, f)
				golden.Check(t, filepath.Join("testdata", "golden", s.Name, f.Name), f.File(Light))
				if *dump != "" {
					dir := filepath.Join(*dump, s.Name)
					os.MkdirAll(dir, 0o755)
					if err := os.WriteFile(filepath.Join(dir, f.Name), f.File(Light), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// checkFigure asserts what every figure must have: metadata, a root svg
// with viewBox, title and desc, no prolog, and well-formed XML.
func checkFigure(t *testing.T, f Figure) {
	t.Helper()
	if f.Title == "" || f.Caption == "" || f.Kind == "" {
		t.Errorf("%s: missing title, caption or kind", f.Name)
	}
	if !bytes.HasPrefix(f.SVG, []byte("<svg")) {
		t.Errorf("%s: does not start with <svg: %.40q", f.Name, f.SVG)
	}
	for _, s := range []string{"viewBox=", "<title>", "<desc>", "prefers-color-scheme: dark"} {
		if !bytes.Contains(f.SVG, []byte(s)) {
			t.Errorf("%s: lacks %s", f.Name, s)
		}
	}
	if err := wellFormed(f.SVG); err != nil {
		t.Errorf("%s: %v", f.Name, err)
	}
}

func wellFormed(b []byte) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func TestHostileNames(t *testing.T) {
	evil := `<script>alert("x")</script> & 'q'`
	s := walkthrough(`evil"name&<x>`, 300)
	s.Title = evil
	s.Nodes = nodes(`a"b`, "<script>", "c&d", evil, "e'")
	s.Steps = []timeline.Step{{Op: timeline.OpAdd, Nodes: nodes(`f"><g onload="x`)}, {Op: timeline.OpFail, Nodes: nodes("<script>")}}
	s.Rules = []placer.RuleSpec{{Kind: "ring", Label: `r"<b>&`}, {Kind: "modulo", Label: "<m>"}}
	for _, f := range replay(t, s) {
		checkFigure(t, f)
		for _, bad := range []string{"<script", `"x"`, "onload=\"x", "<b>", "<m>", "&'", "& "} {
			if bytes.Contains(f.SVG, []byte(bad)) {
				t.Errorf("%s: contains unescaped %q", f.Name, bad)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, b := replay(t, walkthrough("ring", 900)), replay(t, walkthrough("ring", 900))
	for i := range a {
		if !bytes.Equal(a[i].SVG, b[i].SVG) {
			t.Errorf("%s differs between two renders", a[i].Name)
		}
	}
}

func TestSizeBound(t *testing.T) {
	if testing.Short() {
		t.Skip("replays a million keys")
	}
	for _, f := range replay(t, walkthrough("million", 1_000_000)) {
		limit := 150 << 10
		if f.Kind == "strips" {
			limit = 50 << 10
		}
		t.Logf("%s: %d bytes", f.Name, len(f.SVG))
		if len(f.SVG) > limit {
			t.Errorf("%s: %d bytes, want at most %d", f.Name, len(f.SVG), limit)
		}
	}
}

func TestManyNodesAndRules(t *testing.T) {
	s := walkthrough("many", 2000)
	var names []string
	for i := range 20 {
		names = append(names, "cache-node-"+string(rune('a'+i))+"-with-a-long-name")
	}
	s.Nodes = nodes(names[:19]...)
	s.Steps = []timeline.Step{{Op: timeline.OpAdd, Nodes: nodes(names[19])}, {Op: timeline.OpFail, Nodes: nodes(names[1], names[7])}}
	s.Rules = []placer.RuleSpec{{Kind: "ring"}, {Kind: "ring", VNodes: 10}, {Kind: "modulo"}, {Kind: "ring", VNodes: 1000}}
	for _, f := range replay(t, s) {
		checkFigure(t, f)
		if *dump != "" {
			os.MkdirAll(filepath.Join(*dump, "many"), 0o755)
			os.WriteFile(filepath.Join(*dump, "many", f.Name), f.File(Light), 0o644)
		}
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{num(1.005), "1"}, {num(-0.001), "0"}, {num(12.5), "12.5"}, {num(3), "3"},
		{commas(1234567), "1,234,567"}, {commas(-1000), "-1,000"}, {commas(999), "999"},
		{fit("abcdefghij", 30, 10), "abcd…"}, {fit("abc", 30, 10), "abc"},
		{tickLabel(2500, 500, false), "2,500"}, {tickLabel(0.05, 0.05, true), "5%"}, {tickLabel(0.025, 0.005, true), "2.5%"},
		{millionsLabel(0, 2e7), "0"}, {millionsLabel(4e7, 2e7), "40M"}, {millionsLabel(7.5e6, 5e5), "7.5M"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for _, c := range []struct{ raw, want float64 }{{0.7, 1}, {1.1, 2}, {3, 5}, {7, 10}, {140, 200}, {0.013, 0.02}} {
		if got := niceStep(c.raw); got != c.want {
			t.Errorf("niceStep(%v) = %v, want %v", c.raw, got, c.want)
		}
	}
	// A range from 0.79 to 1.22 gets ticks every 10% from 70% to 130%.
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if s := niceRange(0.79, 1.22, 5, 200, 0); !near(s.lo, 0.7) || !near(s.hi, 1.3) || s.step != 0.1 || !near(s.y(0.7), 200) || !near(s.y(1.3), 0) {
		t.Errorf("niceRange(0.79, 1.22) = %+v", s)
	}
}

// TestWheelKeysEveryRule: every wheel of arcs draws its keys, and the
// moved ones, whatever its hash; share wheels (Mosaic kinds) draw none.
func TestWheelKeysEveryRule(t *testing.T) {
	var rules []placer.RuleSpec
	for _, k := range []string{"ring", "modulo", "jump", "rendezvous", "maglev", "multiprobe", "bounded", "ketama", "slots"} {
		rules = append(rules, placer.RuleSpec{Kind: k})
	}
	rules = append(rules, placer.RuleSpec{Kind: "ring", Hash: "xxhash64"})
	s := &sim.Scenario{Name: "dots", Title: "dots", Seed: 3, Keys: keys.KeySpec{Count: 400},
		Nodes: nodes("a", "b", "c", "d"), Rules: rules, Replicas: 1,
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: nodes("e")}}}
	arcs := 0
	for _, r := range rules {
		if !registry.KindOf(r.Kind).Mosaic {
			arcs++
		}
	}
	if arcs < 5 {
		t.Fatalf("%d rules with arcs", arcs)
	}
	for _, f := range replay(t, s) {
		if f.Name != "step-1-rings.svg" {
			continue
		}
		svg := string(f.SVG)
		if got := strings.Count(svg, `class="rr-key"`); got != arcs {
			t.Errorf("%d wheels with key dots, want %d", got, arcs)
		}
		if got := strings.Count(svg, `class="rr-hot"`); got != arcs {
			t.Errorf("%d wheels with moved-key dots, want %d", got, arcs)
		}
	}
}

// TestStepLabelsApart: under a long run the step numbers, shown every
// k-th step and at the last, never run into each other, and the last is
// always there (at 100 steps, "97" and "100" once read "97100").
func TestStepLabelsApart(t *testing.T) {
	for _, steps := range []int{4, 37, 100, 101} {
		s := walkthrough("long", 500)
		s.Steps = nil
		for j := range steps {
			if j%2 == 0 {
				s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpFail, Nodes: nodes("b")})
			} else {
				s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpRecover, Nodes: nodes("b")})
			}
		}
		res, err := sim.Replay(s)
		if err != nil {
			t.Fatal(err)
		}
		label := regexp.MustCompile(`<text x="([0-9.]+)" y="([0-9.]+)" class="rr-fg" text-anchor="middle" font-size="10" >([0-9]+)</text>`)
		byRow := map[string][][]string{}
		for _, m := range label.FindAllStringSubmatch(string(historyFigure(res).SVG), -1) {
			byRow[m[2]] = append(byRow[m[2]], m)
		}
		for y, row := range byRow {
			if last := row[len(row)-1][3]; last != strconv.Itoa(steps) {
				t.Errorf("%d steps, row y=%s: last label %s", steps, y, last)
			}
			for j := 1; j < len(row); j++ {
				x0, _ := strconv.ParseFloat(row[j-1][1], 64)
				x1, _ := strconv.ParseFloat(row[j][1], 64)
				if room := (textW(row[j-1][3], 10) + textW(row[j][3], 10)) / 2; x1-x0 < room {
					t.Errorf("%d steps: labels %s and %s are %.1f apart, need %.1f", steps, row[j-1][3], row[j][3], x1-x0, room)
				}
			}
		}
	}
}

// TestFigureOfMatchesFigures checks that drawing one figure gives the
// bytes Figures gives for it, for every figure of a replay.
func TestFigureOfMatchesFigures(t *testing.T) {
	s := walkthrough("w", 900)
	s.Migrations = []sim.Migration{{From: "ring", To: "modulo"}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := Figures(res)
	if err != nil {
		t.Fatal(err)
	}
	if figs[len(figs)-1].Kind != "migrations" {
		t.Fatalf("no migrations figure among %d", len(figs))
	}
	for _, want := range figs {
		got, ok, err := FigureOf(res, want.Kind, want.Step)
		if err != nil || !ok {
			t.Fatalf("FigureOf(%s, %d): %v, %v", want.Kind, want.Step, ok, err)
		}
		if got.Name != want.Name || !bytes.Equal(got.SVG, want.SVG) {
			t.Errorf("FigureOf(%s, %d) = %s, differs from Figures' %s", want.Kind, want.Step, got.Name, want.Name)
		}
	}
	if _, ok, _ := FigureOf(res, "strips", 0); ok {
		t.Error("FigureOf gave strips for step 0")
	}
}

// TestAvailabilityFigure: the availability figure is drawn when keys drop
// below quorum, says how many, and is absent otherwise.
func TestAvailabilityFigure(t *testing.T) {
	s := walkthrough("w", 900)
	s.Replicas = 3
	s.Steps = []timeline.Step{{Op: timeline.OpFail, Nodes: nodes("a", "b", "c", "d")}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	f, ok, err := FigureOf(res, "availability", -1)
	if err != nil || !ok {
		t.Fatalf("no availability figure with 4 of 5 nodes failed: %v", err)
	}
	checkFigure(t, f)
	below := res.Rules[0].Steps[1].BelowQuorum
	if below == 0 || !strings.Contains(f.Caption, commas(below)+" keys below quorum") {
		t.Errorf("caption %q does not give ring's %d keys below quorum", f.Caption, below)
	}
	if _, ok, _ := FigureOf(walkthroughResult(t), "availability", -1); ok {
		t.Error("an availability figure for a replay where every key keeps its quorum")
	}
}
