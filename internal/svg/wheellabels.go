package svg

// Name labels on the wheels of large clusters. Up to len(nodePalette)
// nodes every node has a hue of its own; past that hues come back as
// darker and lighter shades, which a reader cannot match to the legend
// by eye, so the wheel names the nodes that matter at the step at their
// arcs: a band of labels above the wheel and one below, each label on a
// leader line to its node's arc.

import (
	"math"
	"slices"
	"sort"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

const (
	labelRows      = 2                              // rows of labels in a band
	labelRowH      = 12.0                           // from one row of a band to the next
	labelPad       = 20.0 + (labelRows-1)*labelRowH // the space a band of labels adds above and below a wheel
	labelSize      = 9.0                            // their font size
	labelMaxW      = 60.0                           // the widest label; longer names are shortened, the full name in <title>
	labelGap       = 6.0                            // the least space between two labels of a band
	maxWheelLabels = 12                             // the most labels a wheel tries to place
)

// wheelLabelled reports whether the wheels of res name nodes at their
// arcs: when node colours no longer have a hue each.
func wheelLabelled(res *sim.Result) bool { return len(res.Timeline.Nodes) > len(nodePalette) }

// wheelLabel is one node to name, at fraction f of the circle.
type wheelLabel struct {
	id     timeline.NodeID
	f      float64   // where it is named
	spots  []float64 // where it may be named, best first (labelSpots); f is one of them
	gone   bool      // not live at the step: named at the arc it held before
	x, w   float64   // where its text starts, and its width
	dx     float64   // how far right of its anchor it is asked to be
	ax, ay float64   // its anchor: the point at f on the band's leader circle (band.ar)
	text   string
}

// labelAnchors returns the nodes rule r's wheel names at step i, most
// important first: the nodes the step acted on (at their largest arc,
// or the largest they held before the step when they hold none now),
// then the owners of the largest arcs. segs is the share wheel's
// segments, nil for a wheel of arcs.
func labelAnchors(arcs *figArcs, r, i int, segs []segment, l float64) []wheelLabel {
	res := arcs.res
	nodes := len(res.Timeline.Nodes)
	spansAt := func(j int) [][]span {
		if segs != nil {
			out := make([][]span, nodes)
			if j == i {
				for _, s := range segs {
					out[s.id] = []span{{s.from, s.to}}
				}
			}
			return out // a share wheel has no place for what a node held before
		}
		return arcSpans(arcs.at(r, j), nodes, l)
	}
	now := spansAt(i)
	var before [][]span
	var out []wheelLabel
	add := func(id timeline.NodeID, ss []span, gone bool) {
		if len(ss) == 0 || slices.ContainsFunc(out, func(w wheelLabel) bool { return w.id == id }) {
			return
		}
		spots := labelSpots(ss)
		out = append(out, wheelLabel{id: id, f: spots[0], spots: spots, gone: gone})
	}
	st := &res.Timeline.States[i]
	for _, id := range st.Named {
		if len(now[id]) > 0 {
			add(id, now[id], false)
			continue
		}
		if i > 0 && before == nil {
			before = spansAt(i - 1)
		}
		if before != nil {
			add(id, before[id], true)
		}
	}
	type big struct {
		id  timeline.NodeID
		len float64
		s   span
	}
	var bigs []big
	for id, ss := range now {
		for _, s := range ss {
			bigs = append(bigs, big{timeline.NodeID(id), s.to - s.from, s})
		}
	}
	sort.SliceStable(bigs, func(a, b int) bool { return bigs[a].len > bigs[b].len })
	for _, b := range bigs {
		if len(out) >= maxWheelLabels {
			break
		}
		add(b.id, []span{b.s}, false)
	}
	return out
}

// labelSpots are the places on the circle where a node with spans ss
// may be named, best first: the middle of its largest span within 60° of
// the top or the bottom (which a leader from the bands above and below
// reaches without crossing the wheel), or of its largest span when none
// is there; then points nearer that span's ends, and the middles of its
// next two largest spans, each in the same half of the wheel as the first.
func labelSpots(ss []span) []float64 {
	reach := func(s span) bool { return math.Abs(math.Cos(math.Pi*(s.from+s.to))) >= 0.5 }
	order := slices.Clone(ss)
	sort.SliceStable(order, func(a, b int) bool {
		if ra, rb := reach(order[a]), reach(order[b]); ra != rb {
			return ra
		}
		return order[a].to-order[a].from > order[b].to-order[b].from
	})
	top := func(f float64) bool { return math.Cos(2*math.Pi*f) >= 0 }
	first := order[0]
	out := []float64{(first.from + first.to) / 2}
	for _, t := range []float64{0.25, 0.75, 0.1, 0.9} {
		out = append(out, first.from+t*(first.to-first.from))
	}
	for _, s := range order[1:min(len(order), 3)] {
		out = append(out, (s.from+s.to)/2)
	}
	return slices.DeleteFunc(out, func(f float64) bool { return top(f) != top(out[0]) })
}

// band is where a band of labels goes: a wheel centred on (cx, cy) whose
// leaders start at radius ar, labels within [lo, hi], in rows, the first
// nearest the wheel.
type band struct {
	cx, cy, ar, lo, hi float64
	rows               []row
}

// row is one row of a band: its labels' baseline, the y where leaders
// meet them, and the far edge of their text.
type row struct{ base, end, far float64 }

// placeBand lays the labels cands out in the rows of b, in priority
// order, each in the first row and at the first of its spots where it
// fits beside and clear of those before it, as near its anchor as it
// can be (labelShifts); a label that fits nowhere is left out. It
// returns the rows, each sorted by x.
//
// A label tried in row k moves only the labels of row k (packBand), and
// what a row must keep off depends only on the rows before it, so a
// trial packs one row and re-checks the rows after it (bandLayout.fits):
// each trial costs the labels of a band, not a layout of all of them.
func placeBand(cands []wheelLabel, b band, keep obstacles) [][]wheelLabel {
	l := newBandLayout(b, keep)
	for _, w := range cands {
		l.add(w)
	}
	return l.rows
}

// labelShifts are the offsets from its anchor that placeBand asks of a
// label in turn, so that a leader can find a way between the labels of
// the rows before it.
var labelShifts = func() []float64 {
	out := []float64{0}
	for d := 4.0; d <= 80; d += 4 {
		out = append(out, -d, d)
	}
	return out
}()

// bandLayout is a band being filled by placeBand: the labels placed in
// each row, packed, and what each row keeps off (keep[k]: the band's own
// obstacles and the labels and leaders of rows 0 … k−1).
type bandLayout struct {
	b     band
	rows  [][]wheelLabel
	keep  []obstacles
	trial []wheelLabel // scratch: the row being tried
	after obstacles    // scratch: what the rows after it keep off
}

func newBandLayout(b band, keep obstacles) *bandLayout {
	l := &bandLayout{b: b, rows: make([][]wheelLabel, len(b.rows)), keep: make([]obstacles, len(b.rows))}
	for k := range l.keep {
		l.keep[k] = keep
	}
	return l
}

// add places w in the first row, at the first of its spots and shifts,
// where it fits, and reports whether it found one.
func (l *bandLayout) add(w wheelLabel) bool {
	for k := range l.rows {
		if l.full(k, w) {
			continue
		}
		for _, f := range w.spots {
			w.f = f
			w.ax, w.ay = polar(l.b.cx, l.b.cy, l.b.ar, f)
			for _, dx := range labelShifts {
				w.dx = dx
				if l.fits(k, w) {
					l.accept(k)
					return true
				}
			}
		}
	}
	return false
}

// full reports whether row k has no room for w: whether its labels and
// w, labelGap apart, are wider than the band, so that packBand fails
// wherever w is asked to be. The margin is far above the rounding of
// packBand's sums, so that a row it calls full fails every trial.
func (l *bandLayout) full(k int, w wheelLabel) bool {
	need := w.w
	for _, o := range l.rows[k] {
		need += o.w + labelGap
	}
	return need > l.b.hi-l.b.lo+1e-6
}

// fits reports whether w fits in row k: row k packed with it (into
// l.trial) keeps off keep[k], and every later row, unchanged, keeps off
// its obstacles as row k's new labels change them.
func (l *bandLayout) fits(k int, w wheelLabel) bool {
	labels := l.rows[k]
	want := w.want()
	// After every label it ties with, as a stable sort would put it.
	at := sort.Search(len(labels), func(j int) bool { return labels[j].want() > want })
	l.trial = append(append(append(l.trial[:0], labels[:at]...), w), labels[at:]...)
	r := l.b.rows[k]
	if !packBand(l.trial, l.b.lo, l.b.hi) || !keepsOff(l.trial, l.b, r, l.keep[k], at) {
		return false
	}
	if k+1 == len(l.rows) {
		return true
	}
	l.after = withRow(l.after, l.keep[k], l.trial, r)
	for j := k + 1; j < len(l.rows); j++ {
		if !keepsOff(l.rows[j], l.b, l.b.rows[j], l.after, -1) {
			return false
		}
		l.after = withRow(l.after, l.after, l.rows[j], l.b.rows[j])
	}
	return true
}

// accept makes the row that fits last tried row k, and updates what the
// rows after it keep off.
func (l *bandLayout) accept(k int) {
	l.rows[k] = slices.Clone(l.trial)
	for j := k + 1; j < len(l.rows); j++ {
		l.keep[j] = withRow(obstacles{}, l.keep[j-1], l.rows[j-1], l.b.rows[j-1])
	}
}

// withRow sets dst to the obstacles keep and the leaders and text of
// labels (packed in row r), reusing dst's storage; dst may be keep.
func withRow(dst, keep obstacles, labels []wheelLabel, r row) obstacles {
	dst.boxes = append(dst.boxes[:0], keep.boxes...)
	dst.lines = append(dst.lines[:0], keep.lines...)
	for _, w := range labels {
		dst.lines = append(dst.lines, [4]float64{w.ax, w.ay, leaderEnd(w, w.ax), r.end})
		dst.boxes = append(dst.boxes, [4]float64{w.x - 1, min(r.end, r.far) - 1, w.x + w.w + 1, max(r.end, r.far) + 1})
	}
	return dst
}

// want is where w's text would start if nothing were in its way:
// centred on its anchor, shifted by dx.
func (w wheelLabel) want() float64 { return w.ax - w.w/2 + w.dx }

// packBand sets the x of each label of band (sorted by want) as near its
// want as it can be, the labels in order labelGap apart within [lo, hi],
// and reports whether they fit.
func packBand(band []wheelLabel, lo, hi float64) bool {
	right := lo
	for j := range band {
		band[j].x = max(band[j].want(), right)
		right = band[j].x + band[j].w + labelGap
	}
	left := hi + labelGap
	for j := len(band) - 1; j >= 0; j-- {
		band[j].x = min(band[j].x, left-labelGap-band[j].w)
		left = band[j].x
	}
	return len(band) == 0 || band[0].x >= lo
}

// keepsOff reports whether every label of band, packed in row r of b (its
// text from r.end to r.far), has a leader from its anchor to r.end that
// stays outside the circle of radius b.ar, off the boxes of keepOut (the
// wheel's "0", probe markers, labels of the rows before) and clear of the
// other leaders, and text off those boxes. It looks at label first (the
// one being tried, the likeliest to fail) before the others; -1 for none.
func keepsOff(band []wheelLabel, b band, r row, keepOut obstacles, first int) bool {
	if first >= 0 && !labelKeepsOff(band, first, band, b, r, keepOut) {
		return false
	}
	for j := range band {
		if j != first && !labelKeepsOff(band, j, band[:j], b, r, keepOut) {
			return false
		}
	}
	return true
}

// labelKeepsOff is keepsOff for label j of band, against the leaders of
// others (a leader does not cross itself, and crossing is symmetric).
func labelKeepsOff(band []wheelLabel, j int, others []wheelLabel, b band, r row, keepOut obstacles) bool {
	w := band[j]
	x, y := w.ax, w.ay
	seg := [4]float64{x, y, leaderEnd(w, x), r.end}
	if (seg[2]-b.cx)*(x-b.cx)+(r.end-b.cy)*(y-b.cy) < b.ar*b.ar {
		return false // the leader would cross the wheel
	}
	text := [4]float64{w.x, min(r.end, r.far) - 1, w.x + w.w, max(r.end, r.far) + 1}
	for _, o := range others {
		if crosses([4]float64{o.ax, o.ay, leaderEnd(o, o.ax), r.end}, seg) {
			return false
		}
	}
	for _, o := range keepOut.lines {
		if crosses(o, seg) {
			return false
		}
	}
	for _, o := range keepOut.boxes {
		if crossesBox(seg, o) || overlap(text, o) {
			return false
		}
	}
	return true
}

// obstacles are what a label and its leader keep off: boxes (x0, y0,
// x1, y1) of text and marks, and lines (x0, y0, x1, y1) of other leaders.
type obstacles struct{ boxes, lines [][4]float64 }

// overlap reports whether boxes a and b (x0, y0, x1, y1) overlap.
func overlap(a, b [4]float64) bool { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] }

// crosses reports whether segments a and b (x0, y0, x1, y1) intersect.
func crosses(a, b [4]float64) bool {
	side := func(s [4]float64, x, y float64) float64 { return (s[2]-s[0])*(y-s[1]) - (s[3]-s[1])*(x-s[0]) }
	return side(a, b[0], b[1])*side(a, b[2], b[3]) < 0 && side(b, a[0], a[1])*side(b, a[2], a[3]) < 0
}

// crossesBox reports whether segment s passes through box b (x0, y0,
// x1, y1): whether it crosses a diagonal of the box or ends inside it.
func crossesBox(s, b [4]float64) bool {
	in := func(x, y float64) bool { return x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3] }
	return in(s[0], s[1]) || in(s[2], s[3]) ||
		crosses(s, [4]float64{b[0], b[1], b[2], b[3]}) || crosses(s, [4]float64{b[0], b[3], b[2], b[1]})
}

// leaderEnd is the x where the leader from an anchor at x meets label w:
// the point of the label's width nearest to it.
func leaderEnd(w wheelLabel, x float64) float64 { return min(max(x, w.x+2), w.x+w.w-2) }

// wheelLabels names the nodes of labelAnchors round rule r's wheel at
// step i (ring radius rad, its outermost mark at ar), in a band above
// and a band below the wheel within [0, pw], with a leader line from
// each label to its arc that crosses neither the wheel, another leader
// nor a box of keepOut (the probe markers, wheelProbes).
func wheelLabels(c *canvas, arcs *figArcs, r, i int, cx, cy, rad, ar, pw float64, segs []segment, keepOut [][4]float64) {
	res := arcs.res
	names, _ := shortNames(res.Timeline.Nodes)
	var top, bottom []wheelLabel
	for _, w := range labelAnchors(arcs, r, i, segs, 2*math.Pi*rad) {
		w.text = fit(names[w.id], labelMaxW, labelSize)
		w.w = textW(w.text, labelSize)
		if math.Cos(2*math.Pi*w.f) >= 0 {
			top = append(top, w)
		} else {
			bottom = append(bottom, w)
		}
	}
	keep := obstacles{boxes: append(slices.Clone(keepOut), [4]float64{cx + 3, cy - rad - 29, cx + 11, cy - rad - 18})} // and the "0" wheelPanel writes
	geom := func(dir float64) band {
		b := band{cx: cx, cy: cy, ar: ar, lo: 4, hi: pw - 4}
		for k := range labelRows {
			if dir < 0 {
				base := cy - rad - 33 - float64(k)*labelRowH
				b.rows = append(b.rows, row{base, base + 2.5, base - 0.8*labelSize})
			} else {
				base := cy + rad + 35 + float64(k)*labelRowH
				b.rows = append(b.rows, row{base, base - 8.5, base + 0.2*labelSize})
			}
		}
		return b
	}
	for _, side := range []struct {
		cands []wheelLabel
		b     band
	}{{top, geom(-1)}, {bottom, geom(1)}} {
		for k, labels := range placeBand(side.cands, side.b, keep) {
			r := side.b.rows[k]
			for _, w := range labels {
				x0, y0 := polar(cx, cy, ar, w.f)
				c.line(x0, y0, leaderEnd(w, x0), r.end, cls("axis"), attr("stroke-width", ".8"))
				full := res.Timeline.Nodes[w.id]
				ink := cls("fg")
				if w.gone {
					full += " (held this arc before the step)"
					ink = cls("muted")
				}
				c.shortText(w.x, r.base, w.text, full, ink, attr("font-size", num(labelSize)))
			}
		}
	}
}
