package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestDeterministic renders every scenario twice, from two replays, and
// compares the bytes.
func TestDeterministic(t *testing.T) {
	for _, s := range []func() *sim.Scenario{ringWalkthrough, replicated, hostile} {
		a, err := Files(replay(t, s()), testFigures(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Files(replay(t, s()), testFigures(), Options{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
				t.Errorf("%s: %s differs between two renderings", s().Name, a[i].Name)
			}
		}
	}
}

func TestFilesNames(t *testing.T) {
	files, err := Files(replay(t, replicated()), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Name)
	}
	if strings.Join(got, " ") != "report.md data.json steps.csv" {
		t.Errorf("files %v", got)
	}
}

// TestFigurePlacement checks that whole-run figures follow the summary,
// step figures sit in their step, and figures of unknown steps still
// appear.
func TestFigurePlacement(t *testing.T) {
	figs := append(testFigures(), svg.Figure{Name: "step-99.svg", Step: 99, Title: "Lost"})
	md, err := Markdown(replay(t, ringWalkthrough()), figs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	order := []string{"## Summary", "](history.svg)", "](balance.svg)", "## Step 0:", "## Step 1:",
		"](step-1-rings.svg)", "](step-1-strips.svg)", "## Step 2:", "## Other figures", "](step-99.svg)"}
	at := 0
	for _, want := range order {
		i := strings.Index(s[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order", want)
		}
		at += i
	}
}

func TestCustomTemplates(t *testing.T) {
	fsys := fstest.MapFS{MarkdownTemplate: {Data: []byte("{{esc .Title}}: {{count .Setup.Keys}} keys\n\n\n")}}
	md, err := Markdown(replay(t, ringWalkthrough()), nil, Options{Templates: fsys})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Ring: what a membership change costs: 900 keys\n"; string(md) != want {
		t.Errorf("got %q, want %q", md, want)
	}
	if _, err := Markdown(replay(t, ringWalkthrough()), nil, Options{Templates: fstest.MapFS{}}); err == nil {
		t.Error("no error for a template set without report.md.tmpl")
	}
}

func TestBadResults(t *testing.T) {
	dup := replay(t, ringWalkthrough())
	dup.Rules[1].Spec.Label = dup.Rules[0].Spec.Label
	for name, res := range map[string]*sim.Result{"nil": nil, "empty": {}, "duplicate labels": dup} {
		t.Run(name, func(t *testing.T) {
			if _, err := Files(res, nil, Options{}); err == nil {
				t.Error("no error")
			}
			if _, err := JSON(res); err == nil {
				t.Error("JSON: no error")
			}
			if _, err := CSV(res); err == nil {
				t.Error("CSV: no error")
			}
		})
	}
}

func TestFormat(t *testing.T) {
	check := func(t *testing.T, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	t.Run("count", func(t *testing.T) {
		check(t, count(0), "0")
		check(t, count(999), "999")
		check(t, count(1000), "1,000")
		check(t, count(1234567), "1,234,567")
		check(t, count(-12345), "-12,345")
	})
	t.Run("fixed", func(t *testing.T) {
		check(t, fixed(3, 0.0666666), "0.067")
		check(t, fixed(6, math.Copysign(0, -1)), "0.000000")
		check(t, fixed(1, -0.01), "0.0")
		check(t, fixed(2, math.NaN()), "—")
	})
	t.Run("percent", func(t *testing.T) {
		check(t, pct(0.1234), "12.3%")
		check(t, signedPct(0.015), "+1.5%")
		check(t, signedPct(-0.003), "−0.3%")
		check(t, signedPct(0.0001), "0.0%")
		check(t, times(2.6), "2.60×")
		check(t, times(math.NaN()), "—")
	})
	t.Run("words", func(t *testing.T) {
		check(t, plural(1, "key", "keys"), "1 key")
		check(t, plural(1200, "key", "keys"), "1,200 keys")
		check(t, list([]string{"a", "b", "c"}), "a, b and c")
		check(t, fingerprint(0xab), "00000000000000ab")
	})
}

// TestWords checks the step headings and recurrence phrases of the ring
// walkthrough.
func TestWords(t *testing.T) {
	r, err := Build(replay(t, ringWalkthrough()), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{0: "start with a, b, c, d, e", 2: "remove d (random)", 3: "add d",
		6: "points per node → 240", 7: "fail b", 8: "recover b", 10: "weight a → 2", 13: "fail b (random)"}
	for i, w := range want {
		if got := r.Steps[i].Change; got != w {
			t.Errorf("step %d: %q, want %q", i, got, w)
		}
	}
	if got := r.Steps[3].Rows[0].Recurrence; got != "returns to the placement of step 1" {
		t.Errorf("step 3 ring: %q", got)
	}
	if got := r.Summary[1].Recurrences; !strings.HasPrefix(got, "steps 4–6 repeat step 3") {
		t.Errorf("modulo recurrences: %q", got)
	}
	if !strings.HasPrefix(r.Comparison, "Over the 8 membership changes (steps 1–3, 7, 8, 11–13) ring moved 1,147 keys and modulo 6,043 (5.27× as many as ring). Over the 5 reconfigurations (steps 4–6, 9, 10) ring moved 2,523 keys and modulo 0.") {
		t.Errorf("comparison: %q", r.Comparison)
	}
}

// TestRuleNotes checks that a rule's remarks on a step appear as a list
// between the step's table and its transfers (then its loads).
func TestRuleNotes(t *testing.T) {
	res := replay(t, ringWalkthrough())
	res.Rules[1].Steps[2].Notes = []string{"cannot do <this>", "second"}
	md, err := Markdown(res, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "| — |\n\n- **modulo:** cannot do \\<this\\>\n- **modulo:** second\n\nWho ships keys to whom"
	if !strings.Contains(string(md), want) {
		t.Errorf("report.md lacks %q", want)
	}
}

// TestLargeCluster checks that past maxListed members a step names only
// the ends of its member list and the failed members, and that past
// maxLoadRows its load table keeps the members sim.Result.Notable picks
// and says which and how many it leaves out.
func TestLargeCluster(t *testing.T) {
	var ns []string
	for j := range 30 {
		ns = append(ns, fmt.Sprintf("n%02d", j))
	}
	s := &sim.Scenario{Name: "big", Title: "Big", Seed: 1, Keys: keys.KeySpec{Count: 3000}, Nodes: names(ns...),
		Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 8}, {Kind: "jump"}}, Replicas: 1,
		Steps: []timeline.Step{{Op: timeline.OpFail, Nodes: names("n03", "n07")}, {Op: timeline.OpAdd, Nodes: names("x")}}}
	res := replay(t, s)
	sec := stepSection(res, 2, columnsOf(res))
	if want := "n00, n01, n02, … 25 more …, n28, n29, x; failed: n03, n07"; sec.Members != want || !sec.MembersShort || sec.MemberCount != 31 {
		t.Errorf("members %q (%d, short %v), want %q (31, short)", sec.Members, sec.MemberCount, sec.MembersShort, want)
	}
	if got, want := setup(res).Nodes, "n00, n01, n02, … 24 more …, n27, n28, n29"; got != want {
		t.Errorf("setup names %q, want %q", got, want)
	}
	notable := figdata.Notable(res, 2, []int{0, 1}, loadExtremes, maxLoadRows-1)
	var want []string
	for _, m := range notable {
		want = append(want, res.Timeline.Nodes[m.ID])
	}
	var got []string
	for _, row := range sec.Loads.Rows {
		got = append(got, row.Node)
	}
	if !slices.Equal(got, want) || !slices.Contains(got, "x") || !slices.Contains(got, "n07") {
		t.Errorf("load table rows %v, want %v with x and n07", got, want)
	}
	if sec.Loads.Members != 31 || sec.Loads.Omitted != 31-len(want) {
		t.Errorf("load table of %d members omits %d, want 31 and %d", sec.Loads.Members, sec.Loads.Omitted, 31-len(want))
	}
	if want := "the node the step acts on, the 2 failed nodes and the 2 most and 2 least loaded under each rule"; sec.Loads.Scope != want {
		t.Errorf("scope %q, want %q", sec.Loads.Scope, want)
	}
	md, err := Markdown(res, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("), for %d of the 31 nodes: the node the step acts on, ", len(want)); !strings.Contains(string(md), want) {
		t.Errorf("report.md lacks %q", want)
	}
	// Up to maxLoadRows members, everyone.
	walk := replay(t, ringWalkthrough())
	small := stepSection(walk, 1, columnsOf(walk))
	if len(small.Loads.Rows) != 6 || small.Loads.Omitted != 0 || small.Loads.Scope != "" || small.MembersShort {
		t.Errorf("six members: %d rows, %d omitted, scope %q", len(small.Loads.Rows), small.Loads.Omitted, small.Loads.Scope)
	}
}
