package svg

import (
	"math"
	"sort"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
)

// scale maps data values in [lo, hi] onto pixels [bottom, top] with nice
// ticks (1, 2 or 5 × 10^k); lo is 0 but for niceRange.
type scale struct {
	lo, hi, step float64
	bottom, top  float64
}

// niceScale covers [0, max] with about n ticks; integer data never gets a
// step below 1.
func niceScale(max float64, n int, integer bool, bottom, top float64) scale {
	if max <= 0 {
		max = 1
	}
	step := niceStep(max / float64(n))
	if integer && step < 1 {
		step = 1
	}
	hi := math.Ceil(max/step-1e-9) * step
	return scale{hi: hi, step: step, bottom: bottom, top: top}
}

// niceRange covers [min, max] with about n ticks, from the tick at or
// below min: for lines, whose baseline need not be zero, unlike bars.
func niceRange(min, max float64, n int, bottom, top float64) scale {
	if max <= min {
		max = min + 1
	}
	step := niceStep((max - min) / float64(n))
	lo := math.Floor(min/step+1e-9) * step
	hi := math.Ceil(max/step-1e-9) * step
	return scale{lo: lo, hi: hi, step: step, bottom: bottom, top: top}
}

func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

func (s scale) y(v float64) float64 { return s.bottom - (s.bottom-s.top)*(v-s.lo)/(s.hi-s.lo) }

func (s scale) ticks() []float64 {
	var t []float64
	for j := 0; ; j++ {
		v := s.lo + float64(j)*s.step
		if v > s.hi*(1+1e-9) {
			return t
		}
		t = append(t, v)
	}
}

// millionsLabel formats a count tick in millions, "40M", with the
// decimals the step needs ("2.5M"); zero is "0".
func millionsLabel(v, step float64) string {
	if v == 0 {
		return "0"
	}
	dec := max(0, -int(math.Floor(math.Log10(step/1e6)+1e-9)))
	return strconv.FormatFloat(v/1e6, 'f', dec, 64) + "M"
}

// tickLabel formats a tick value: thousands separators for counts, a
// percentage for fractions.
func tickLabel(v, step float64, percent bool) string {
	if percent {
		dec := max(0, -int(math.Floor(math.Log10(step*100)+1e-9)))
		return strconv.FormatFloat(v*100, 'f', dec, 64) + "%"
	}
	if step >= 1 {
		return commas(int(math.Round(v)))
	}
	dec := -int(math.Floor(math.Log10(step) + 1e-9))
	return strconv.FormatFloat(v, 'f', dec, 64)
}

// yAxis draws horizontal grid lines with labels left of x0 and a unit
// label above them.
func (c *canvas) yAxis(s scale, x0, x1 float64, unit string, percent bool) {
	millions := !percent && s.hi >= 1e7 // "40,000,000" would not fit left of the plot
	for _, v := range s.ticks() {
		y := s.y(v)
		c.line(x0, y, x1, y, cls("grid"), attr("stroke-width", "1"))
		label := tickLabel(v, s.step, percent)
		if millions {
			label = millionsLabel(v, s.step)
		}
		c.text(x0-5, y+3.5, label, cls("muted"), attr("text-anchor", "end"), attr("font-size", "10"))
	}
	c.line(x0, s.bottom, x1, s.bottom, cls("axis"), attr("stroke-width", "1"))
	c.text(x0-5, s.top-10, unit, cls("muted"), attr("font-size", "10"), attr("text-anchor", "start"))
}

// stepLabels writes step numbers under slots of width gw starting at x0
// (slot j is step first+j), with the operation under them when it fits
// and only every k-th step when numbers would collide.
func (c *canvas) stepLabels(res *sim.Result, first int, x0, gw, y float64) {
	last := len(res.Timeline.States) - 1
	every := 1
	for gw*float64(every) < textW(strconv.Itoa(last), 10)+6 {
		every++
	}
	showOps := every == 1 && gw >= 22
	for i := first; i <= last; i++ {
		// Every every-th step, and the last, unless it would crowd it.
		if i != last && ((i-first)%every != 0 || last-i < every) {
			continue
		}
		x := x0 + (float64(i-first)+0.5)*gw
		c.text(x, y, strconv.Itoa(i), cls("fg"), attr("text-anchor", "middle"), attr("font-size", "10"))
		if showOps {
			c.text(x, y+12, fit(opShort(res, i), gw-2, 9), cls("muted"), attr("text-anchor", "middle"), attr("font-size", "9"))
		}
	}
}

// endLabel is a label at the right end of a line, at data height y.
type endLabel struct {
	y     float64
	text  string
	color string
}

// endLabels writes labels at x, moved apart vertically so none overlap,
// kept between top and bottom.
func (c *canvas) endLabels(ls []endLabel, x, top, bottom, width float64) {
	sort.SliceStable(ls, func(a, b int) bool { return ls[a].y < ls[b].y })
	const gap = 13.0
	for j := range ls {
		if j > 0 && ls[j].y < ls[j-1].y+gap {
			ls[j].y = ls[j-1].y + gap
		}
	}
	for j := len(ls) - 1; j >= 0; j-- {
		limit := bottom
		if j+1 < len(ls) {
			limit = ls[j+1].y - gap
		}
		ls[j].y = min(ls[j].y, limit)
	}
	for _, l := range ls {
		c.rect(x, l.y-7, 8, 3, attr("fill", l.color))
		c.text(x+11, l.y-2, fit(l.text, width-11, 10), cls("fg"), attr("font-size", "10"))
	}
}

// legendItem is a swatch and its text in a row legend.
type legendItem struct {
	text string
	draw func(c *canvas, x, y float64) // draws a 12×10 swatch at (x, y−9)
}

// legendLayout places items left to right from x, wrapping at width; it
// returns each item's text, its position and the height used.
func legendLayout(items []legendItem, x, y, width float64) (texts []string, xs, ys []float64, h float64) {
	cx, cy := x, y
	for _, it := range items {
		t := fit(it.text, width-18, 10.5)
		w := 18 + textW(t, 10.5) + 14
		if cx > x && cx+w > x+width {
			cx, cy = x, cy+16
		}
		texts, xs, ys = append(texts, t), append(xs, cx), append(ys, cy)
		cx += w
	}
	return texts, xs, ys, cy - y + 16
}

// rowLegend draws items as legendLayout places them.
func (c *canvas) rowLegend(items []legendItem, x, y, width float64) {
	texts, xs, ys, _ := legendLayout(items, x, y, width)
	for j, it := range items {
		it.draw(c, xs[j], ys[j])
		c.text(xs[j]+17, ys[j], texts[j], cls("fg"), attr("font-size", "10.5"))
	}
}

func ruleSwatches(res *sim.Result) []legendItem {
	var items []legendItem
	for r := range res.Rules {
		col := ruleColor(r)
		items = append(items, legendItem{res.Rules[r].Spec.Label, func(c *canvas, x, y float64) {
			c.rect(x, y-9, 12, 10, attr("fill", col))
		}})
	}
	return items
}
