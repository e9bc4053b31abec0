package svg

import (
	"math"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

// circle is 2³², the size of the hash space.
const circle = float64(1 << 32)

// polar returns the point at fraction f of the way clockwise round a circle
// of radius r centred on (cx, cy), starting at the top.
func polar(cx, cy, r, f float64) (x, y float64) {
	a := 2 * math.Pi * f
	return cx + r*math.Sin(a), cy - r*math.Cos(a)
}

// loop is a path round the whole circle, clockwise from the top, so that
// stroke dashes along it are measured from the top.
func loop(cx, cy, r float64) string {
	rr := num(r)
	return "M" + num(cx) + " " + num(cy-r) + "A" + rr + " " + rr + " 0 1 1 " + num(cx) + " " + num(cy+r) +
		"A" + rr + " " + rr + " 0 1 1 " + num(cx) + " " + num(cy-r)
}

// span is a part of the circle in fractions of a turn, start ≤ end.
type span struct{ from, to float64 }

// dashes turns sorted spans into a stroke-dasharray for a path of
// length l that starts where the spans' fraction 0 is. Boundaries are
// rounded to 0.1 so that errors do not accumulate; spans that round away
// vanish and touching spans merge.
func dashes(spans []span, l float64) string {
	var bounds []float64 // on, off, on, off, ...
	for _, s := range spans {
		a, b := math.Round(s.from*l*10)/10, math.Round(s.to*l*10)/10
		if b <= a {
			continue
		}
		if n := len(bounds); n > 0 && a <= bounds[n-1] {
			bounds[n-1] = max(bounds[n-1], b)
			continue
		}
		bounds = append(bounds, a, b)
	}
	if len(bounds) == 0 {
		return ""
	}
	var sb strings.Builder
	prev := 0.0
	if bounds[0] > 0 {
		sb.WriteString("0 ")
	} else {
		bounds = bounds[1:]
		sb.WriteString(num1(bounds[0]) + " ")
		prev = bounds[0]
		bounds = bounds[1:]
		if len(bounds) == 0 {
			sb.WriteString(num1(l + 1 - prev))
			return sb.String()
		}
	}
	for _, b := range bounds {
		sb.WriteString(num1(b-prev) + " ")
		prev = b
	}
	sb.WriteString(num1(l + 1 - prev))
	return sb.String()
}

// arcSpans groups a rule's arcs by owner.
func arcSpans(arcs []sim.Arc, nodes int) [][]span {
	out := make([][]span, nodes)
	for j, a := range arcs {
		end := circle
		if j+1 < len(arcs) {
			end = float64(arcs[j+1].Start)
		}
		if a.Node == sim.NoNode || int(a.Node) >= nodes {
			continue
		}
		out[a.Node] = append(out[a.Node], span{float64(a.Start) / circle, end / circle})
	}
	return out
}

// tickSpans groups points by node as spans w wide on a circle of length l.
func tickSpans(pts []sim.Point, nodes int, w, l float64) [][]span {
	out := make([][]span, nodes)
	h := w / 2 / l
	for _, p := range pts {
		f := float64(p.Pos) / circle
		out[p.Node] = append(out[p.Node], span{max(f-h, 0), min(f+h, 1)})
	}
	return out
}

// ring strokes each node's spans along a circle of radius r as dashes.
func (c *canvas) ring(cx, cy, r, width float64, spans [][]span, style func(id sim.NodeID) []string) {
	l := 2 * math.Pi * r
	d := loop(cx, cy, r)
	for id, ss := range spans {
		da := dashes(ss, l)
		if da == "" {
			continue
		}
		attrs := append(style(sim.NodeID(id)), attr("stroke-width", num(width)), attr("stroke-dasharray", da))
		c.path(d, attrs...)
	}
}

// dots draws keys at their positions on a circle of radius r, as round
// caps of zero-length strokes (compact: a few bytes a key).
func (c *canvas) dots(cx, cy, r, size float64, pos []uint32, keep func(k int) bool, attrs ...string) {
	var sb strings.Builder
	for k, p := range pos {
		if !keep(k) {
			continue
		}
		x, y := polar(cx, cy, r, float64(p)/circle)
		sb.WriteString("M" + num1(x) + " " + num1(y) + "h0")
	}
	if sb.Len() == 0 {
		return
	}
	c.path(sb.String(), append(attrs, attr("stroke-width", num(size)), attr("stroke-linecap", "round"), attr("fill", "none"))...)
}
