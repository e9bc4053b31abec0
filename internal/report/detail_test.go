package report

import (
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/cost"
	"github.com/ringreport/ringreport/internal/sim"
)

// TestCostMirrors: the cost model, which cannot import this package (its
// tests parse scenarios, and the parser reads the cost model), counts
// data.json's transfer pairs and transfers.csv with this package's own
// bounds.
func TestCostMirrors(t *testing.T) {
	if cost.JSONPairs != MaxJSONTransfers || cost.TransfersCSVBytes != TransfersCSVLimit {
		t.Errorf("cost counts %d pairs and %d bytes of transfers.csv; report writes %d and %d",
			cost.JSONPairs, cost.TransfersCSVBytes, MaxJSONTransfers, TransfersCSVLimit)
	}
}

// TestRecurrencesCapped: a run that returns to an earlier placement at
// every other step names the first maxRecurrences returns in the Summary
// and counts the rest.
func TestRecurrencesCapped(t *testing.T) {
	steps := make([]sim.StepResult, 2001)
	for i := range steps {
		steps[i].Recurs = -1
		if i > 0 && i%2 == 0 {
			steps[i].Recurs = 0
		}
	}
	got := recurrences(steps)
	want := "step 2 repeats step 0; step 4 repeats step 0; step 6 repeats step 0; step 8 repeats step 0; step 10 repeats step 0; " +
		"step 12 repeats step 0; step 14 repeats step 0; step 16 repeats step 0; step 18 repeats step 0; step 20 repeats step 0; " +
		"step 22 repeats step 0; step 24 repeats step 0; and 988 more steps repeat earlier ones"
	if got != want {
		t.Errorf("recurrences:\n%s\nwant\n%s", got, want)
	}
	steps[2000].Recurs = -1
	if got := recurrences(steps[:27]); !strings.HasSuffix(got, "; and 1 more step repeats an earlier one") {
		t.Errorf("one more: %s", got)
	}
}
