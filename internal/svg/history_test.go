package svg

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
)

// TestHistoryBaselines checks that the history figure draws, for every
// step and rule, the optimum's box where the step has one (not at the
// vnodes step) and needed's tick on every bar that moved anything, and
// that its words no longer call the ideal a floor or anything avoidable.
func TestHistoryBaselines(t *testing.T) {
	res, err := sim.Replay(walkthrough("ring", 900))
	if err != nil {
		t.Fatal(err)
	}
	svg := html.UnescapeString(string(historyFigure(res).SVG))
	boxes, ticks := 1, 1 // the legend's swatches
	for r, rr := range res.Rules {
		for i := 1; i < len(rr.Steps); i++ {
			if n, ok := res.Optimum(r, i); ok && n > 0 {
				boxes++
			}
			if rr.Steps[i].Moved > 0 {
				ticks++
			}
		}
	}
	if boxes != 7 {
		t.Fatalf("the walkthrough has %d optimum boxes, want 1 + 3 membership changes × 2 rules", boxes)
	}
	if n := len(regexp.MustCompile(`<rect [^>]*fill="url\(#[^)]*-optimum\)"`).FindAllString(svg, -1)); n != boxes {
		t.Errorf("%d optimum boxes drawn, want %d", n, boxes)
	}
	if n := len(regexp.MustCompile(`<line [^>]*class="rr-ink" stroke-width="2"`).FindAllString(svg, -1)); n != ticks {
		t.Errorf("%d needed ticks drawn, want %d", n, ticks)
	}
	for _, bad := range []string{"avoidable", "any rule could", "ideal"} {
		if strings.Contains(svg, bad) {
			t.Errorf("the history figure still says %q", bad)
		}
	}
	for _, want := range []string{"optimum: joining nodes' fair share, or the keys leaving nodes held (none for reconfigurations)", "needed: the fewest moves that reach the rule's own new loads"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the history legend lacks %q", want)
		}
	}
}
