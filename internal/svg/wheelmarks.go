package svg

// What the wheels draw on top of who owns what: the probes with their
// preference lists, the territory of failed nodes, and the "what changed"
// form of wheels with many arcs.

import (
	"math"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// changedArcs is the most arcs a wheel after step 0 draws in full
// colour. Beyond it (a ring of five nodes at ten points each, or any
// sampled wheel) the owners are confetti in which a new node cannot be
// found, so the wheel greys every arc whose owner did not change in the
// step and colours the rest by their new owner (changedForm).
const changedArcs = 48

// changedForm reports whether rule r's wheel at step i is drawn in the
// "what changed" form; a share wheel after step 0 always shows what
// changed, in its inner ring.
func changedForm(arcs *figArcs, r, i int) bool {
	return i > 0 && (mosaicWheel(arcs.res.Rules[r].Spec) || len(arcs.at(r, i)) > changedArcs)
}

// figArcs are the arcs of one result that a figure draws: figdata.Arcs
// of each rule at each step, worked out once. A ring rule's arcs come
// from its points (a millisecond at 1,000 nodes of 160 points), and a
// rings figure asks for a step's up to seven times: for its legend, its
// caption, the wheel, what changed on it and its labels.
type figArcs struct {
	res  *sim.Result
	memo map[[2]int][]placer.Arc
}

func newFigArcs(res *sim.Result) *figArcs {
	return &figArcs{res: res, memo: map[[2]int][]placer.Arc{}}
}

// at returns figdata.Arcs(res, r, i).
func (a *figArcs) at(r, i int) []placer.Arc {
	k := [2]int{r, i}
	arcs, ok := a.memo[k]
	if !ok {
		arcs = figdata.Arcs(a.res, r, i)
		a.memo[k] = arcs
	}
	return arcs
}

// changedArcList returns the arcs of cur whose owner differs from prev's
// at the same place, marked mark(old owner, new owner), and sim.NoNode
// over the rest. Both lists start at 0 and are sorted, as
// sim.Result.Arcs gives them.
func changedArcList(prev, cur []placer.Arc, mark func(old, new timeline.NodeID) timeline.NodeID) []placer.Arc {
	var out []placer.Arc
	add := func(start uint32, id timeline.NodeID) {
		if n := len(out); n > 0 && out[n-1].Node == id {
			return
		}
		if n := len(out); n > 0 && out[n-1].Start == start {
			out[n-1].Node = id
			return
		}
		out = append(out, placer.Arc{Start: start, Node: id})
	}
	a, b := 0, 0
	for a < len(prev) && b < len(cur) {
		start := max(prev[a].Start, cur[b].Start)
		id := timeline.NoNode
		if prev[a].Node != cur[b].Node {
			id = mark(prev[a].Node, cur[b].Node)
		}
		add(start, id)
		// Step past whichever arc ends first (both when they end together).
		ea, eb := arcEnd(prev, a), arcEnd(cur, b)
		if ea <= eb {
			a++
		}
		if eb <= ea {
			b++
		}
	}
	return out
}

// changedShades returns the arcs of rule r that changed owner at step i
// (i ≥ 1) as the strips shade moved keys, one pixel of the ring (of
// length l) at a time: each pixel takes the reason most of its changed
// length changed for (to a node that joined or recovered in the step,
// off one that left or failed in it, or between nodes that stayed) and
// the share of it that changed, in strips.ShadeLevels (strips.ShadeLevel), so
// that a node's share spread over a hundred points, each a hundredth of
// a pixel, shows as a faint tint of the right strength. The result is
// indexed by class, 1 + reason·strips.ShadeLevels + level − 1, as strips.Shade.
func changedShades(fa *figArcs, r, i int, l float64) [][]span {
	mark := moveReason(&fa.res.Timeline.States[i])
	arcs := changedArcList(fa.at(r, i-1), fa.at(r, i), mark)
	cover := make(pixelCover, int(math.Ceil(l)))
	for j, a := range arcs {
		if a.Node == timeline.NoNode {
			continue
		}
		cover.add(int(a.Node), float64(a.Start)/circle, float64(arcEnd(arcs, j))/circle)
	}
	return cover.shades()
}

// pixelCover is how much of each pixel of a ring is covered, by reason
// (strips.Reason*), in pixels.
type pixelCover [][strips.NumReasons]float64

// add covers the part of the ring from fraction from to fraction to with
// reason.
func (cover pixelCover) add(reason int, from, to float64) {
	cells := len(cover)
	from, to = from*float64(cells), to*float64(cells)
	for c := int(from); c < cells && float64(c) < to; c++ {
		cover[c][reason] += min(to, float64(c+1)) - max(from, float64(c))
	}
}

// shades returns the runs of pixels of one shadeClass, indexed by class,
// as changedShades gives them.
func (cover pixelCover) shades() [][]span {
	cells := len(cover)
	out := make([][]span, 1+strips.NumReasons*strips.ShadeLevels)
	for c := 0; c < cells; {
		cl := shadeClass(cover[c])
		e := c + 1
		for e < cells && shadeClass(cover[e]) == cl {
			e++
		}
		if cl > 0 {
			out[cl] = append(out[cl], span{float64(c) / float64(cells), float64(e) / float64(cells)})
		}
		c = e
	}
	return out
}

// shadeClass is the class of a pixel whose changed length by reason is
// cov (of 1): 0 when nothing changed.
func shadeClass(cov [strips.NumReasons]float64) int {
	sum, reason := 0.0, 0
	for j, v := range cov {
		sum += v
		if v > cov[reason] {
			reason = j
		}
	}
	// A pixel's share in millionths, so that ShadeLevel rounds it.
	lv := strips.ShadeLevel(int(math.Round(sum*1e6)), 1e6)
	if lv == 0 {
		return 0
	}
	return 1 + reason*strips.ShadeLevels + lv - 1
}

// shadeStyle is the stroke of a class of changedShades.
func shadeStyle(cl int) []string {
	reason, level := (cl-1)/strips.ShadeLevels, (cl-1)%strips.ShadeLevels+1
	a := []string{attr("stroke", reasonColors[reason]), attr("fill", "none")}
	if level < strips.ShadeLevels {
		a = append(a, attr("stroke-opacity", shadeOpacity(level)))
	}
	return a
}

// arcEnd is where arc j of arcs ends, 2³² for the last.
func arcEnd(arcs []placer.Arc, j int) uint64 {
	if j+1 < len(arcs) {
		return uint64(arcs[j+1].Start)
	}
	return 1 << 32
}

// failedSpans returns, for every member failed at step i, the arcs it
// owned under rule r at the last step before i where it was live, by
// node: where its territory was. Nodes failed since step 0 have none.
func failedSpans(fa *figArcs, r, i int, l float64) [][]span {
	res := fa.res
	nodes := len(res.Timeline.Nodes)
	out := make([][]span, nodes)
	arcsAt := map[int][][]span{}
	for _, m := range res.Timeline.States[i].Members {
		if !m.Failed {
			continue
		}
		j := i - 1
		for ; j >= 0; j-- {
			if was, ok := res.Timeline.States[j].Member(m.ID); ok && !was.Failed {
				break
			}
		}
		if j < 0 {
			continue
		}
		if _, ok := arcsAt[j]; !ok {
			arcsAt[j] = arcSpans(fa.at(r, j), nodes, l)
		}
		out[m.ID] = arcsAt[j][m.ID]
	}
	return out
}

// maxProbes is the most probes a wheel marks and lists; the report's
// probe table has every one.
const maxProbes = 6

// probe text sizes.
const (
	probeSize  = 10.0
	probeLineH = 13.0
)

// probeLines returns, for each probe rule r's wheel lists at step i (at
// most maxProbes), its lines wrapped to width: its number, key and
// preference list, primary first, and what the list was before the step
// when it changed; then a line for those left out.
func probeLines(res *sim.Result, r, i int, width float64) [][]string {
	probes := res.Rules[r].Steps[i].Probes
	names, _ := shortNames(res.Timeline.Nodes)
	list := func(p sim.Probe) string {
		if len(p.Owners) == 0 {
			return "no live node"
		}
		var b strings.Builder
		for j, id := range p.Owners {
			switch j {
			case 0:
			case 1:
				b.WriteString(", then ")
			default:
				b.WriteString(", ")
			}
			b.WriteString(names[id])
		}
		return b.String()
	}
	var out [][]string
	for j, p := range probes {
		if j == maxProbes {
			out = append(out, wrap("+ "+commas(len(probes)-maxProbes)+" more probes (the report's probe table)", width, probeSize))
			break
		}
		s := strconv.Itoa(j+1) + ". " + res.Scenario.Probes[j] + " → " + list(p)
		if i > 0 {
			if prev := res.Rules[r].Steps[i-1].Probes[j]; !sameOwners(prev.Owners, p.Owners) {
				s += " (was " + list(prev) + ")"
			}
		}
		out = append(out, wrap(s, width, probeSize))
	}
	return out
}

func sameOwners(a, b []timeline.NodeID) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		if a[j] != b[j] {
			return false
		}
	}
	return true
}

// probeRows counts the lines of probeLines.
func probeRows(ls [][]string) int {
	n := 0
	for _, l := range ls {
		n += len(l)
	}
	return n
}

// wheelProbes marks rule r's probes on its wheel at step i: a diamond in
// the primary's colour where the rule puts the key (sim.Result.
// WheelPosition), or on a share wheel (segs not nil) in the middle of its
// primary's segment, numbered as in the list under the wheel. It returns
// the box (x0, y0, x1, y1) round each marker and its number.
func wheelProbes(c *canvas, res *sim.Result, r, i int, cx, cy, kr float64, segs []segment) [][4]float64 {
	var boxes [][4]float64
	probes := res.Rules[r].Steps[i].Probes
	for j, p := range probes {
		if j == maxProbes {
			break
		}
		f := float64(figdata.WheelPosition(res, r, res.Scenario.Probes[j])) / circle
		if segs != nil {
			if len(p.Owners) == 0 {
				continue
			}
			f = segmentAt(segs, p.Owners[0], sameBefore(probes[:j], p.Owners[0]), samePrimary(probes, p.Owners[0]))
		}
		x, y := polar(cx, cy, kr, f)
		fill := []string{cls("off")}
		if len(p.Owners) > 0 {
			fill = []string{attr("fill", nodeColor(p.Owners[0]))}
		}
		d := 5.5
		c.path("M"+num1(x)+" "+num1(y-d)+"l"+num1(d)+" "+num1(d)+"l"+num1(-d)+" "+num1(d)+"l"+num1(-d)+" "+num1(-d)+"z",
			append(fill, cls("ink"), attr("stroke-width", "1.2"))...)
		// The number sits beside the marker along the circle, clockwise,
		// clear of the wheel's centre text.
		a := 2 * math.Pi * f
		nx, ny := x+11*math.Cos(a), y+11*math.Sin(a)+3.5
		c.text(nx, ny, strconv.Itoa(j+1), cls("fg", "b"), attr("font-size", "10"), attr("text-anchor", "middle"))
		w := textW(strconv.Itoa(j+1), 10) / 2
		boxes = append(boxes, [4]float64{min(x-d, nx-w) - 1, min(y-d, ny-8) - 1, max(x+d, nx+w) + 1, max(y+d, ny+2) + 1})
	}
	return boxes
}

// drawProbeList writes probeLines from y, and returns where it ends.
func drawProbeList(c *canvas, ls [][]string, x, y float64) float64 {
	for _, l := range ls {
		for _, line := range l {
			y += probeLineH
			c.text(x, y, line, cls("fg"), attr("font-size", num(probeSize)))
		}
	}
	return y
}

// hatchRing draws the failed nodes' former arcs (failedSpans) hatched,
// over whatever owns them now.
func (c *canvas) hatchRing(cx, cy, r, width float64, spans [][]span) {
	c.ring(cx, cy, r, width, spans, func(timeline.NodeID) []string {
		return []string{attr("stroke", c.url("failed")), attr("fill", "none")}
	})
}

// anySpans reports whether any node has a span.
func anySpans(spans [][]span) bool {
	for _, s := range spans {
		if len(s) > 0 {
			return true
		}
	}
	return false
}

// changeItems is the legend of the changed form: the strips' reason
// colours, and the grey of what kept its owner.
func changeItems() []legendItem {
	swatch := func(a string) func(c *canvas, x, y float64) {
		return func(c *canvas, x, y float64) { c.rect(x, y-9, 12, 10, a) }
	}
	return []legendItem{
		{text: "changed: to a node that joined or recovered", draw: swatch(attr("fill", reasonColors[strips.ReasonGained]))},
		{text: "off a node that left or failed", draw: swatch(attr("fill", reasonColors[strips.ReasonForced]))},
		{text: "between nodes that stayed", draw: swatch(attr("fill", reasonColors[strips.ReasonCollateral]))},
		{text: "same owner as before", draw: swatch(cls("off"))},
	}
}

// samePrimary counts the listed probes (at most maxProbes) whose primary
// is id.
func samePrimary(probes []sim.Probe, id timeline.NodeID) int {
	return sameBefore(probes[:min(len(probes), maxProbes)], id)
}

// sameBefore counts the probes whose primary is id.
func sameBefore(probes []sim.Probe, id timeline.NodeID) int {
	n := 0
	for _, p := range probes {
		if len(p.Owners) > 0 && p.Owners[0] == id {
			n++
		}
	}
	return n
}
