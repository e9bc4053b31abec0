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
// to keep the keys of a difference or any difference at all.
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

// TestMaglevDiffsBudget: cached differences stay within the budget, the
// oldest going first, and a difference whose keys alone exceed half of
// it keeps only its entries.
func TestMaglevDiffsBudget(t *testing.T) {
	defer func(b int) { tablerules.MaglevDiffBytes = b }(tablerules.MaglevDiffBytes)
	tablerules.MaglevDiffBytes = 600
	var c tablerules.MaglevDiffs
	c.Put(&tablerules.MaglevDiff{A: 1, B: 2, Entries: make([]uint32, 10), Keys: make([]uint32, 40)}) // 200 bytes
	c.Put(&tablerules.MaglevDiff{A: 2, B: 3, Entries: make([]uint32, 10), Keys: make([]uint32, 60)}) // 280
	c.Put(&tablerules.MaglevDiff{A: 3, B: 4, Entries: make([]uint32, 10), Keys: make([]uint32, 30)}) // 160: drops the first
	if c.Get(2, 1) != nil || c.Get(3, 2) == nil || c.Get(4, 3) == nil || c.Bytes != 440 {
		t.Fatalf("after three puts: %d bytes, first kept %v", c.Bytes, c.Get(1, 2) != nil)
	}
	c.Put(&tablerules.MaglevDiff{A: 5, B: 6, Entries: make([]uint32, 5), Keys: make([]uint32, 80)}) // keys 320 > 300: dropped
	if d := c.Get(5, 6); d == nil || d.Keys != nil || c.Bytes != 460 {
		t.Fatalf("big difference: kept %v, %d bytes", d != nil, c.Bytes)
	}
}
