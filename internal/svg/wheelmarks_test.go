package svg

import (
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestProbesOnReplicationWheels: every wheel of replication.yaml, at
// every step and under every rule, marks both probes and lists each with
// its whole preference list, primary first, as data.json has it, and
// says what the list was when the step changed it.
func TestProbesOnReplicationWheels(t *testing.T) {
	res := exampleResult(t, "replication.yaml")
	if len(res.Scenario.Probes) != 2 {
		t.Fatalf("replication.yaml has %d probes, want 2", len(res.Scenario.Probes))
	}
	for i := range res.Timeline.States {
		f, _, err := FigureOf(res, "rings", i)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(f.SVG)
		for _, rr := range res.Rules {
			panel := panelOf(t, doc, rr.Spec.Label)
			if n := strings.Count(panel, `stroke-width="1.2"`); n != 2 {
				t.Errorf("step %d, %s: %d probe markers, want 2", i, rr.Spec.Label, n)
			}
			text := strings.Join(textsOf(panel), " ")
			for j, key := range res.Scenario.Probes {
				p := rr.Steps[i].Probes[j]
				want := key + " → " + ownerList(res, p.Owners)
				if i > 0 && !slices.Equal(p.Owners, rr.Steps[i-1].Probes[j].Owners) {
					want += " (was " + ownerList(res, rr.Steps[i-1].Probes[j].Owners) + ")"
				}
				if !strings.Contains(text, want) {
					t.Errorf("step %d, %s: no %q in %q", i, rr.Spec.Label, want, text)
				}
			}
		}
	}
}

func ownerList(res *sim.Result, ids []timeline.NodeID) string {
	var b strings.Builder
	for j, id := range ids {
		if j == 1 {
			b.WriteString(", then ")
		} else if j > 1 {
			b.WriteString(", ")
		}
		b.WriteString(res.Timeline.Nodes[id])
	}
	return b.String()
}

// panelOf returns the part of a rings figure that draws the panel of the
// rule labelled label.
func panelOf(t *testing.T, doc, label string) string {
	t.Helper()
	i := strings.Index(doc, "-rule-"+idPart(label)+`" >`)
	if i < 0 {
		t.Fatalf("no panel for %s", label)
	}
	rest := doc[i+1:]
	if j := strings.Index(rest, `-rule-`); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// textsOf returns the text of every <text> element, tags dropped.
func textsOf(doc string) []string {
	var out []string
	for _, m := range textElem.FindAllStringSubmatch(doc, -1) {
		out = append(out, strings.TrimSpace(tagRE.ReplaceAllString(m[1], "")))
	}
	return out
}

// TestFailedTerritoryHatched: when cache-2 fails in replication.yaml the
// ring wheel hatches exactly the arcs it owned the step before.
func TestFailedTerritoryHatched(t *testing.T) {
	res := exampleResult(t, "replication.yaml")
	ring := slices.IndexFunc(res.Rules, func(r sim.RuleResult) bool { return r.Spec.Kind == "ring" })
	id := timeline.NodeID(slices.Index(res.Timeline.Nodes, "cache-2"))
	f, _, err := FigureOf(res, "rings", 1)
	if err != nil {
		t.Fatal(err)
	}
	g := wheelLayout(res, 1)
	l := 2 * 3.141592653589793 * g.r
	want := dashes(arcSpans(figdata.Arcs(res, ring, 0), len(res.Timeline.Nodes), l)[id], l)
	panel := panelOf(t, string(f.SVG), res.Rules[ring].Spec.Label)
	hatched := regexp.MustCompile(`stroke="url\(#[^"]*-failed\)"[^>]*stroke-dasharray="([^"]*)"`).FindAllStringSubmatch(panel, -1)
	if len(hatched) != 1 || hatched[0][1] != want {
		t.Fatalf("hatched arcs %v, want one ring with cache-2's arcs of step 0 %.80q", hatched, want)
	}
	if f0, _, _ := FigureOf(res, "rings", 0); strings.Contains(string(f0.SVG), `-failed)" fill="none"`) {
		t.Error("step 0 hatches arcs, but no node is failed there")
	}
}

// TestChangedArcList: a random pair of arc lists gives, at every
// position, the new owner where the owner changed and NoNode elsewhere.
func TestChangedArcList(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	arcs := func() []placer.Arc {
		out := []placer.Arc{{Start: 0, Node: timeline.NodeID(rng.IntN(3))}}
		for range 40 {
			out = append(out, placer.Arc{Start: uint32(rng.IntN(1 << 12)), Node: timeline.NodeID(rng.IntN(3))})
		}
		slices.SortStableFunc(out[1:], func(a, b placer.Arc) int { return int(a.Start) - int(b.Start) })
		return slices.CompactFunc(out, func(a, b placer.Arc) bool { return a.Start == b.Start })
	}
	at := func(as []placer.Arc, p uint32) timeline.NodeID {
		j, _ := slices.BinarySearchFunc(as, p+1, func(a placer.Arc, t uint32) int { return int(a.Start) - int(t) })
		return as[j-1].Node
	}
	for range 200 {
		prev, cur := arcs(), arcs()
		got := changedArcList(prev, cur, func(_, n timeline.NodeID) timeline.NodeID { return n })
		for p := uint32(0); p < 1<<12+8; p++ {
			want := timeline.NoNode
			if at(prev, p) != at(cur, p) {
				want = at(cur, p)
			}
			if g := at(got, p); g != want {
				t.Fatalf("at %d: %d, want %d (prev %d, cur %d)", p, g, want, at(prev, p), at(cur, p))
			}
		}
		for j := 1; j < len(got); j++ {
			if got[j].Start <= got[j-1].Start || got[j].Node == got[j-1].Node {
				t.Fatalf("arcs %v not sorted and merged", got)
			}
		}
	}
}

// TestChangedForm: ring.yaml's ring (160 points per node) after step 0
// is drawn in the changed form, greying what kept its owner; its wheel at
// step 0, where nothing changed, is in full colour.
func TestChangedForm(t *testing.T) {
	res := exampleResult(t, "ring.yaml")
	f0, _, _ := FigureOf(res, "rings", 0)
	f1, _, _ := FigureOf(res, "rings", 1)
	if strings.Contains(string(f0.SVG), `class="rr-unchanged"`) {
		t.Error("step 0 greys arcs")
	}
	if !strings.Contains(string(f1.SVG), `class="rr-unchanged"`) || !strings.Contains(string(f1.SVG), "same owner as before") {
		t.Error("step 1 (add f, 160 points per node) is not in the changed form")
	}
}

// TestChangedShadeProportional: in the changed form the ring's painted
// strength, opacity times length summed over its pixels, is the length
// of circle that changed owner, so 1.5% spread over 160 thin arcs paints
// 1.5% of the ring's strength, not a lit ring and not nothing.
func TestChangedShadeProportional(t *testing.T) {
	for _, file := range []string{"ring.yaml", "grow-64.yaml"} {
		res := exampleResult(t, file)
		r := slices.IndexFunc(res.Rules, func(rr sim.RuleResult) bool { return rr.Spec.Kind == "ring" })
		f, _, _ := FigureOf(res, "rings", 1)
		g := wheelLayout(res, 1)
		l := 2 * math.Pi * g.r
		changed := 0.0
		arcs := changedArcList(figdata.Arcs(res, r, 0), figdata.Arcs(res, r, 1), func(_, n timeline.NodeID) timeline.NodeID { return n })
		for j, a := range arcs {
			if a.Node != timeline.NoNode {
				changed += (float64(arcEnd(arcs, j)) - float64(a.Start)) / circle
			}
		}
		panel := panelOf(t, string(f.SVG), res.Rules[r].Spec.Label)
		painted := 0.0
		for _, m := range regexp.MustCompile(`<path [^>]*stroke="(#[0-9A-F]{6})"[^>]*stroke-width="16" stroke-dasharray="([^"]*)"[^>]*/>`).FindAllStringSubmatch(panel, -1) {
			if !slices.Contains(reasonColors[:], m[1]) {
				t.Fatalf("%s: a changed arc in %s, not a reason colour", file, m[1])
			}
			op := 1.0
			if o := strokeOpacity.FindStringSubmatch(m[0]); o != nil {
				op, _ = strconv.ParseFloat(o[1], 64)
			}
			for j, v := range strings.Fields(m[2]) {
				if x, _ := strconv.ParseFloat(v, 64); j%2 == 0 {
					painted += x * op
				}
			}
		}
		// Each pixel's share is rounded to 1/64 (at least 1/64), and dash
		// ends to 0.1 px: errors that mostly cancel.
		if tol := max(1, 0.05*changed*l); math.Abs(painted-changed*l) > tol || changed == 0 {
			t.Errorf("%s: painted %.2f px of strength, %.2f px changed (±%.1f)", file, painted, changed*l, tol)
		}
		t.Logf("%s: painted %.2f px, changed %.2f px of %.0f", file, painted, changed*l, l)
	}
}
