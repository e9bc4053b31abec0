package report

import "testing"

func TestFinding(t *testing.T) {
	row := func(label string, moved int) SummaryRow {
		return SummaryRow{Label: label, TotalMoved: moved + 1000, MemberMoved: moved, ReconfMoved: 1000}
	}
	steps := func(n int) []int { return make([]int, n) }
	dev := func(devs ...float64) StepSection {
		sec := StepSection{}
		for i, d := range devs {
			sec.Rows = append(sec.Rows, StepRow{Label: []string{"ring", "modulo"}[i], WorstDeviation: d})
		}
		return sec
	}
	tests := []struct {
		name string
		r    Report
		want string
	}{
		{"two rules", Report{Setup: Setup{Changes: 13}, MemberSteps: steps(9), Summary: []SummaryRow{row("ring", 3658), row("modulo", 6974)}},
			"Over 9 membership changes ring moved 3,658 keys and modulo 6,974 (1.91× as many as ring)."},
		{"reconfigurations only", Report{Setup: Setup{Changes: 5}, ReconfSteps: steps(5), Summary: []SummaryRow{row("ring", 0), row("modulo", 0)},
			Steps: []StepSection{dev(1.5, 0.031), dev(0.5, 0.031), dev(0.021, 0.031)}},
			"Over 5 reconfigurations the node furthest from its fair share goes from 150.0% off to 2.1% under ring and from 3.1% off to 3.1% under modulo."},
		{"no changes", Report{Summary: []SummaryRow{row("ring", 0)}},
			"The scenario makes no changes after the starting cluster, so no keys move."},
		{"many rules", Report{Setup: Setup{Changes: 1}, MemberSteps: steps(1), Summary: []SummaryRow{row("a", 50), row("b", 10), row("c", 30), row("d", 40)}},
			"Over 1 membership change b moved the fewest keys of 4 rules (10) and a the most (50, 5.00× as many)."},
		{"many equal rules", Report{Setup: Setup{Changes: 2}, MemberSteps: steps(2), Summary: []SummaryRow{row("a", 5), row("b", 5), row("c", 5), row("d", 5)}},
			"Over 2 membership changes a moved 5 keys, b 5 (as many as a), c 5 (as many as a) and d 5 (as many as a)."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Finding(&tt.r); got != tt.want {
				t.Errorf("Finding:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestFindingFromReplay(t *testing.T) {
	r, err := Build(replay(t, ringWalkthrough()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := Finding(r); len(got) < 10 || got[:5] != "Over " {
		t.Errorf("Finding = %q, want a sentence starting with \"Over \"", got)
	}
}

// TestKey checks the gallery's key figure against hand-built reports.
func TestKey(t *testing.T) {
	row := func(label string, member int) SummaryRow {
		return SummaryRow{Label: label, MemberMoved: member, TimesK: 1.5}
	}
	two := []StepSection{{}, {}}
	tests := []struct {
		name string
		r    Report
		want KeyFigure
		ok   bool
	}{
		{"ratio", Report{Setup: Setup{Changes: 13}, MemberSteps: make([]int, 9), Steps: two,
			Summary: []SummaryRow{row("ring", 1214), row("modulo", 6974)}},
			KeyFigure{"5.74×", "the keys modulo moved, as a multiple of ring's, over 9 membership changes"}, true},
		{"one rule", Report{Setup: Setup{Changes: 2}, MemberSteps: make([]int, 2), Steps: two, Summary: []SummaryRow{row("ring", 5)}},
			KeyFigure{"1.50 × K", "ring's keys moved over 2 changes, as a multiple of the keys"}, true},
		{"nothing moved", Report{Setup: Setup{Changes: 1}, MemberSteps: make([]int, 1), Steps: two,
			Summary: []SummaryRow{row("ring", 0), row("modulo", 0)}}, KeyFigure{}, false},
		{"no changes", Report{Summary: []SummaryRow{row("ring", 0)}, Steps: two[:1]}, KeyFigure{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, ok := Key(&tt.r); got != tt.want || ok != tt.ok {
				t.Errorf("Key = %q, %v; want %q, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
