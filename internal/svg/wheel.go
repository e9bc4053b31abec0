package svg

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
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
	bounds := dashBounds(spans, l, nil)
	return string(appendDashes(nil, bounds, l))
}

// dashBounds appends to bounds the on, off, on, off, … boundaries of
// spans, rounded to 0.1.
func dashBounds(spans []span, l float64, bounds []float64) []float64 {
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
	return bounds
}

// appendDashes appends the dasharray of bounds (see dashBounds), or
// nothing when there are none.
func appendDashes(sb []byte, bounds []float64, l float64) []byte {
	if len(bounds) == 0 {
		return sb
	}
	prev := 0.0
	if bounds[0] > 0 {
		sb = append(sb, "0 "...)
	} else {
		bounds = bounds[1:]
		sb = append(appendNum1(sb, bounds[0]), ' ')
		prev = bounds[0]
		bounds = bounds[1:]
		if len(bounds) == 0 {
			return appendNum1(sb, l+1-prev)
		}
	}
	for _, b := range bounds {
		sb = append(appendNum1(sb, b-prev), ' ')
		prev = b
	}
	return appendNum1(sb, l+1-prev)
}

// arcSpans groups a rule's arcs by owner, for a ring of length l. Beyond
// maxTicks arcs (most then narrower than a tenth of a pixel) the ring is
// drawn per pixel instead (denseArcSpans).
func arcSpans(arcs []placer.Arc, nodes int, l float64) [][]span {
	if len(arcs) > maxTicks {
		return denseArcSpans(arcs, nodes, l)
	}
	out := make([][]span, nodes)
	for j, a := range arcs {
		end := circle
		if j+1 < len(arcs) {
			end = float64(arcs[j+1].Start)
		}
		if a.Node == timeline.NoNode || int(a.Node) >= nodes {
			continue
		}
		out[a.Node] = append(out[a.Node], span{float64(a.Start) / circle, end / circle})
	}
	return out
}

// denseArcSpans draws arcs one pixel at a time: the circle is cut into
// ⌈l⌉ cells, each cell goes to the owner of its middle, as the wheels of
// rules without points are sampled, and runs of cells of one node become
// its spans: at most ⌈l⌉ spans whatever the arcs.
func denseArcSpans(arcs []placer.Arc, nodes int, l float64) [][]span {
	cells := int(math.Ceil(l))
	out := make([][]span, nodes)
	j := 0
	owner := func(c int) timeline.NodeID { // c ascending
		mid := (float64(c) + 0.5) / float64(cells) * circle
		for j+1 < len(arcs) && float64(arcs[j+1].Start) <= mid {
			j++
		}
		return arcs[j].Node
	}
	for c, id := 0, owner(0); c < cells; {
		e, next := c+1, timeline.NoNode
		for ; e < cells; e++ {
			if next = owner(e); next != id {
				break
			}
		}
		if id != timeline.NoNode && int(id) < nodes {
			out[id] = append(out[id], span{float64(c) / float64(cells), float64(e) / float64(cells)})
		}
		c, id = e, next
	}
	return out
}

// maxTicks is the most points a wheel draws as ticks one by one, about
// 13 per pixel of the tick ring; beyond it the ticks are drawn per pixel
// (denseTickSpans), so that a wheel's size and drawing time stay bounded
// however many points the rule has.
const maxTicks = 10_000

// tickSpans groups points by node as spans w wide on a circle of length l.
func tickSpans(pts []placer.Point, nodes int, w, l float64) [][]span {
	if len(pts) > maxTicks {
		return denseTickSpans(pts, nodes, w, l)
	}
	out := make([][]span, nodes)
	h := w / 2 / l
	for _, p := range pts {
		f := float64(p.Pos) / circle
		out[p.Node] = append(out[p.Node], span{max(f-h, 0), min(f+h, 1)})
	}
	return out
}

// denseTickSpans draws ticks w wide as the browser would paint them,
// one pixel at a time: the circle is cut into ⌈l⌉ cells and each cell
// goes to the highest node id among the ticks touching it (ring paints
// nodes in id order, the last on top); runs of cells of one node become
// its spans. The result has at most ⌈l⌉ spans whatever the points.
func denseTickSpans(pts []placer.Point, nodes int, w, l float64) [][]span {
	cells := int(math.Ceil(l))
	top := make([]int32, cells)
	for i := range top {
		top[i] = -1
	}
	h := w / 2 / l
	for _, p := range pts {
		f := float64(p.Pos) / circle
		a := int(max(f-h, 0) * float64(cells))
		b := min(int(min(f+h, 1)*float64(cells)), cells-1)
		for c := a; c <= b; c++ {
			top[c] = max(top[c], int32(p.Node))
		}
	}
	return cellRuns(top, nodes)
}

// cellRuns turns cells, each the id painted there (-1 for none), into
// each id's spans: one per run of cells of one id. Ids from nodes on are
// left out.
func cellRuns(top []int32, nodes int) [][]span {
	cells := len(top)
	out := make([][]span, nodes)
	for c := 0; c < cells; {
		e := c + 1
		for e < cells && top[e] == top[c] {
			e++
		}
		if id := top[c]; id >= 0 && int(id) < nodes {
			out[id] = append(out[id], span{float64(c) / float64(cells), float64(e) / float64(cells)})
		}
		c = e
	}
	return out
}

// pixelSpans redraws spans one pixel at a time: a ring of length l is cut
// into ⌈l⌉ cells, each cell goes to the highest id whose spans cover its
// middle (ring paints ids in order, the last on top), and runs of cells
// of one id become its spans: at most ⌈l⌉ spans, however many came in.
// A span narrower than a cell shows only where it holds a cell's middle,
// as a browser would paint it at that size without smoothing.
func pixelSpans(spans [][]span, l float64) [][]span {
	cells := int(math.Ceil(l))
	top := make([]int32, cells)
	for c := range top {
		top[c] = -1
	}
	n := float64(cells)
	for id, ss := range spans {
		for _, s := range ss {
			// The cells c with from ≤ (c + ½)/cells < to.
			a, b := max(int(math.Ceil(s.from*n-0.5)), 0), min(int(math.Ceil(s.to*n-0.5)), cells)
			for c := a; c < b; c++ {
				top[c] = int32(id)
			}
		}
	}
	return cellRuns(top, len(spans))
}

// ring strokes each node's spans along a circle of radius r as dashes,
// one path a node; past maxRingPaths nodes (more than there are node
// colours), one path a style, the spans of all nodes drawn alike merged
// (ringByStyle), unless every node has a style of its own.
func (c *canvas) ring(cx, cy, r, width float64, spans [][]span, style func(id timeline.NodeID) []string) {
	l := 2 * math.Pi * r
	d := loop(cx, cy, r)
	if used(spans) > maxRingPaths && c.ringByStyle(d, l, width, spans, style) {
		return
	}
	var bounds []float64
	var da []byte
	for id, ss := range spans {
		bounds = dashBounds(ss, l, bounds[:0])
		if len(bounds) == 0 {
			continue
		}
		da = appendDashes(da[:0], bounds, l)
		attrs := append(style(timeline.NodeID(id)), attr("stroke-width", num(width)), attr("stroke-dasharray", string(da)))
		c.path(d, attrs...)
	}
}

// maxRingPaths is the most nodes a ring draws a path each for: as many
// as there are node colours (nodeColors). Past it nodes share colours,
// and a path per node would make a wheel's size grow with its nodes, not
// with its pixels.
const maxRingPaths = len(nodeColors)

// used counts the nodes with spans.
func used(spans [][]span) int {
	n := 0
	for _, ss := range spans {
		if len(ss) > 0 {
			n++
		}
	}
	return n
}

// ringByStyle strokes spans (d, a loop of length l) one path per style
// (styleGroups), the paths in the order of each style's first node.
// Where spans of nodes of different styles overlap (ticks closer than
// their width) the later path, not the later node, is on top; which of
// two ticks closer than a pixel shows is as arbitrary either way. Spans
// per pixel (pixelSpans, denseTickSpans, denseArcSpans) never overlap.
// When no two nodes share a style (changedShades' classes) it draws
// nothing and returns false.
func (c *canvas) ringByStyle(d string, l, width float64, spans [][]span, style func(id timeline.NodeID) []string) bool {
	groups := styleGroups(spans, style)
	if len(groups) == used(spans) {
		return false
	}
	// What every path has goes on a group round them: a few bytes a path.
	none := attr("fill", "none")
	c.group(none, attr("stroke-width", num(width)))
	for _, g := range groups {
		bounds := dashBounds(g.spans, l, nil)
		if len(bounds) == 0 {
			continue
		}
		a := slices.DeleteFunc(g.attrs, func(a string) bool { return a == none })
		c.path(d, append(a, attr("stroke-dasharray", string(appendDashes(nil, bounds, l))))...)
	}
	c.end()
	return true
}

// styleGroup is the spans of every node that a ring's style draws alike.
type styleGroup struct {
	attrs []string
	spans []span // in the order of the circle
}

// styleGroups groups the nodes of spans by their style, in the order of
// each style's first node.
func styleGroups(spans [][]span, style func(id timeline.NodeID) []string) []*styleGroup {
	var groups []*styleGroup
	byKey := map[string]*styleGroup{} // for lookup only: groups keeps the order
	for id, ss := range spans {
		if len(ss) == 0 {
			continue
		}
		a := style(timeline.NodeID(id))
		key := strings.Join(a, " ")
		g := byKey[key]
		if g == nil {
			g = &styleGroup{attrs: a}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.spans = append(g.spans, ss...)
	}
	for _, g := range groups {
		slices.SortFunc(g.spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	}
	return groups
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
