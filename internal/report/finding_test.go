package report

import "testing"

func TestFinding(t *testing.T) {
	row := func(label string, moved int) SummaryRow { return SummaryRow{Label: label, TotalMoved: moved} }
	tests := []struct {
		name string
		r    Report
		want string
	}{
		{"two rules", Report{Setup: Setup{Changes: 13}, Summary: []SummaryRow{row("ring", 3658), row("modulo", 6974)}},
			"Over 13 changes ring moved 3,658 keys and modulo 6,974 (1.91× as many as ring)."},
		{"no changes", Report{Summary: []SummaryRow{row("ring", 0)}},
			"The scenario makes no changes after the starting cluster, so no keys move."},
		{"many rules", Report{Setup: Setup{Changes: 1}, Summary: []SummaryRow{row("a", 50), row("b", 10), row("c", 30), row("d", 40)}},
			"Over 1 change b moved the fewest keys of 4 rules (10) and a the most (50, 5.00× as many)."},
		{"many equal rules", Report{Setup: Setup{Changes: 2}, Summary: []SummaryRow{row("a", 5), row("b", 5), row("c", 5), row("d", 5)}},
			"Over 2 changes a moved 5 keys, b 5 (as many as a), c 5 (as many as a) and d 5 (as many as a)."},
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
