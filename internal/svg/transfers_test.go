package svg

import (
	"strings"
	"testing"
)

// TestColumnBars: a crowded transfers panel draws each direction as one
// outline of pixel columns, each as tall as the tallest bar of the nodes
// whose column middles fall in it, with runs of one height merged, and
// nothing when every bar is empty.
func TestColumnBars(t *testing.T) {
	s := scale{lo: 0, hi: 10, step: 5, bottom: 48} // 4.8 px a key
	x := num1(plotL)
	for _, c := range []struct {
		vals []int
		sign float64
		want string
	}{
		// two nodes a column: 0 and 10 | 10 and 10 | none | 5 and 0
		{[]int{0, 10, 10, 10, 0, 0, 5, 0}, -1, "M" + x + " 100V52h2V100h1V76h1V100z"},
		{[]int{0, 10, 10, 10, 0, 0, 5, 0}, 1, "M" + x + " 100V148h2V100h1V124h1V100z"},
		{[]int{3, 9}, -1, "M" + x + " 100V56.8h1V100z"},
		{[]int{9, 3}, -1, "M" + x + " 100V56.8h1V100z"},
		{[]int{0, 0, 0, 0}, -1, ""},
	} {
		if got := columnBars(c.vals, s, 100, 0.5, c.sign); got != c.want {
			t.Errorf("columnBars(%v, sign %v) = %q, want %q", c.vals, c.sign, got, c.want)
		}
	}
}

// TestCrowdedTransfersDrawColumns: over 1,000 nodes the transfers
// figure draws each rule's bars as one outline a direction, not a rect a
// node and direction (11,000 of them, 0.8 MB, before), and its size is
// what its labels and swatches take.
func TestCrowdedTransfersDrawColumns(t *testing.T) {
	t.Parallel()
	res := crowdedScenario(t, 1000)
	f, _, err := FigureOf(res, "transfers", -1)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(f.SVG)
	for _, color := range []string{inColor, outColor} {
		if n, max := strings.Count(doc, `fill="`+color+`"`), 1+len(res.Rules); n > max {
			t.Errorf("%s: %d shapes, want at most %d (a legend swatch and an outline a rule)", color, n, max)
		}
	}
	if len(doc) > 150_000 {
		t.Errorf("the transfers figure of 1,000 nodes is %d bytes, want at most 150,000", len(doc))
	}
}
