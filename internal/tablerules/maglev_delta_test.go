package tablerules

import "testing"

// TestMaglevDiffsBudget: cached differences stay within the budget, the
// oldest going first, and a difference whose keys alone exceed half of
// it keeps only its entries.
func TestMaglevDiffsBudget(t *testing.T) {
	defer func(b int) { MaglevDiffBytes = b }(MaglevDiffBytes)
	MaglevDiffBytes = 600
	var c maglevDiffs
	c.Put(&maglevDiff{A: 1, B: 2, Entries: make([]uint32, 10), Keys: make([]uint32, 40)}) // 200 bytes
	c.Put(&maglevDiff{A: 2, B: 3, Entries: make([]uint32, 10), Keys: make([]uint32, 60)}) // 280
	c.Put(&maglevDiff{A: 3, B: 4, Entries: make([]uint32, 10), Keys: make([]uint32, 30)}) // 160: drops the first
	if c.Get(2, 1) != nil || c.Get(3, 2) == nil || c.Get(4, 3) == nil || c.Bytes != 440 {
		t.Fatalf("after three puts: %d bytes, first kept %v", c.Bytes, c.Get(1, 2) != nil)
	}
	c.Put(&maglevDiff{A: 5, B: 6, Entries: make([]uint32, 5), Keys: make([]uint32, 80)}) // keys 320 > 300: dropped
	if d := c.Get(5, 6); d == nil || d.Keys != nil || c.Bytes != 460 {
		t.Fatalf("big difference: kept %v, %d bytes", d != nil, c.Bytes)
	}
}
