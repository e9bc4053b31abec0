package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/keys"
import "testing"

// TestBoundedDeltaMatchesScratch: bounded's incremental steps give exactly
// the lists of a placement from scratch, on random scenarios with slack
// from tight (nodes fill early, cascades) to loose (no node fills).
func TestBoundedDeltaMatchesScratch(t *testing.T) {
	t.Parallel()
	deltas := 0
	for seed := range int64(80) {
		spec := placer.RuleSpec{Kind: "bounded", Epsilon: []float64{0, 0.01, 0.05, 0.1, 0.5, 2}[seed%6], VNodes: []int{0, 1, 3, 10}[seed/6%4]}
		if seed%5 == 4 {
			spec.Hash = keys.HashNames[seed/5%int64(len(keys.HashNames))]
		}
		deltas += checkDeltaMatchesScratch(t, churnyScenario(seed, spec))
	}
	if deltas < 400 {
		t.Errorf("only %d steps came from a delta", deltas)
	}
}
