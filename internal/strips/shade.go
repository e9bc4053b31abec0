package strips

// Strip is a step's moved keys as the strips figure draws them: cell by
// cell in two orders, each cell shaded by why its keys moved and by how
// many did. With K ≤ MaxCells each cell is one key; otherwise key g
// (0-based, in the strip's order) of K falls in cell ⌊g·n/K⌋ of n. A
// shade is one byte, where counts by reason took twelve: over a hundred
// steps of five rules that is 2 MB rather than 24.
type Strip struct {
	// KeyOrder cells follow generation order (the keys file order).
	KeyOrder []Shade
	// HashOrder cells follow the rule's position order.
	HashOrder []Shade
	// Moved counts the step's moved keys by reason.
	Moved [NumReasons]int
}

// Shade is what a strip shows of one cell: the reason most of its moved
// keys moved for (the first of equals, in reason order) and the share of
// its keys that moved, in ShadeLevels steps (Level). The zero Shade is a
// cell where nothing moved.
type Shade uint8

// ShadeLevels is how finely a Shade keeps a cell's moved share: Level is
// the share in 64ths, so that a figure can paint a cell in proportion to
// it (17% looks like 17% at any key count) and no cell's share is off by
// more than 1/128 but for the smallest (see shadeOf).
const ShadeLevels = 64

// Every level of every reason fits in a Shade.
var _ = [1]int{}[(NumReasons*ShadeLevels)>>8]

// Level returns the share of the cell's keys that moved, in
// 1/ShadeLevels: 0 when none did, otherwise moved·ShadeLevels/keys
// rounded to the nearest whole (halves up) and at least 1, so that a cell
// where anything moved never reads as unchanged; ShadeLevels when all
// did, and a cell of one key that moved is all of it.
func (s Shade) Level() int {
	if s == 0 {
		return 0
	}
	return int(s-1)%ShadeLevels + 1
}

// Reason returns the commonest reason of the cell's moves.
func (s Shade) Reason() int {
	if s == 0 {
		return 0
	}
	return int(s-1) / ShadeLevels
}

// ShadeLevel is the Level of a cell of keys keys (≥ 1) of which moved
// moved: 0 for none, else round(moved·ShadeLevels/keys), at least 1.
func ShadeLevel(moved, keys int) int {
	if moved <= 0 {
		return 0
	}
	return min(max((2*ShadeLevels*moved+keys)/(2*keys), 1), ShadeLevels)
}

// shadeOf shades a cell of keys keys whose moved keys count c by reason.
func shadeOf(c Cell, keys int) Shade {
	sum, reason := 0, 0
	for r, v := range c {
		sum += int(v)
		if v > c[reason] {
			reason = r
		}
	}
	if sum == 0 {
		return 0
	}
	return Shade(1 + ShadeLevels*reason + ShadeLevel(sum, keys) - 1)
}
