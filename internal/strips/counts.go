package strips

import "slices"

// Cell counts the moved keys of one strip cell by reason.
type Cell [NumReasons]uint32

// Counts is a step's strip as the replay counts it: moved keys by
// reason, cell by cell, in the two orders of Strip.
type Counts struct {
	KeyOrder, HashOrder []Cell
}

// NewCounts returns zeroed counts of a strip over k keys.
func NewCounts(k int) *Counts {
	c := Cells(k)
	return &Counts{KeyOrder: make([]Cell, c), HashOrder: make([]Cell, c)}
}

// Shade returns the Strip of the counts, over k keys.
func (c *Counts) Shade(k int) Strip {
	n := len(c.KeyOrder)
	s := Strip{KeyOrder: make([]Shade, n), HashOrder: make([]Shade, n)}
	for j := range n {
		keys := CellKeys(j, n, k)
		s.KeyOrder[j] = shadeOf(c.KeyOrder[j], keys)
		s.HashOrder[j] = shadeOf(c.HashOrder[j], keys)
		for r, v := range c.HashOrder[j] {
			s.Moved[r] += int(v)
		}
	}
	return s
}

// Clone returns a copy of the counts.
func (c *Counts) Clone() *Counts {
	return &Counts{KeyOrder: slices.Clone(c.KeyOrder), HashOrder: slices.Clone(c.HashOrder)}
}

// Clear zeroes every count.
func (c *Counts) Clear() {
	clear(c.KeyOrder)
	clear(c.HashOrder)
}
