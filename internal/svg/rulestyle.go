package svg

import (
	"strconv"
	"strings"
)

// This file draws rules in their styles (palette.go's ruleStyle): lines
// dashed, data points marked, bars hatched, and the legend swatches that
// show all three.

// hatchPatterns defines, once per figure, the hatch of every style in sts
// that has one, as the pattern "hatch-<n>": lines in the background
// colour cut into the bar.
func (c *canvas) hatchPatterns(sts []ruleStyle) {
	done := map[int]bool{}
	for _, st := range sts {
		if st.hatch == hatchNone || done[st.hatch] {
			continue
		}
		done[st.hatch] = true
		size, rotate, d, w := 5.0, "", "", 1.5
		switch st.hatch {
		case hatchSlash:
			rotate, d = "rotate(45)", "M0 0v5"
		case hatchBackslash:
			rotate, d = "rotate(-45)", "M0 0v5"
		case hatchHorizontal:
			d = "M0 2.5h5"
		case hatchVertical:
			d = "M2.5 0v5"
		case hatchCross:
			rotate, d = "rotate(45)", "M0 0v5M0 2.5h5"
		case hatchGrid:
			d = "M0 2.5h5M2.5 0v5"
		case hatchDots:
			d, w = "M2.5 2.5h0", 2.4
		case hatchWideSlash:
			size, rotate, d, w = 8, "rotate(45)", "M0 0v8", 3
		case hatchWideHorizontal:
			size, d, w = 8, "M0 2h8", 3
		case hatchChecks:
			size, d, w = 6, "M0 1.5h3M3 4.5h3", 3
		}
		attrs := []string{}
		if rotate != "" {
			attrs = append(attrs, attr("patternTransform", rotate))
		}
		c.s.Def()
		c.s.Pattern(c.ref("hatch-"+strconv.Itoa(st.hatch)), 0, 0, size, size, "user", attrs...)
		cap := "butt"
		if st.hatch == hatchDots {
			cap = "round"
		}
		c.path(d, cls("cut"), attr("stroke-width", num(w)), attr("stroke-opacity", ".8"), attr("stroke-linecap", cap), attr("fill", "none"))
		c.s.PatternEnd()
		c.s.DefEnd()
	}
}

// bar draws a rule's bar: its colour, and its hatch cut in where the bar
// is wide enough to show it.
func (c *canvas) bar(st ruleStyle, x, y, w, h float64) {
	if h <= 0 {
		return
	}
	c.rect(x, y, w, h, attr("fill", st.color))
	if st.hatch != hatchNone && w >= 3 && h >= 3 {
		c.rect(x, y, w, h, attr("fill", c.url("hatch-"+strconv.Itoa(st.hatch))))
	}
}

// line draws path d (a polyline) in the rule's colour and dashes.
func (c *canvas) ruleLine(st ruleStyle, d string, width float64) {
	attrs := []string{attr("stroke", st.color), attr("stroke-width", num(width)), attr("fill", "none"), attr("stroke-linejoin", "round")}
	if st.dash != "" {
		attrs = append(attrs, attr("stroke-dasharray", st.dash))
	}
	c.path(d, attrs...)
}

// marks draws the rule's marker, of half-size r, at every point.
func (c *canvas) marks(st ruleStyle, pts [][2]float64, r float64) {
	if len(pts) == 0 {
		return
	}
	var b strings.Builder
	for _, p := range pts {
		markPath(&b, st.marker, p[0], p[1], r)
	}
	if st.marker == markPlus || st.marker == markCross {
		c.path(b.String(), attr("stroke", st.color), attr("stroke-width", num(r*0.75)), attr("fill", "none"))
		return
	}
	c.path(b.String(), attr("fill", st.color), cls("cut"), attr("stroke-width", ".8"))
}

// markPath appends the path of marker m centred on (x, y).
func markPath(b *strings.Builder, m int, x, y, r float64) {
	p := func(cmd string, xs ...float64) {
		b.WriteString(cmd)
		for j, v := range xs {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(num1(v))
		}
	}
	switch m {
	case markSquare:
		q := r * 0.9
		p("M", x-q, y-q)
		p("H", x+q)
		p("V", y+q)
		p("H", x-q)
		p("Z")
	case markTriangle:
		p("M", x, y-r*1.2)
		p("L", x+r*1.1, y+r*0.8)
		p("L", x-r*1.1, y+r*0.8)
		p("Z")
	case markTriangleDown:
		p("M", x, y+r*1.2)
		p("L", x+r*1.1, y-r*0.8)
		p("L", x-r*1.1, y-r*0.8)
		p("Z")
	case markDiamond:
		q := r * 1.25
		p("M", x, y-q)
		p("L", x+q, y)
		p("L", x, y+q)
		p("L", x-q, y)
		p("Z")
	case markPlus:
		q := r * 1.15
		p("M", x-q, y)
		p("H", x+q)
		p("M", x, y-q)
		p("V", y+q)
	case markCross:
		q := r * 0.95
		p("M", x-q, y-q)
		p("L", x+q, y+q)
		p("M", x+q, y-q)
		p("L", x-q, y+q)
	default: // circle
		p("M", x-r, y)
		b.WriteString("a" + num1(r) + " " + num1(r) + " 0 1 0 " + num1(2*r) + " 0a" + num1(r) + " " + num1(r) + " 0 1 0 " + num1(-2*r) + " 0Z")
	}
}

// lineSwatch draws a legend swatch for a rule's line: a short stretch of
// it, dashed, with its marker in the middle, from x to x+w at height y.
func (c *canvas) lineSwatch(st ruleStyle, x, y, w float64) {
	c.ruleLine(st, "M"+num1(x)+" "+num1(y)+"H"+num1(x+w), 2.2)
	c.marks(st, [][2]float64{{x + w/2, y}}, 3.2)
}

// Legend swatch widths: a bar's, a line's, and both side by side.
const (
	barSwatchW  = 12.0
	lineSwatchW = 24.0
	bothSwatchW = barSwatchW + 4 + lineSwatchW
)

// ruleSwatches are the legend items of the rules: bars (a hatched
// square), lines (a dashed stretch with the marker) or both.
func ruleSwatches(labels []string, sts []ruleStyle, bars, lines bool) []legendItem {
	var items []legendItem
	for r, st := range sts {
		w := barSwatchW
		switch {
		case bars && lines:
			w = bothSwatchW
		case lines:
			w = lineSwatchW
		}
		items = append(items, legendItem{text: labels[r], w: w, draw: func(c *canvas, x, y float64) {
			lx := x
			if bars {
				c.bar(st, x, y-9, barSwatchW, 10)
				lx = x + barSwatchW + 4
			}
			if lines {
				c.lineSwatch(st, lx, y-4, lineSwatchW)
			}
		}})
	}
	return items
}
