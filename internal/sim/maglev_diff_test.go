package sim

import "github.com/ringreport/ringreport/internal/keys"
import "testing"

// TestMaglevDeltaMatchesScratch: maglev's incremental steps, with the
// differences between cached tables reused, give exactly the lists of a
// placement from scratch, on random scenarios (failures and recoveries
// go back and forth between tables), also when the budget is too small
// to keep the keys of a difference or any difference at all.
func TestMaglevDeltaMatchesScratch(t *testing.T) {
	defer func(b int) { maglevDiffBytes = b }(maglevDiffBytes)
	deltas := 0
	for _, budget := range []int{1 << 20, 64, 0} {
		maglevDiffBytes = budget
		for seed := range int64(30) {
			spec := RuleSpec{Kind: "maglev", M: []int{7, 251, 4099}[seed%3]}
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
	defer func(b int) { maglevDiffBytes = b }(maglevDiffBytes)
	maglevDiffBytes = 600
	var c maglevDiffs
	c.put(&maglevDiff{a: 1, b: 2, entries: make([]uint32, 10), keys: make([]uint32, 40)}) // 200 bytes
	c.put(&maglevDiff{a: 2, b: 3, entries: make([]uint32, 10), keys: make([]uint32, 60)}) // 280
	c.put(&maglevDiff{a: 3, b: 4, entries: make([]uint32, 10), keys: make([]uint32, 30)}) // 160: drops the first
	if c.get(2, 1) != nil || c.get(3, 2) == nil || c.get(4, 3) == nil || c.bytes != 440 {
		t.Fatalf("after three puts: %d bytes, first kept %v", c.bytes, c.get(1, 2) != nil)
	}
	c.put(&maglevDiff{a: 5, b: 6, entries: make([]uint32, 5), keys: make([]uint32, 80)}) // keys 320 > 300: dropped
	if d := c.get(5, 6); d == nil || d.keys != nil || c.bytes != 460 {
		t.Fatalf("big difference: kept %v, %d bytes", d != nil, c.bytes)
	}
}
