package svg

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

const (
	plotL = 60.0  // left edge of plot areas (room for tick labels)
	plotR = 500.0 // right edge when end labels follow (see plotRight)
)

// historyFigure draws keys moved per step and rule against two true
// baselines, and the running totals. Each rule's bar is what it moved; a
// tick on the bar marks needed, the fewest moves that reach the rule's
// own new loads; a hatched box behind the bar is the classic optimum of
// a membership change (sim.Result.Optimum), absent at reconfigurations.
// The ideal (perfect balance from the previous loads) is not drawn: it is
// no floor for any rule, and its value depends on how uneven the rule
// already was.
func historyFigure(res *sim.Result) Figure {
	const name = "history.svg"
	steps := len(res.Timeline.States) - 1
	title := "Keys moved at every step, and in total, per rule"
	caption := historyCaption(res)
	sts := styles(res)
	hd := headingOf(res.Scenario.Title, "Keys moved per step and in total", figW)
	items := append(ruleSwatches(ruleLabels(res), sts, true, true), baselineLegend()...)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	y := hd.h + 6 + lh
	h := y + 22 + 150 + 76 + 120 + 36
	c := newCanvas(figW, h, figID(res, name), title, caption)
	c.hatch("optimum", 4)
	c.hatchPatterns(sts)
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
	var ends [][2]string
	for _, rr := range res.Rules {
		ends = append(ends, [2]string{rr.Spec.Label, commas(rr.Steps[len(rr.Steps)-1].TotalMoved)})
	}
	right := plotRight(ends...)
	gw := (right - plotL) / float64(max(steps, 1))
	top := y + 22
	bars := niceScale(maxMovedOrOptimum(res), 5, true, top+150, top)
	c.yAxis(bars, plotL, right, "keys moved in the step", false)
	historyBars(c, res, sts, bars, gw)
	c.stepLabels(res, 1, plotL, gw, bars.bottom+13)
	top2 := bars.bottom + 76
	c.text(8, top2-26, "Running total since step 0", cls("fg", "b"), attr("font-size", "11"))
	tot := niceScale(maxTotal(res), 4, true, top2+120, top2)
	c.yAxis(tot, plotL, right, "keys moved so far", false)
	historyLines(c, res, sts, tot, gw, right)
	c.stepLabels(res, 1, plotL, gw, tot.bottom+13)
	return c.figure(Figure{Name: name, Kind: "history", Step: -1, Title: title, Caption: caption})
}

// baselineLegend says what the box and the tick of historyBars are.
func baselineLegend() []legendItem {
	return []legendItem{
		{text: "optimum: joining nodes' fair share, or the keys leaving nodes held (none for reconfigurations)",
			draw: func(c *canvas, x, y float64) { c.optimumBox(x, y-9, 12, 10) }},
		{text: "needed: the fewest moves that reach the rule's own new loads",
			draw: func(c *canvas, x, y float64) { c.neededTick(x, x+12, y-4, false) }},
	}
}

// optimumBox draws the hatched, dashed box of an optimum.
func (c *canvas) optimumBox(x, y, w, h float64) {
	c.rect(x, y, w, h, attr("fill", c.url("optimum")), cls("ink"), attr("stroke-width", ".8"), attr("stroke-dasharray", "2 1.5"))
}

// neededTick draws needed's mark from x0 to x1 at y: an ink line, wider
// than the bar, on a halo of the background when it lies inside the bar
// (halo), so that it shows on any bar colour. On the bar's top (needed
// equal to moved) it goes without, as a cap.
func (c *canvas) neededTick(x0, x1, y float64, halo bool) {
	if halo {
		c.line(x0, y, x1, y, cls("cut"), attr("stroke-width", "4.4"), attr("stroke-linecap", "round"))
	}
	c.line(x0, y, x1, y, cls("ink"), attr("stroke-width", "2"))
}

func historyBars(c *canvas, res *sim.Result, sts []ruleStyle, s scale, gw float64) {
	n := float64(len(res.Rules))
	slot := gw * 0.84 / n
	for i := 1; i < len(res.Timeline.States); i++ {
		gx := plotL + float64(i-1)*gw + gw*0.08
		for r := range res.Rules {
			sr := &res.Rules[r].Steps[i]
			x := gx + float64(r)*slot
			if opt, ok := res.Optimum(r, i); ok && opt > 0 {
				yo := s.y(float64(opt))
				c.optimumBox(x+slot*0.05, yo, slot*0.9, s.bottom-yo)
			}
			ym := s.y(float64(sr.Moved))
			c.bar(sts[r], x+slot*0.2, ym, slot*0.6, s.bottom-ym)
			if sr.Moved > 0 {
				yn := s.y(float64(sr.Needed))
				c.neededTick(x+slot*0.12, x+slot*0.88, yn, yn-ym > 2)
			}
		}
	}
}

func historyLines(c *canvas, res *sim.Result, sts []ruleStyle, s scale, gw, right float64) {
	var labels []endLabel
	for r := range res.Rules {
		var d strings.Builder
		var pts [][2]float64
		d.WriteString("M" + num1(plotL) + " " + num1(s.bottom))
		for i := 1; i < len(res.Timeline.States); i++ {
			x, y := plotL+(float64(i-1)+0.5)*gw, s.y(float64(res.Rules[r].Steps[i].TotalMoved))
			d.WriteString("L" + num1(x) + " " + num1(y))
			pts = append(pts, [2]float64{x, y})
		}
		c.ruleLine(sts[r], d.String(), 2.2)
		if gw >= 8 {
			c.marks(sts[r], pts, 3)
		}
		last := res.Rules[r].Steps[len(res.Rules[r].Steps)-1].TotalMoved
		labels = append(labels, endLabel{y: s.y(float64(last)), name: res.Rules[r].Spec.Label, value: commas(last), swatch: markSwatch(sts[r])})
	}
	c.endLabels(labels, right+8, s.top, s.bottom, figW-right-12)
}

func ratio(a, b int) string { return fmt.Sprintf("%.2f", float64(a)/float64(b)) }

func maxMovedOrOptimum(res *sim.Result) float64 {
	m := 0
	for r, rr := range res.Rules {
		for i, s := range rr.Steps[1:] {
			opt, _ := res.Optimum(r, i+1)
			m = max(m, s.Moved, opt)
		}
	}
	return float64(m)
}

func maxTotal(res *sim.Result) float64 {
	m := 0
	for _, r := range res.Rules {
		m = max(m, r.Steps[len(r.Steps)-1].TotalMoved)
	}
	return float64(m)
}

func historyCaption(res *sim.Result) string {
	steps := len(res.Timeline.States) - 1
	var b strings.Builder
	fmt.Fprintf(&b, "Top: for each of the %d steps, one solid bar per rule gives how many of the %s keys changed owner. ", steps, commas(res.Keys.Len()))
	b.WriteString("The tick on a bar is needed, the fewest moves that reach that rule's own new loads: bar above the tick is collateral, keys moved between nodes whose loads did not need it. ")
	b.WriteString("The hatched box behind a bar is the optimum of a membership change: the joining nodes' fair share of the keys, or the keys the leaving nodes held, which every rule must move; reconfigurations have none. ")
	b.WriteString("Bottom: the running total, i.e. what the whole sequence cost under each rule (")
	var parts []string
	for _, r := range res.Rules {
		t := r.Steps[len(r.Steps)-1].TotalMoved
		parts = append(parts, fmt.Sprintf("%s %s moves, %s× the number of keys", r.Spec.Label, commas(t), ratio(t, res.Keys.Len())))
	}
	b.WriteString(strings.Join(parts, "; ") + ").")
	return b.String()
}
