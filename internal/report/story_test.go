package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

// TestMembership pins which ops are membership changes.
func TestMembership(t *testing.T) {
	member := []timeline.Op{timeline.OpAdd, timeline.OpRemove, timeline.OpFail, timeline.OpRecover}
	for op := timeline.OpStart; op <= timeline.OpShards; op++ {
		if got, want := Membership(op), slices.Contains(member, op); got != want {
			t.Errorf("Membership(%v) = %v, want %v", op, got, want)
		}
	}
}

// TestStepStories checks every step's sentence against the replay's own
// counts: each rule's moved keys and share, and a recurrence named
// exactly when the placement repeats an earlier one after moving keys.
func TestStepStories(t *testing.T) {
	res := replay(t, ringWalkthrough())
	r, err := Build(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := res.Keys.Len()
	for i, sec := range r.Steps[1:] {
		i++
		kind := "Reconfiguration: "
		if op := res.Timeline.States[i].Op; op == timeline.OpAdd || op == timeline.OpRemove || op == timeline.OpFail || op == timeline.OpRecover {
			kind = "Membership change: "
		}
		if !strings.HasPrefix(sec.Story, kind) {
			t.Errorf("step %d: %q does not start with %q", i, sec.Story, kind)
		}
		for _, rr := range res.Rules {
			sr := rr.Steps[i]
			want := fmt.Sprintf("%s moves %s keys (%s)", rr.Spec.Label, count(sr.Moved), pct(float64(sr.Moved)/float64(k)))
			back := fmt.Sprintf("%s returns to the placement of step %d, moving %s keys", rr.Spec.Label, sr.Recurs, count(sr.Moved))
			switch {
			case sr.Moved == 0:
				want = rr.Spec.Label + " moves no keys"
			case sr.Recurs >= 0:
				want = back
			}
			if !strings.Contains(sec.Story, want) {
				t.Errorf("step %d: %q lacks %q", i, sec.Story, want)
			}
		}
	}
	if got, want := r.Steps[3].Story, "Membership change: ring returns to the placement of step 1, moving 150 keys (16.7%); modulo moves 771 keys (85.7%)."; got != want {
		t.Errorf("step 3:\n got %q\nwant %q", got, want)
	}
}

// TestSummarySplit checks that the Summary's moves in membership changes
// and in reconfigurations are the sums over those steps, and add up.
func TestSummarySplit(t *testing.T) {
	res := replay(t, ringWalkthrough())
	r, err := Build(res, nil)
	if err != nil {
		t.Fatal(err)
	}
	// ringWalkthrough's reconfigurations: three vnodes steps, one back to
	// 160, and a weight.
	reconf := []int{4, 5, 6, 9, 10}
	if !slices.Equal(r.ReconfSteps, reconf) {
		t.Fatalf("reconfigurations %v, want %v", r.ReconfSteps, reconf)
	}
	for j, row := range r.Summary {
		member, other := 0, 0
		for i, sr := range res.Rules[j].Steps {
			if slices.Contains(reconf, i) {
				other += sr.Moved
			} else {
				member += sr.Moved
			}
		}
		if row.MemberMoved != member || row.ReconfMoved != other || member+other != row.TotalMoved {
			t.Errorf("%s: membership %d, reconfigurations %d, total %d; want %d and %d",
				row.Label, row.MemberMoved, row.ReconfMoved, row.TotalMoved, member, other)
		}
	}
}

// TestChoose checks the recommendation rule: the rules within 10% of the
// lowest are named, and none when that is every rule.
func TestChoose(t *testing.T) {
	names := []string{"a", "b", "c"}
	tests := []struct {
		vals []float64
		best []string
		text string
	}{
		{[]float64{100, 109, 200}, []string{"a", "b"}, "a 100 · b 109 (1.09×) · c 200 (2.00×)"},
		{[]float64{200, 100, 111}, []string{"b"}, "b 100 · c 111 (1.11×) · a 200 (2.00×)"},
		{[]float64{100, 105, 110}, nil, "a 100 · b 105 (1.05×) · c 110 (1.10×)"},
		{[]float64{0, 0, 0}, nil, "a 0 · b 0 · c 0"},
		{[]float64{3, 0, 0}, []string{"b", "c"}, "b 0 · c 0 · a 3"},
	}
	for _, tt := range tests {
		c := choose(names, tt.vals, count0)
		if !slices.Equal(c.Best, tt.best) || c.Measured != tt.text {
			t.Errorf("choose(%v) = %v, %q; want %v, %q", tt.vals, c.Best, c.Measured, tt.best, tt.text)
		}
	}
}

// TestGuide checks that the sentences step figures of one kind share go
// to the guide once, and each caption keeps its own.
func TestGuide(t *testing.T) {
	fig := func(step int, caption string) FigureRef {
		return FigureRef{Title: fmt.Sprintf("Step %d (add x): who owns what", step), Caption: caption}
	}
	steps := []StepSection{
		{Figures: []FigureRef{fig(0, "Each arc is a node. Dots are keys, i.e. hashes.")}},
		{Figures: []FigureRef{fig(1, "Each arc is a node. Dots are keys, i.e. hashes. Moved: 5.")}},
		{Figures: []FigureRef{fig(2, "Each arc is a node. Dots are keys. Moved: 7.")}},
	}
	g := guide(steps)
	want := []FigureGuide{{What: "Who owns what", Text: "Each arc is a node. Dots are keys, i.e. hashes."}}
	if !slices.Equal(g, want) {
		t.Errorf("guide = %q, want %q", g, want)
	}
	for i, c := range []string{"", "Moved: 5.", "Dots are keys. Moved: 7."} {
		if got := steps[i].Figures[0].Caption; got != c {
			t.Errorf("step %d caption %q, want %q", i, got, c)
		}
	}
}

// TestStepRanges pins how step lists are written.
func TestStepRanges(t *testing.T) {
	for in, want := range map[string]string{"4": "step 4", "1 2": "steps 1, 2", "1 2 3 7 9 10 11": "steps 1–3, 7, 9–11"} {
		var steps []int
		for _, f := range strings.Fields(in) {
			var n int
			fmt.Sscan(f, &n)
			steps = append(steps, n)
		}
		if got := stepRanges(steps); got != want {
			t.Errorf("stepRanges(%v) = %q, want %q", steps, got, want)
		}
	}
}
