package svg

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
)

const (
	stripX   = 84.0 // left end of the strips; labels sit in the gutter
	stripH   = 16.0
	stripGap = 5.0
	stripsH  = 2*stripH + stripGap + 14 // a block's strips and the gap after them
)

// rampShares are the moved shares the bins' legend shows, in
// strips.ShadeLevels.
var rampShares = [...]int{1, 8, 16, 32, 48, 64}

// stripsFigure draws, for every rule, which keys moved at step i and why.
func stripsFigure(res *sim.Result, i int, name string) Figure {
	bins := res.Keys.Len() > strips.MaxCells
	legendRows := 2.0
	if bins {
		legendRows = 4
	}
	hd := headingOf(res.Scenario.Title, stepOf(res, i)+" — which keys moved to another node, and why", figW)
	top := hd.h + legendRows*16 + 6
	heads := make([][]headLine, len(res.Rules))
	h := top
	for r := range res.Rules {
		heads[r] = stripHead(res, r, i)
		h += float64(len(heads[r]))*14 + 8 + stripsH
	}
	title := fmt.Sprintf("Step %d (%s): which keys moved, and why", i, opText(res, i))
	caption := stripsCaption(res, i, bins)
	c := newCanvas(figW, h, figID(res, name), title, caption)
	c.heading(hd)
	stripLegend(c, res, hd.h, bins)
	y := top
	for r := range res.Rules {
		c.translate(0, y, attr("id", c.ref("rule-"+idPart(res.Rules[r].Spec.Label))))
		stripBlock(c, res, r, i, heads[r])
		c.end()
		y += float64(len(heads[r]))*14 + 8 + stripsH
	}
	return c.figure(Figure{Name: name, Kind: "strips", Step: i, Title: title, Caption: caption})
}

func stripLegend(c *canvas, res *sim.Result, top float64, bins bool) {
	items := []struct{ color, text string }{
		{reasonColors[strips.ReasonGained], reasonHelp[strips.ReasonGained]},
		{reasonColors[strips.ReasonForced], reasonHelp[strips.ReasonForced]},
		{reasonColors[strips.ReasonCollateral], reasonHelp[strips.ReasonCollateral]},
		{"", "unchanged: same node as before"},
	}
	colW := (figW - 16) / 2
	for j, it := range items {
		x, y := 8+float64(j%2)*colW, top+float64(j/2)*16+4
		if it.color == "" {
			c.rect(x, y-9, 12, 11, cls("off"))
		} else {
			c.rect(x, y-9, 12, 11, attr("fill", it.color))
		}
		c.text(x+17, y, fit(it.text, colW-24, 10.5), cls("fg"), attr("font-size", "10.5"))
	}
	if bins {
		binLegend(c, res, top+2*16+4)
	}
}

// binLegend says what a bin is and how its shade reads, with a ramp of
// swatches at the shares rampShares names, painted as the strips paint
// them (shadeOpacity).
func binLegend(c *canvas, res *sim.Result, y float64) {
	k, n := res.Keys.Len(), strips.MaxCells
	size := commas(k / n) // cells hold ⌊K/n⌋ or ⌈K/n⌉ keys (strips.CellKeys)
	if k%n != 0 {
		size += " or " + commas(k/n+1)
	}
	c.text(8, y, fmt.Sprintf("Each cell is a bin of %s keys; its colour's opacity is the share of them that moved, to 1/%d:",
		size, strips.ShadeLevels), cls("muted"), attr("font-size", "10.5"))
	x := 8.0
	for _, l := range rampShares {
		c.rect(x, y+7, 26, 11, cls("off"))
		c.rect(x, y+7, 26, 11, attr("fill", reasonColors[strips.ReasonGained]), attr("fill-opacity", shadeOpacity(l)))
		label := pct(float64(l) / strips.ShadeLevels)
		c.text(x+30, y+16, label, cls("fg"), attr("font-size", "10.5"))
		x += 30 + textW(label, 10.5) + 14
	}
	c.text(x, y+16, "(any colour alike)", cls("muted"), attr("font-size", "10.5"))
}

// shadeOpacity is the opacity a strip paints a cell of shade level l
// with: l/strips.ShadeLevels, the share of the cell's keys that moved,
// printed exactly (a 64th is a binary fraction).
func shadeOpacity(l int) string {
	return strconv.FormatFloat(float64(l)/strips.ShadeLevels, 'f', -1, 64)
}

// stripHead is the heading of rule r's strips at step i: the rule's
// label, then what moved (see ruleHead).
func stripHead(res *sim.Result, r, i int) []headLine {
	sr := &res.Rules[r].Steps[i]
	by := sr.Strip.Moved
	moved := fmt.Sprintf("moved %s (%s): %s gained, %s forced, %s collateral",
		commas(sr.Moved), pct(float64(sr.Moved)/float64(res.Keys.Len())), commas(by[0]), commas(by[1]), commas(by[2]))
	return ruleHead(res.Rules[r].Spec.Label, moved, 12, 11)
}

func stripBlock(c *canvas, res *sim.Result, r, i int, head []headLine) {
	sr := &res.Rules[r].Steps[i]
	c.ruleHead(head, 14, 12, 11)
	y := float64(len(head))*14 + 8
	for j, s := range []struct {
		name  string
		cells []strips.Shade
	}{{"key order", sr.Strip.KeyOrder}, {"hash order", sr.Strip.HashOrder}} {
		yy := y + float64(j)*(stripH+stripGap)
		c.text(8, yy+stripH-4, s.name, cls("muted"), attr("font-size", "10.5"))
		strip(c, s.cells, stripX, yy, figW-8-stripX)
	}
}

// strip draws one strip of cells: a grey background, then one dashed line
// per cell class whose dashes are the runs of that class, in cell units
// (a scaled group), so the size grows with the number of runs only.
func strip(c *canvas, cells []strips.Shade, x, y, w float64) {
	c.rect(x, y, w, stripH, cls("off"))
	n := len(cells)
	if n == 0 {
		return
	}
	// Runs of equal shades, by shade: one dashed line each.
	runs := map[strips.Shade][]span{}
	var order []strips.Shade
	start, cur := 0, cells[0]
	for j := 1; j <= n; j++ {
		cl := strips.Shade(0)
		if j < n {
			cl = cells[j]
		}
		if cl == cur {
			continue
		}
		if cur > 0 {
			if _, ok := runs[cur]; !ok {
				order = append(order, cur)
			}
			runs[cur] = append(runs[cur], span{float64(start) / float64(n), float64(j) / float64(n)})
		}
		start, cur = j, cl
	}
	if len(order) == 0 {
		return
	}
	c.group(attr("transform", "translate("+num(x)+" "+num(y)+") scale("+strings.TrimSpace(fmt.Sprintf("%.6f", w/float64(n)))+" 1)"))
	for cl := strips.Shade(1); int(cl) <= strips.ShadeLevels*strips.NumReasons; cl++ {
		sp, ok := runs[cl]
		if !ok {
			continue
		}
		reason, level := cl.Reason(), cl.Level()
		attrs := []string{attr("stroke", reasonColors[reason]), attr("stroke-width", num(stripH)),
			attr("stroke-dasharray", dashes(sp, float64(n))), attr("fill", "none")}
		if level < strips.ShadeLevels {
			attrs = append(attrs, attr("stroke-opacity", shadeOpacity(level)))
		}
		c.path("M0 "+num(stripH/2)+"h"+fmt.Sprint(n), attrs...)
	}
	c.end()
}

func stripsCaption(res *sim.Result, i int, bins bool) string {
	var b strings.Builder
	b.WriteString("For each rule, two strips show every key once; a lit cell is a key that is now stored on a different node than before this step, coloured by why it moved. ")
	b.WriteString("The top strip lists keys in the order they were made, the bottom one in hash order, i.e. around the circle from 0 to 2³²: a rule that only hands over arcs lights a few solid blocks there, while a rule that reshuffles lights cells everywhere. ")
	if bins {
		fmt.Fprintf(&b, "With %s keys each cell is a bin of consecutive keys, painted at an opacity equal to the share of them that moved (to the nearest 1/%d, at least 1/%d when any did), so a strip where 17%% of the keys moved evenly is a uniform 17%% tint and solid blocks are bins where all moved. ",
			commas(res.Keys.Len()), strips.ShadeLevels, strips.ShadeLevels)
	}
	fmt.Fprintf(&b, "Moved in this step (%s): %s; red (collateral) moves are pure cost, since neither node involved changed.", opText(res, i), movedList(res, i))
	return b.String()
}
