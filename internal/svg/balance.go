package svg

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
)

// maxBalanceGroups is the most live nodes the balance figure draws as
// groups of bars; past it, bars would be a pixel wide and names would
// collide, and it draws each rule's loads sorted instead (balanceProfile).
const maxBalanceGroups = 24

// balanceFigure draws each live node's load at the last step, one bar per
// rule, against its fair share and the noise band around it; or, with
// more than maxBalanceGroups live nodes, each rule's loads in order.
func balanceFigure(res *sim.Result) Figure {
	last := len(res.Timeline.States) - 1
	live := liveAt(res, last)
	noise := res.Balance(0, last).NoiseCV
	if len(live) > maxBalanceGroups {
		return balanceProfile(res, live, last, noise)
	}
	return nodeBars{name: "balance.svg", kind: "balance",
		title:   fmt.Sprintf("Keys per node after the last step (step %d), against the fair share", last),
		heading: balanceSub(res, last),
		caption: balanceCaption(res, last, noise), unit: "keys held", noise: noise,
		load: func(r int, id timeline.NodeID) float64 { return float64(res.Rules[r].Steps[last].Loads[id]) },
		fair: func(id timeline.NodeID) float64 { return res.FairShare(id, last) },
	}.draw(res, live)
}

// liveAt returns the members of step i that have not failed.
func liveAt(res *sim.Result, i int) []timeline.Member {
	var live []timeline.Member
	for _, m := range res.Timeline.States[i].Members {
		if !m.Failed {
			live = append(live, m)
		}
	}
	return live
}

// nodeBars is a figure of one group of bars per live node at the last
// step, one bar per rule, with the node's fair share as a line across
// its group and, when noise > 0, the band that random placement gives
// around it: the layout balance.svg and served.svg share.
type nodeBars struct {
	name, kind, title, heading, caption, unit string
	load                                      func(r int, id timeline.NodeID) float64
	fair                                      func(id timeline.NodeID) float64
	noise                                     float64
}

func (nb nodeBars) draw(res *sim.Result, live []timeline.Member) Figure {
	sts := styles(res)
	items := balanceLegend(res, sts, nb.noise, false)
	hd := headingOf(res.Scenario.Title, nb.heading, figW)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 22
	gw := (figW - 12 - plotL) / float64(max(len(live), 1))
	names, _ := shortNames(res.Timeline.Nodes)
	slant := false
	for _, m := range live {
		slant = slant || textW(names[m.ID], 10) > gw-14
	}
	h := top + 200 + 44
	if slant {
		h += 60
	}
	c := newCanvas(figW, h, figID(res, nb.name), nb.title, nb.caption)
	c.hatchPatterns(sts)
	balanceHead(c, hd, items)
	hi := 0.0
	for _, m := range live {
		hi = max(hi, nb.fair(m.ID)*(1+nb.noise))
		for r := range res.Rules {
			hi = max(hi, nb.load(r, m.ID))
		}
	}
	s := niceScale(hi, 5, true, top+200, top)
	c.yAxis(s, plotL, figW-12, nb.unit, false)
	for j, m := range live {
		nb.group(c, res, sts, m.ID, s, plotL+float64(j)*gw, gw, slant)
	}
	return c.figure(Figure{Name: nb.name, Kind: nb.kind, Step: -1, Title: nb.title, Caption: nb.caption})
}

// group draws one node's bars, fair share and noise band.
func (nb nodeBars) group(c *canvas, res *sim.Result, sts []ruleStyle, id timeline.NodeID, s scale, x, gw float64, slant bool) {
	fair := nb.fair(id)
	c.group(attr("id", c.ref("node-"+fmt.Sprint(id)+"-"+idPart(res.Timeline.Nodes[id]))))
	if nb.noise > 0 {
		c.rect(x+1, s.y(fair*(1+nb.noise)), gw-2, s.y(fair*(1-nb.noise))-s.y(fair*(1+nb.noise)), cls("band"))
	}
	slot := gw * 0.8 / float64(len(res.Rules))
	for r := range res.Rules {
		load := nb.load(r, id)
		bx := x + gw*0.1 + float64(r)*slot
		c.bar(sts[r], bx+slot*0.1, s.y(load), slot*0.8, s.bottom-s.y(load))
	}
	c.line(x+1, s.y(fair), x+gw-1, s.y(fair), cls("ink"), attr("stroke-width", "1.6"))
	names, _ := shortNames(res.Timeline.Nodes)
	nodeLabel(c, names[id], res.Timeline.Nodes[id], nodeColor(id), x+gw/2, s.bottom, gw, slant)
	c.end()
}

// nodeLabel writes a node's name (short, as shortNames gives it; full,
// its whole name, the tooltip of a shortened one) and colour under its
// group, slanted when names do not fit across.
func nodeLabel(c *canvas, name, full, color string, cx, y, gw float64, slant bool) {
	if slant {
		name = fit(name, 84, 10)
		c.rect(cx-3.5, y+5, 7, 7, attr("fill", color))
		c.shortText(cx+3, y+20, name, full, cls("fg"), attr("font-size", "10"), attr("text-anchor", "end"),
			attr("transform", "rotate(-40 "+num(cx+3)+" "+num(y+20)+")"))
		return
	}
	name = fit(name, gw-14, 10)
	tw := textW(name, 10)
	c.rect(cx-tw/2-9, y+7, 7, 7, attr("fill", color))
	c.shortText(cx-tw/2+1, y+14, name, full, cls("fg"), attr("font-size", "10"))
}

func balanceCaption(res *sim.Result, last int, noise float64) string {
	var b strings.Builder
	b.WriteString("Each group is one live node; its bars say how many keys the node stores under each rule. ")
	b.WriteString("The level line across each group is the node's fair share (an equal split by weight) and the grey band around it is the spread that placing keys at random would already give with this many keys, ")
	fmt.Fprintf(&b, "±%s: bars inside the band are as even as chance allows, bars far outside it mean that rule overloads or starves that node.", pct(noise))
	var failed []string
	for _, m := range res.Timeline.States[last].Members {
		if m.Failed {
			failed = append(failed, res.Timeline.Nodes[m.ID])
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(&b, " Failed nodes (%s) hold no keys and are left out.", strings.Join(failed, ", "))
	}
	_, suffix := shortNames(res.Timeline.Nodes)
	b.WriteString(suffixNote(suffix))
	return b.String()
}

// deviationFigure draws each rule's worst deviation from the fair share
// over the steps, with the noise floor.
func deviationFigure(res *sim.Result) Figure {
	noise := make([]float64, len(res.Timeline.States))
	for i := range noise {
		noise[i] = res.Balance(0, i).NoiseCV
	}
	return lineChart{name: "deviation.svg", kind: "deviation",
		title:    "Worst node's distance from its fair share, step by step",
		subtitle: "Worst node's deviation from its fair share, step by step",
		caption:  deviationCaption(res), unit: "worst node vs fair share (over or under)",
		value: func(r, i int) float64 { return res.Balance(r, i).WorstDeviation },
		ref:   noise, refName: "noise", refText: "noise floor: typical deviation of random placement",
		refStyle: []string{cls("noise"), attr("fill", "none"), attr("stroke-width", "1.6"), attr("stroke-dasharray", "5 3")},
		label:    pct}.draw(res)
}

// lineChart is a whole-run figure of one line per rule over the steps,
// and a reference line (dashed noise floor, fair share): the layout
// deviation.svg and busiest.svg share.
type lineChart struct {
	name, kind, title, subtitle, caption, unit string
	value                                      func(r, i int) float64
	ref                                        []float64 // by step
	refName, refText                           string
	refStyle                                   []string
	label                                      func(float64) string // an end label's value
	ratio                                      bool                 // the axis is a ratio, not a percentage
}

func (lc lineChart) draw(res *sim.Result) Figure {
	n := len(res.Timeline.States)
	sts := styles(res)
	hd := headingOf(res.Scenario.Title, lc.subtitle, figW)
	items := append(ruleSwatches(ruleLabels(res), sts, false, true), legendItem{text: lc.refText, w: lineSwatchW, draw: func(c *canvas, x, y float64) {
		c.line(x, y-4, x+lineSwatchW, y-4, lc.refStyle...)
	}})
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 22
	h := top + 180 + 40
	c := newCanvas(figW, h, figID(res, lc.name), lc.title, lc.caption)
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
	hi := 0.0
	for i := range n {
		hi = max(hi, lc.ref[i])
		for r := range res.Rules {
			hi = max(hi, lc.value(r, i))
		}
	}
	s := niceScale(hi, 5, false, top+180, top)
	ends := [][2]string{{lc.refName, lc.label(lc.ref[n-1])}}
	for r, rr := range res.Rules {
		ends = append(ends, [2]string{rr.Spec.Label, lc.label(lc.value(r, n-1))})
	}
	right := plotRight(ends...)
	c.yAxis(s, plotL, right, lc.unit, !lc.ratio)
	gw := (right - plotL) / float64(n)
	x := func(i int) float64 { return plotL + (float64(i)+0.5)*gw }
	var labels []endLabel
	c.path(polyline(x, s, lc.ref), lc.refStyle...)
	for r := range res.Rules {
		ys := make([]float64, n)
		for i := range n {
			ys[i] = lc.value(r, i)
		}
		c.ruleLine(sts[r], polyline(x, s, ys), 2.2)
		if gw >= 8 {
			c.marks(sts[r], points(x, s, ys), 3)
		}
		labels = append(labels, endLabel{y: s.y(ys[n-1]), name: res.Rules[r].Spec.Label, value: lc.label(ys[n-1]), swatch: markSwatch(sts[r])})
	}
	labels = append(labels, endLabel{y: s.y(lc.ref[n-1]), name: lc.refName, value: lc.label(lc.ref[n-1]), swatch: strokeSwatch(lc.refStyle...)})
	c.endLabels(labels, right+8, s.top, s.bottom, figW-right-12)
	c.stepLabels(res, 0, plotL, gw, s.bottom+13)
	return c.figure(Figure{Name: lc.name, Kind: lc.kind, Step: -1, Title: lc.title, Caption: lc.caption})
}

func polyline(x func(int) float64, s scale, ys []float64) string {
	var b strings.Builder
	for i, v := range ys {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString("L")
		}
		b.WriteString(num1(x(i)) + " " + num1(s.y(v)))
	}
	return b.String()
}

func deviationCaption(res *sim.Result) string {
	var b strings.Builder
	b.WriteString("For each step (x axis, step 0 is the starting cluster) and rule, the line gives how far the most over- or under-loaded node is from its fair share, in percent. ")
	b.WriteString("The dashed line is the noise floor: the typical deviation that a perfectly random, even assignment of this many keys shows; the worst of several nodes sits somewhat above it even then. ")
	b.WriteString("A rule whose line stays far above the dashed line is uneven by construction (for a ring: too few points per node), not by bad luck.")
	return b.String()
}

// points are the data points (x(i), ys[i]) in pixels.
func points(x func(int) float64, s scale, ys []float64) [][2]float64 {
	pts := make([][2]float64, len(ys))
	for i, v := range ys {
		pts[i] = [2]float64{x(i), s.y(v)}
	}
	return pts
}

// balanceLegend is the balance figure's legend: the rules (bars, or the
// profile's lines), the fair share and the noise band.
func balanceLegend(res *sim.Result, sts []ruleStyle, noise float64, lines bool) []legendItem {
	items := append(ruleSwatches(ruleLabels(res), sts, !lines, lines),
		legendItem{text: "fair share", draw: func(c *canvas, x, y float64) { c.line(x, y-4, x+12, y-4, cls("ink"), attr("stroke-width", "2")) }})
	if noise == 0 {
		return items
	}
	return append(items, legendItem{text: fmt.Sprintf("noise band: ±%s, what random placement gives", pct(noise)), draw: func(c *canvas, x, y float64) { c.rect(x, y-9, 12, 10, cls("band")) }})
}

// balanceHeading is the balance figure's heading.
func balanceHeading(res *sim.Result, last int) heading {
	return headingOf(res.Scenario.Title, balanceSub(res, last), figW)
}

// balanceSub is the balance figure's subtitle.
func balanceSub(res *sim.Result, last int) string {
	return "Keys per node after step " + fmt.Sprint(last) + " (" + opText(res, last) + ")"
}

// balanceHead writes the balance figure's heading and legend.
func balanceHead(c *canvas, hd heading, items []legendItem) {
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
}

// balanceProfile is the balance figure of a large cluster: for each rule,
// every live node's keys as a share of its fair share, sorted from the
// most to the least loaded, so that a line's slope is the rule's spread
// and its ends are the busiest and idlest nodes, whatever the node count.
func balanceProfile(res *sim.Result, live []timeline.Member, last int, noise float64) Figure {
	const name = "balance.svg"
	title := fmt.Sprintf("Keys per node after the last step (step %d), as a share of the fair share, most loaded first", last)
	rel := make([][]float64, len(res.Rules))
	lo, hi := 1-noise, 1+noise
	for r := range res.Rules {
		rel[r] = sortedShares(res, r, last, live)
		lo, hi = min(lo, rel[r][len(live)-1]), max(hi, rel[r][0])
	}
	caption := profileCaption(res, len(live), last, noise, rel)
	sts := styles(res)
	items := balanceLegend(res, sts, noise, true)
	hd := balanceHeading(res, last)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 22
	c := newCanvas(figW, top+200+40, figID(res, name), title, caption)
	balanceHead(c, hd, items)
	s := niceRange(lo, hi, 5, top+200, top)
	n := len(live)
	spreads := make([]string, len(res.Rules))
	var ends [][2]string
	for r, rr := range res.Rules {
		spreads[r] = text.Fixed(0, 100*rel[r][0]) + "–" + text.Fixed(0, 100*rel[r][n-1]) + "%"
		ends = append(ends, [2]string{rr.Spec.Label, spreads[r]})
	}
	right := plotRight(ends...)
	c.yAxis(s, plotL, right, "keys held, share of fair share", true)
	c.rect(plotL, s.y(1+noise), right-plotL, s.y(1-noise)-s.y(1+noise), cls("band"))
	c.line(plotL, s.y(1), right, s.y(1), cls("ink"), attr("stroke-width", "1.6"))
	gw := (right - plotL) / float64(n)
	x := func(j int) float64 { return plotL + (float64(j)+0.5)*gw }
	var labels []endLabel
	for r := range res.Rules {
		ranks, ys := profilePoints(rel[r], int(right-plotL))
		c.ruleLine(sts[r], polylineAt(ranks, x, s, ys), 2)
		c.marks(sts[r], [][2]float64{{x(0), s.y(rel[r][0])}, {x(n - 1), s.y(rel[r][n-1])}}, 3)
		labels = append(labels, endLabel{y: s.y(rel[r][n-1]), name: res.Rules[r].Spec.Label, value: spreads[r], swatch: markSwatch(sts[r])})
	}
	c.endLabels(labels, right+8, s.top, s.bottom, figW-right-12)
	c.text(plotL, s.bottom+14, "busiest node", cls("muted"), attr("font-size", "10"))
	c.text(right, s.bottom+14, fmt.Sprintf("idlest (%s live nodes, each rule in its own order)", commas(n)), cls("muted"), attr("font-size", "10"), attr("text-anchor", "end"))
	return c.figure(Figure{Name: name, Kind: "balance", Step: -1, Title: title, Caption: caption})
}

// sortedShares returns the live nodes' keys under rule r at step i over
// their fair shares, largest first.
func sortedShares(res *sim.Result, r, i int, live []timeline.Member) []float64 {
	// LoadShares takes every member's share in one pass (the same floats
	// as LoadShare, which looks the member up and sums the weights at
	// every call: n² over 10⁴ nodes).
	shares := make([]float64, len(res.Timeline.Nodes))
	for j, s := range res.LoadShares(r, i) {
		shares[res.Timeline.States[i].Members[j].ID] = s
	}
	out := make([]float64, len(live))
	for j, m := range live {
		out[j] = shares[m.ID]
	}
	slices.SortFunc(out, func(a, b float64) int { return cmp.Compare(b, a) })
	return out
}

// profilePoints thins a sorted profile to at most width points, the first
// and last always kept: a monotone line loses nothing a pixel can show.
func profilePoints(vals []float64, width int) (ranks []int, ys []float64) {
	n := len(vals)
	step := max(1, ceilDiv(n, max(width, 2)))
	for j := 0; j < n; j += step {
		ranks, ys = append(ranks, j), append(ys, vals[j])
	}
	if ranks[len(ranks)-1] != n-1 {
		ranks, ys = append(ranks, n-1), append(ys, vals[n-1])
	}
	return ranks, ys
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// polylineAt is polyline through the points (x(at[j]), ys[j]).
func polylineAt(at []int, x func(int) float64, s scale, ys []float64) string {
	return polyline(func(j int) float64 { return x(at[j]) }, s, ys)
}

func profileCaption(res *sim.Result, live, last int, noise float64, rel [][]float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "With %s live nodes, each rule is one line: its nodes' keys as a share of their fair share (an equal split by weight), sorted from the most to the least loaded, each rule in its own order. ", commas(live))
	fmt.Fprintf(&b, "The level line at 100%% is the fair share and the grey band around it one standard deviation of what placing keys at random gives, ±%s: even then about a third of the nodes fall outside it, so a line that leaves the band only near its ends is as even as chance allows, and a steeper one overloads some nodes and starves others. ", pct(noise))
	var parts []string
	for r, rr := range res.Rules {
		parts = append(parts, fmt.Sprintf("%s from %s to %s", rr.Spec.Label, pct(rel[r][0]), pct(rel[r][len(rel[r])-1])))
	}
	fmt.Fprintf(&b, "After step %d the busiest and idlest nodes hold: %s. The report's last load table names them.", last, strings.Join(parts, "; "))
	return b.String()
}
