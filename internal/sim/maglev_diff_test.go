package sim

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/tablerules"
)

// TestMaglevDeltaMatchesScratch: maglev's incremental steps, with the
// differences between cached tables reused, give exactly the lists of a
// placement from scratch, on random scenarios (failures and recoveries
// go back and forth between tables), also when the budget is too small
// to keep the keys of a difference or any difference at all. It sets
// the package variable tablerules.MaglevDiffBytes, which every maglev
// replay reads, so it does not run in parallel with the other tests.
func TestMaglevDeltaMatchesScratch(t *testing.T) {
	defer func(b int) { tablerules.MaglevDiffBytes = b }(tablerules.MaglevDiffBytes)
	deltas := 0
	for _, budget := range []int{1 << 20, 64, 0} {
		tablerules.MaglevDiffBytes = budget
		for seed := range int64(30) {
			spec := placer.RuleSpec{Kind: "maglev", M: []int{7, 251, 4099}[seed%3]}
			if seed%5 == 4 {
				spec.Hash = keys.HashNames[seed/5%int64(len(keys.HashNames))]
			}
			deltas += checkDeltaMatchesScratch(t, churnyScenario(seed, spec))
		}
	}
	if deltas < 450 {
		t.Errorf("only %d steps came from a delta", deltas)
	}
}
