package svg

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
)

// TestLegendMembers: past maxLegendRows members a legend lists the nodes
// the step acted on, the failed ones and the legendExtremes most and
// least loaded, in join order, and counts the rest; up to it, everyone.
func TestLegendMembers(t *testing.T) {
	var names []string
	for j := range 30 {
		names = append(names, fmt.Sprintf("n%02d", j))
	}
	s := &sim.Scenario{Name: "big", Title: "Big", Seed: 1, Keys: keys.KeySpec{Count: 3000}, Nodes: nodes(names...),
		Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 4}, {Kind: "modulo"}}, Replicas: 1,
		Steps: []timeline.Step{{Op: timeline.OpFail, Nodes: nodes("n03")}, {Op: timeline.OpAdd, Nodes: nodes("x")}}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	for r := range res.Rules {
		for i, st := range res.Timeline.States {
			shown, more := legendMembers(res, r, i)
			want := wantLegend(st, res.Rules[r].Steps[i].Loads)
			if !slices.Equal(shown, want) || more != len(st.Members)-len(want) {
				t.Errorf("rule %d step %d: shown %v (+%d), want %v", r, i, shown, more, want)
			}
		}
	}
	// Step 2 of the ring: n03 failed, x added, and 4 + 4 extremes.
	if shown, more := legendMembers(res, 0, 2); len(shown) != 10 || more != 21 {
		t.Errorf("step 2 shows %d members and %d more, want 10 and 21", len(shown), more)
	}
	small := walkthroughResult(t)
	if shown, more := legendMembers(small, 0, 1); len(shown) != 6 || more != 0 {
		t.Errorf("six members: shown %d, more %d; want all six", len(shown), more)
	}
	figs, err := Figures(res)
	if err != nil {
		t.Fatal(err)
	}
	if svg := string(figs[0].SVG); !strings.Contains(svg, "+ 22 more nodes<") {
		t.Errorf("step 0's rings figure does not say how many nodes its legend leaves out")
	}
}

// wantLegend is legendMembers by brute force: rank the live members by
// load, ties to the earlier one.
func wantLegend(st timeline.State, loads []int) []timeline.Member {
	if len(st.Members) <= maxLegendRows {
		return st.Members
	}
	var out []timeline.Member
	for j, m := range st.Members {
		above, below := 0, 0 // live members that rank before m, by load
		for jj, o := range st.Members {
			if o.Failed || jj == j {
				continue
			}
			lo, lm := loads[o.ID], loads[m.ID]
			if lo > lm || lo == lm && jj < j {
				above++
			}
			if lo < lm || lo == lm && jj > j {
				below++
			}
		}
		extreme := !m.Failed && (above < legendExtremes || below < legendExtremes)
		if m.Failed || slices.Contains(st.Named, m.ID) || extreme {
			out = append(out, m)
		}
	}
	return out
}

func walkthroughResult(t *testing.T) *sim.Result {
	res, err := sim.Replay(walkthrough("w", 900))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBalanceProfile: past maxBalanceGroups live nodes the balance figure
// draws one sorted line per rule, whose labels give each rule's busiest
// and idlest share, and it stays a valid figure; up to it, bars.
func TestBalanceProfile(t *testing.T) {
	var names []string
	for j := range maxBalanceGroups + 6 {
		names = append(names, fmt.Sprintf("n%02d", j))
	}
	s := &sim.Scenario{Name: "big", Title: "Big", Seed: 1, Keys: keys.KeySpec{Count: 3000}, Nodes: nodes(names...),
		Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 4}, {Kind: "maglev"}}, Replicas: 1,
		Steps: []timeline.Step{{Op: timeline.OpFail, Nodes: nodes("n03")}}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	f := balanceFigure(res)
	checkFigure(t, f)
	svg := string(f.SVG)
	live := []timeline.Member{}
	for _, m := range res.Timeline.States[1].Members {
		if !m.Failed {
			live = append(live, m)
		}
	}
	for r, rr := range res.Rules {
		rel := sortedShares(res, r, 1, live)
		want := rr.Spec.Label + ": " + text.Fixed(0, 100*rel[0]) + "–" + text.Fixed(0, 100*rel[len(rel)-1]) + "%<"
		if !strings.Contains(svg, want) || rel[0] < rel[len(rel)-1] {
			t.Errorf("profile lacks the label %q (shares %v)", want, rel)
		}
	}
	if !strings.Contains(svg, ">idlest (29 live nodes") || strings.Contains(svg, "n05") {
		t.Errorf("profile should count 29 live nodes and name none")
	}
	if small := string(balanceFigure(walkthroughResult(t)).SVG); strings.Contains(small, "busiest node") {
		t.Errorf("six nodes should get bars, not a profile")
	}
}

// TestProfilePoints: thinning keeps the first and last rank, keeps ranks
// increasing, and stays within the width.
func TestProfilePoints(t *testing.T) {
	vals := make([]float64, 10_000)
	for j := range vals {
		vals[j] = float64(len(vals) - j)
	}
	for _, width := range []int{1, 2, 440, 9_999, 20_000} {
		ranks, ys := profilePoints(vals, width)
		if ranks[0] != 0 || ranks[len(ranks)-1] != len(vals)-1 || len(ranks) > max(width, 2)+1 || len(ys) != len(ranks) {
			t.Errorf("width %d: %d points from %d to %d", width, len(ranks), ranks[0], ranks[len(ranks)-1])
		}
		for j := 1; j < len(ranks); j++ {
			if ranks[j] <= ranks[j-1] || ys[j] != vals[ranks[j]] {
				t.Fatalf("width %d: point %d at rank %d after %d", width, j, ranks[j], ranks[j-1])
			}
		}
	}
}
