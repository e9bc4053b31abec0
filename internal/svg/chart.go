package svg

import (
	"math"
	"sort"
	"strconv"
	"strings"

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
			op := opShort(res, i)
			short, full := fit(op, gw-2, 9), op
			if short != op || strings.ContainsRune(op, '…') { // shortened names, or more nodes
				full = opText(res, i)
			}
			c.shortText(x, y+12, short, full, cls("muted"), attr("text-anchor", "middle"), attr("font-size", "9"))
		}
	}
}

// endLabel is a label at the right end of a line, at data height y: the
// line's name and its last value, with a swatch (a marker or a stretch
// of the line) before them.
type endLabel struct {
	y           float64
	name, value string
	swatch      func(c *canvas, x, y float64) // draws within (x, y−9)–(x+10, y)
}

// lines is the label as it fits in width: "name: value" on one line, or
// the name wrapped and the value under it.
func (l endLabel) lines(width float64) []string {
	one := l.name
	if l.value != "" {
		one += ": " + l.value
	}
	if textW(one, 10) <= width {
		return []string{one}
	}
	out := wrap(l.name, width, 10)
	if l.value != "" {
		out = append(out, l.value)
	}
	return out
}

const endLineH = 12.0 // a line of an end label

// plotRight is the right edge of a plot whose lines end in labels (each
// a name and a value): plotR, or further left, down to plotR − 120, so
// that every label fits beside the plot on one line, or else with its
// value on a line of its own, without breaking a word.
func plotRight(labels ...[2]string) float64 {
	need := 0.0
	for _, l := range labels {
		el := endLabel{name: l[0], value: l[1]}
		w := textW(l[1], 10)
		for _, word := range strings.Fields(l[0]) {
			w = max(w, textW(word, 10))
		}
		need = max(need, min(textW(el.lines(math.Inf(1))[0], 10), w))
	}
	// endLabels writes text from right+22 and keeps 4 px to the edge.
	return max(min(plotR, figW-26-need), plotR-120)
}

// endLabels writes labels at x, moved apart vertically so none overlap,
// kept between top and bottom; a label too long for width wraps, its
// value on a line of its own.
func (c *canvas) endLabels(ls []endLabel, x, top, bottom, width float64) {
	sort.SliceStable(ls, func(a, b int) bool { return ls[a].y < ls[b].y })
	tw := width - 14
	lines := make([][]string, len(ls))
	for j := range ls {
		lines[j] = ls[j].lines(tw)
	}
	// Label j's first baseline is ls[j].y−2 and it takes len(lines[j])
	// lines; the next one starts a gap below its last.
	const gap = 13.0
	below := func(j int) float64 { return ls[j].y + float64(len(lines[j])-1)*endLineH + gap }
	for j := range ls {
		if j > 0 && ls[j].y < below(j-1) {
			ls[j].y = below(j - 1)
		}
	}
	for j := len(ls) - 1; j >= 0; j-- {
		limit := bottom - float64(len(lines[j])-1)*endLineH
		if j+1 < len(ls) {
			limit = min(limit, ls[j+1].y-gap-float64(len(lines[j])-1)*endLineH)
		}
		ls[j].y = max(min(ls[j].y, limit), top)
	}
	for j, l := range ls {
		if l.swatch != nil {
			l.swatch(c, x, l.y)
		}
		for k, t := range lines[j] {
			c.text(x+14, l.y-2+float64(k)*endLineH, t, cls("fg"), attr("font-size", "10"))
		}
	}
}

// markSwatch is an end label's swatch for a rule: its marker.
func markSwatch(st ruleStyle) func(c *canvas, x, y float64) {
	return func(c *canvas, x, y float64) { c.marks(st, [][2]float64{{x + 5, y - 5.5}}, 3.2) }
}

// strokeSwatch is an end label's swatch for a reference line: a short
// stretch of it.
func strokeSwatch(attrs ...string) func(c *canvas, x, y float64) {
	return func(c *canvas, x, y float64) { c.line(x, y-5.5, x+11, y-5.5, attrs...) }
}

// headLine is a line of a rule's heading: bold label text, then plain
// text.
type headLine struct{ label, plain string }

// ruleHead lays out a rule's heading in lines of the figure's width: the
// rule's label in bold at size, wrapped, then plain text at plainSize,
// after " — " on the label's last line, or on a line of its own when it
// does not fit there. Nothing is cut.
func ruleHead(label, plain string, size, plainSize float64) []headLine {
	var lines []headLine
	for _, l := range wrap(label, figW-16, size) {
		lines = append(lines, headLine{label: l})
	}
	last := &lines[len(lines)-1]
	if textW(last.label, size)+textW(" — "+plain, plainSize) <= figW-16 {
		last.plain = " — " + plain
		return lines
	}
	for _, l := range wrap(plain, figW-16, plainSize) {
		lines = append(lines, headLine{plain: l})
	}
	return lines
}

// headStep is the distance between the lines of a rule's heading.
const headStep = 14.0

// ruleHead draws lines from ruleHead at x = 8, the first baseline at y.
func (c *canvas) ruleHead(lines []headLine, y, size, plainSize float64) {
	for j, l := range lines {
		c.s.Textspan(8, round1(y+float64(j)*headStep), l.label, cls("fg", "b"), attr("font-size", num(size)))
		if l.plain != "" {
			c.s.Span(l.plain, attr("font-weight", "400"), attr("font-size", num(plainSize)))
		}
		c.s.TextEnd()
	}
}

// legendItem is a swatch and its text in a row legend.
type legendItem struct {
	text string
	w    float64                       // the swatch's width; 0 is 12
	draw func(c *canvas, x, y float64) // draws a w×10 swatch at (x, y−9)
}

func (it legendItem) swatchW() float64 {
	if it.w > 0 {
		return it.w
	}
	return 12
}

// legendLayout places items left to right from x, wrapping at width; it
// returns each item's text (in lines: an item wider than the whole width
// wraps, and takes rows of its own), its position and the height used.
func legendLayout(items []legendItem, x, y, width float64) (texts [][]string, xs, ys []float64, h float64) {
	cx, cy := x, y
	for _, it := range items {
		sw := it.swatchW()
		t := wrap(it.text, width-sw-6, 10.5)
		w := sw + 6 + textW(t[0], 10.5) + 14
		if cx > x && (cx+w > x+width || len(t) > 1) {
			cx, cy = x, cy+16
		}
		texts, xs, ys = append(texts, t), append(xs, cx), append(ys, cy)
		cx += w
		if len(t) > 1 { // the next item starts a row below the last line
			cx, cy = x+width, cy+float64(len(t)-1)*13
		}
	}
	return texts, xs, ys, cy - y + 16
}

// rowLegend draws items as legendLayout places them.
func (c *canvas) rowLegend(items []legendItem, x, y, width float64) {
	texts, xs, ys, _ := legendLayout(items, x, y, width)
	for j, it := range items {
		it.draw(c, xs[j], ys[j])
		for k, l := range texts[j] {
			c.text(xs[j]+it.swatchW()+5, ys[j]+float64(k)*13, l, cls("fg"), attr("font-size", "10.5"))
		}
	}
}

// ruleLabels returns the labels of a result's rules.
func ruleLabels(res *sim.Result) []string {
	out := make([]string, len(res.Rules))
	for r := range res.Rules {
		out[r] = res.Rules[r].Spec.Label
	}
	return out
}
