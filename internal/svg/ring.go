package svg

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// figW is the width of every figure: read at 600 px the text stays at
// its nominal size.
const figW = 640.0

// maxDots is the most keys drawn as dots on a wheel.
const maxDots = 2000

// wheelGeom is the layout of the rings figure.
type wheelGeom struct {
	cols, rows int
	pw         float64 // panel width
	r          float64 // radius of the ownership ring
	legendCols int
	legendRows int
	ph         float64    // panel height
	labels     [][]string // each rule's label, wrapped to the panel
	hd         float64    // height of a panel's label and subtitle
	probes     int        // lines of the longest probe list (probeLines)
	pad        float64    // the space above and below each wheel for its name labels (wheelLabels)
}

const (
	panelHd = 34.0 // a panel's one-line rule label and subtitle
	rowH    = 15.0 // legend row
)

func wheelLayout(res *sim.Result, i int) wheelGeom {
	n := len(res.Rules)
	g := wheelGeom{cols: min(n, 3)}
	g.rows = (n + g.cols - 1) / g.cols
	g.pw = figW / float64(max(g.cols, 2))
	g.r = math.Min(g.pw*0.34, 104)
	rows := 0 // the longest legend of any rule, its "more" line included
	for r := range res.Rules {
		shown, more := legendMembers(res, r, i)
		n := len(shown)
		if more > 0 {
			n++
		}
		rows = max(rows, n)
	}
	g.legendCols = 1
	if rows > 16 && g.pw >= 300 {
		g.legendCols = 2
	}
	g.legendRows = (rows + g.legendCols - 1) / g.legendCols
	lines := 1
	for _, rr := range res.Rules {
		l := wrap(rr.Spec.Label, g.pw-20, 12)
		g.labels = append(g.labels, l)
		lines = max(lines, len(l))
	}
	g.hd = panelHd + float64(lines-1)*14
	for r := range res.Rules {
		g.probes = max(g.probes, probeRows(probeLines(res, r, i, g.pw-20)))
	}
	if wheelLabelled(res) {
		g.pad = labelPad
	}
	g.ph = g.hd + 2*(g.r+30+g.pad) + g.probeH() + float64(g.legendRows+1)*rowH + 12
	return g
}

// probeH is the height of the probe list under a wheel, its gap to the
// legend included.
func (g wheelGeom) probeH() float64 {
	if g.probes == 0 {
		return 0
	}
	return float64(g.probes)*probeLineH + 10
}

// ringsFigure draws one wheel per rule at step i.
func ringsFigure(res *sim.Result, i int, name string) Figure {
	g := wheelLayout(res, i)
	st := &res.Timeline.States[i]
	w := figW
	if g.cols == 1 {
		w = g.pw
	}
	title := fmt.Sprintf("Step %d (%s): who owns which part of the hash circle", i, opText(res, i))
	hd := headingOf(res.Scenario.Title, stepOf(res, i)+" — who owns which part of the hash circle", w)
	top := hd.h
	arcs := newFigArcs(res)
	var items []legendItem
	if anyChanged(arcs, i) {
		items = changeItems()
		_, _, _, lh := legendLayout(items, 8, 0, w-16)
		top += lh + 4
	}
	h := top + float64(g.rows)*g.ph
	caption := ringsCaption(arcs, i, g.r)
	c := newCanvas(w, h, figID(res, name), title, caption)
	c.hatch("failed", 3)
	c.heading(hd)
	if items != nil {
		c.rowLegend(items, 8, hd.h+6, w-16)
	}
	for r := range res.Rules {
		x := float64(r%g.cols) * g.pw
		y := top + float64(r/g.cols)*g.ph
		c.translate(x, y, attr("id", c.ref("rule-"+idPart(res.Rules[r].Spec.Label))))
		wheelPanel(c, arcs, r, i, g, st)
		c.end()
	}
	return c.figure(Figure{Name: name, Kind: "rings", Step: i, Title: title, Caption: caption})
}

func wheelPanel(c *canvas, arcs *figArcs, r, i int, g wheelGeom, st *timeline.State) {
	res := arcs.res
	rr := &res.Rules[r]
	sr := &rr.Steps[i]
	for j, l := range g.labels[r] {
		c.text(10, 14+float64(j)*14, l, cls("fg", "b"), attr("font-size", "12"))
	}
	c.text(10, g.hd-6, fit(wheelSubtitle(res, r, i), g.pw-20, 10), cls("muted"), attr("font-size", "10"))
	cx, cy := g.pw/2, g.hd+g.r+30+g.pad
	failed := func(id timeline.NodeID) bool { m, ok := st.Member(id); return ok && m.Failed }
	nodes := len(res.Timeline.Nodes)
	l := 2 * math.Pi * g.r
	owner := func(id timeline.NodeID) []string {
		return []string{attr("stroke", nodeColor(id)), attr("fill", "none")}
	}
	changed := changedForm(arcs, r, i)
	var segs []segment
	switch {
	case mosaicWheel(rr.Spec):
		segs = shareWheel(c, res, r, i, cx, cy, g.r)
	case changed:
		c.path(loop(cx, cy, g.r), cls("unchanged"), attr("fill", "none"), attr("stroke-width", "16"))
		c.ring(cx, cy, g.r, 16, changedShades(arcs, r, i, l), func(cl timeline.NodeID) []string { return shadeStyle(int(cl)) })
	default:
		c.ring(cx, cy, g.r, 16, arcSpans(arcs.at(r, i), nodes, l), owner)
	}
	if fs := failedSpans(arcs, r, i, l); segs == nil && anySpans(fs) {
		c.hatchRing(cx, cy, g.r, 16, fs)
	}
	if sr.Points != nil && segs == nil {
		tr := g.r + 15
		spans := tickSpans(sr.Points, nodes, 1, 2*math.Pi*tr)
		c.ring(cx, cy, tr, 9, spans, func(id timeline.NodeID) []string {
			switch {
			case failed(id):
				return []string{cls("failed"), attr("fill", "none"), attr("stroke-opacity", ".8")}
			case changed && !slices.Contains(st.Named, id):
				return []string{cls("unchanged"), attr("fill", "none")}
			case changed: // one ink for them all: where ticks crowd, the last node's colour would win every pixel
				return []string{cls("ink"), attr("fill", "none")}
			}
			return owner(id)
		})
	}
	// The zero mark's label sits above the tick ring (radius r+15, 9
	// wide: its outer edge at r+19.5), beside the mark's top.
	c.line(cx, cy-g.r-26, cx, cy-g.r+8, cls("axis"), attr("stroke-width", "1"))
	c.text(cx+4, cy-g.r-21, "0", cls("muted"), attr("font-size", "9"))
	if segs == nil {
		wheelKeys(c, res, r, i, cx, cy, g.r-17)
	}
	pr := g.r - 17 // on the keys' circle, or outside a share wheel
	if segs != nil {
		pr = g.r + 16
	}
	probes := wheelProbes(c, res, r, i, cx, cy, pr, segs)
	wheelCentre(c, res, r, i, cx, cy, g.r-17)
	if g.pad > 0 {
		ar := g.r + 9 // outside the ring, or outside its ticks
		if segs == nil && sr.Points != nil {
			ar = g.r + 20
		}
		wheelLabels(c, arcs, r, i, cx, cy, g.r, ar, g.pw, segs, probes)
	}
	y := cy + g.r + 30 + g.pad
	if g.probes > 0 {
		drawProbeList(c, probeLines(res, r, i, g.pw-20), 10, y-probeLineH)
		y += g.probeH()
	}
	legend(c, res, r, i, g, y)
}

// wheelKeys draws the keys as dots where rule r puts them on its circle
// (sim.Result.KeyPositions), the ones that moved in this step on top and
// larger.
func wheelKeys(c *canvas, res *sim.Result, r, i int, cx, cy, kr float64) {
	if res.Keys.Len() > maxDots {
		return
	}
	pos := figdata.KeyPositions(res, r)
	moved := figdata.MovedKeys(res, r, i)
	isMoved := func(k int) bool { return moved != nil && moved[k] }
	c.dots(cx, cy, kr, 2.2, pos, func(k int) bool { return !isMoved(k) }, cls("key"))
	c.dots(cx, cy, kr, 4, pos, isMoved, cls("hot"))
}

// mosaicWheel reports whether a rule's registry entry says its owner
// changes from one key hash to the next (sim.Kind.Mosaic), so that its
// wheel is a share wheel (shareWheel), not arcs: every rule but the point
// rules (ring, bounded, ketama) and slots, whose arcs are exact.
func mosaicWheel(spec placer.RuleSpec) bool { return registry.KindOf(spec.Kind).Mosaic }

// wheelCentre writes in the middle of a wheel how many keys there are
// (step 0) or how many moved, within the circle of radius in that the
// key dots or a share wheel's inner ring leave free.
func wheelCentre(c *canvas, res *sim.Result, r, i int, cx, cy, in float64) {
	sr := &res.Rules[r].Steps[i]
	k := res.Keys.Len()
	mid := []string{attr("text-anchor", "middle")}
	if i == 0 {
		c.text(cx, cy+4, commas(k)+" keys", append(mid, cls("muted"), attr("font-size", "11"))...)
		return
	}
	moved := commas(sr.Moved) + " moved"
	size := 13.0
	// Bold digits are about a tenth wider than textW allows for.
	for ; size > 9 && 1.1*textW(moved, size) > 2*in-8; size -= 0.5 {
	}
	c.text(cx, cy-2, moved, append(mid, cls("fg", "b"), attr("font-size", num(size)))...)
	c.text(cx, cy+13, pct(float64(sr.Moved)/float64(k))+" of "+commas(k), append(mid, cls("muted"), attr("font-size", "10"))...)
}

func wheelSubtitle(res *sim.Result, r, i int) string {
	sr := &res.Rules[r].Steps[i]
	if mosaicWheel(res.Rules[r].Spec) {
		return "no arcs; shares, in join order"
	}
	if sr.Points == nil {
		return "no points; its ranges"
	}
	return commas(len(sr.Points)) + " points (ticks outside)"
}

// maxLegendRows is the most members a wheel's legend lists one by one.
// A larger cluster's legend (see legendMembers) lists those that matter
// at the step and says how many it leaves out, so that a wheel of a
// hundred nodes is not followed by a hundred rows repeated under every
// rule; the report's load table has every node.
const maxLegendRows = figdata.MaxListed

// legendExtremes is how many of the most and of the least loaded members
// a shortened legend lists.
const legendExtremes = 4

// legendMembers returns the members of step i that rule r's legend lists,
// in join order, and how many it leaves out. Up to maxLegendRows members
// are all listed; beyond that the legend keeps the members the step acted
// on, the failed ones, and the legendExtremes most and least loaded under
// the rule (sim.Result.Notable), at most maxLegendRows − 1 rows.
func legendMembers(res *sim.Result, r, i int) (shown []timeline.Member, more int) {
	st := &res.Timeline.States[i]
	if len(st.Members) <= maxLegendRows {
		return st.Members, 0
	}
	shown = figdata.Notable(res, i, []int{r}, legendExtremes, maxLegendRows-1)
	return shown, len(st.Members) - len(shown)
}

// legend lists the members of step i with their load and share under
// rule r (all of them, or those legendMembers picks), in columns centred
// under the wheel.
func legend(c *canvas, res *sim.Result, r, i int, g wheelGeom, y0 float64) {
	loads := res.Rules[r].Steps[i].Loads
	k := float64(res.Keys.Len())
	colW := min((g.pw-20)/float64(g.legendCols), 230)
	x0 := (g.pw - colW*float64(g.legendCols)) / 2
	end := []string{attr("text-anchor", "end"), cls("fg")}
	names, suffix := shortNames(res.Timeline.Nodes)
	nodeHead, nodeFull := "node", "node"
	if suffix != "" {
		nodeHead = fit("node (…"+suffix+")", colW-60, 9.5)
		nodeFull = "node: every name ends in “" + suffix + "”"
	}
	for col := range g.legendCols {
		x := x0 + float64(col)*colW
		head := []string{attr("text-anchor", "end"), cls("muted"), attr("font-size", "9.5")}
		c.shortText(x, y0, nodeHead, nodeFull, cls("muted"), attr("font-size", "9.5"))
		c.text(x+colW-52, y0, "keys", head...)
		c.text(x+colW-8, y0, "share", head...)
	}
	shown, more := legendMembers(res, r, i)
	for j, m := range shown {
		x := x0 + float64(j/g.legendRows)*colW
		y := y0 + float64(j%g.legendRows+1)*rowH
		name, full := names[m.ID], res.Timeline.Nodes[m.ID]
		nameW := colW - 16 - 100
		if m.Failed {
			c.rect(x, y-8, 10, 10, attr("fill", c.url("failed")), cls("ink"), attr("stroke-width", ".6"))
			label := name + " (failed)"
			if textW(label, 11) > nameW { // the hatched swatch still says it
				label = fit(name, nameW, 11)
			}
			c.shortText(x+15, y, label, full+" (failed)", cls("muted"))
		} else {
			c.rect(x, y-8, 10, 10, attr("fill", nodeColor(m.ID)))
			c.shortText(x+15, y, fit(name, nameW, 11), full, cls("fg"))
		}
		c.text(x+colW-52, y, commas(loads[m.ID]), end...)
		c.text(x+colW-8, y, pct(float64(loads[m.ID])/k), end...)
	}
	if more > 0 {
		j := len(shown)
		x := x0 + float64(j/g.legendRows)*colW
		y := y0 + float64(j%g.legendRows+1)*rowH
		c.text(x, y, fit("+ "+commas(more)+" more nodes", colW-8, 9.5), cls("muted"), attr("font-size", "9.5"))
	}
}

// stepOf names step i for a subtitle: "Step 3 of 13: add f".
func stepOf(res *sim.Result, i int) string {
	return "Step " + strconv.Itoa(i) + " of " + strconv.Itoa(len(res.Timeline.States)-1) + ": " + opText(res, i)
}

// figID is the id prefix of one figure: unique when several figures of
// several scenarios share an HTML page.
func figID(res *sim.Result, name string) string {
	return "rr-" + idPart(res.Scenario.Name) + "-" + idPart(trimExt(name))
}

func trimExt(name string) string {
	if n := len(name); n > 4 && name[n-4:] == ".svg" {
		return name[:n-4]
	}
	return name
}
