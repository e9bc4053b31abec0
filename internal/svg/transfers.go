package svg

import (
	"fmt"
	"math"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// transferPanelH is the height of one rule's panel: half above the zero
// line (received), half below (sent).
const transferPanelH = 96.0

// transferHead is the room for a panel's title, transferPad for the value
// labels above and below the bars.
const (
	transferHead = 22.0
	transferPad  = 12.0
)

// transferTotals sums, per rule and node, the keys received and sent
// over the run: in[r][id], out[r][id].
func transferTotals(res *sim.Result) (in, out [][]int) {
	n := len(res.Timeline.Nodes)
	for _, rr := range res.Rules {
		ri, ro := make([]int, n), make([]int, n)
		for id, t := range rr.NodeTransfers {
			ri[id], ro[id] = t.In, t.Out
		}
		in, out = append(in, ri), append(out, ro)
	}
	return in, out
}

// transfersFigure draws, for each rule, every node's keys received (up)
// and sent (down) over the whole run, on one scale for all rules.
func transfersFigure(res *sim.Result) Figure {
	const name = "transfers.svg"
	title := "Keys each node received and sent over the whole run, per rule"
	caption := transfersCaption(res)
	in, out := transferTotals(res)
	hi := 0
	for r := range res.Rules {
		for id := range res.Timeline.Nodes {
			hi = max(hi, in[r][id], out[r][id])
		}
	}
	items := []legendItem{
		{text: "received: keys that came to the node (bar up)", draw: func(c *canvas, x, y float64) { c.rect(x, y-9, 12, 10, attr("fill", inColor)) }},
		{text: "sent: keys that left it (bar down)", draw: func(c *canvas, x, y float64) { c.rect(x, y-9, 12, 10, attr("fill", outColor)) }},
	}
	hd := headingOf(res.Scenario.Title, "Keys each node received and sent over the whole run", figW)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 6
	nodes, _ := shortNames(res.Timeline.Nodes)
	gw := (figW - 12 - plotL) / float64(max(len(nodes), 1))
	slant := false
	for _, name := range nodes {
		slant = slant || textW(name, 10) > gw-14
	}
	heads := make([][]headLine, len(res.Rules))
	panels := top
	for r, rr := range res.Rules {
		heads[r] = ruleHead(rr.Spec.Label, commas(rr.Steps[len(rr.Steps)-1].TotalMoved)+" keys moved in all", 11.5, 11.5)
		panels += transferPanelHeight(heads[r])
	}
	h := panels + 30
	if slant {
		h += 60
	}
	c := newCanvas(figW, h, figID(res, name), title, caption)
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
	half := transferPanelH / 2
	s := niceScale(float64(hi), 2, true, half, 0)
	y0 := top
	for r := range res.Rules {
		c.ruleHead(heads[r], y0+16, 11.5, 11.5)
		extra := float64(len(heads[r])-1) * headStep
		transferPanel(c, in[r], out[r], s, y0+extra+transferHead+transferPad, gw)
		y0 += transferPanelHeight(heads[r])
	}
	bottom := panels - 10
	// Slanted names need about 12 px each; when the columns are narrower,
	// every k-th node is named and the rest keep their colour swatch.
	every := 1
	if slant && gw < 12 {
		every = int(12/gw) + 1
	}
	for id, name := range nodes {
		cx := plotL + (float64(id)+0.5)*gw
		if id%every == 0 {
			nodeLabel(c, name, res.Timeline.Nodes[id], nodeColor(timeline.NodeID(id)), cx, bottom, gw, slant)
		} else {
			c.rect(cx-3.5, bottom+5, 7, 7, attr("fill", nodeColor(timeline.NodeID(id))))
		}
	}
	return c.figure(Figure{Name: name, Kind: "transfers", Step: -1, Title: title, Caption: caption})
}

// transferPanelHeight is the height of a rule's panel under heading head.
func transferPanelHeight(head []headLine) float64 {
	return transferHead + float64(len(head)-1)*headStep + transferPanelH + 2*transferPad + 10
}

// transferPanel draws one rule's bars with the zero line at y0+half and
// labels every tick on both sides.
func transferPanel(c *canvas, in, out []int, s scale, y0, gw float64) {
	mid := y0 + s.bottom
	for _, v := range s.ticks() {
		for _, sign := range []float64{-1, 1} {
			if v == 0 && sign > 0 {
				continue
			}
			y := mid - sign*(s.bottom-s.y(v))
			c.line(plotL, y, figW-12, y, cls("grid"), attr("stroke-width", "1"))
			c.text(plotL-5, y+3.5, tickLabel(v, s.step, false), cls("muted"), attr("text-anchor", "end"), attr("font-size", "10"))
		}
	}
	if gw < crowdedBarW {
		columnPanel(c, in, out, s, mid, gw)
	} else {
		transferBars(c, in, out, s, mid, gw)
	}
	c.line(plotL, mid, figW-12, mid, cls("axis"), attr("stroke-width", "1"))
}

// columnPanel draws a crowded panel's bars, received up from mid and sent
// down, as one outline of pixel columns each (columnBars).
func columnPanel(c *canvas, in, out []int, s scale, mid, gw float64) {
	for _, b := range []struct {
		vals  []int
		sign  float64
		color string
	}{{in, -1, inColor}, {out, 1, outColor}} {
		if d := columnBars(b.vals, s, mid, gw, b.sign); d != "" {
			c.path(d, attr("fill", b.color))
		}
	}
}

// transferBars draws a panel's bars, a rect a node and direction, labelled
// with their counts where the columns have room.
func transferBars(c *canvas, in, out []int, s scale, mid, gw float64) {
	labels := gw >= 34
	for id := range in {
		x := plotL + float64(id)*gw
		bw := max(min(gw*0.5, 36), 1)
		bx, cx := x+(gw-bw)/2, x+gw/2
		if h := s.bottom - s.y(float64(in[id])); in[id] > 0 {
			c.rect(bx, mid-h, bw, h, attr("fill", inColor))
			if labels {
				c.text(cx, mid-h-3, commas(in[id]), cls("fg"), attr("font-size", "9.5"), attr("text-anchor", "middle"))
			}
		}
		if h := s.bottom - s.y(float64(out[id])); out[id] > 0 {
			c.rect(bx, mid, bw, h, attr("fill", outColor))
			if labels {
				c.text(cx, mid+h+10, commas(out[id]), cls("fg"), attr("font-size", "9.5"), attr("text-anchor", "middle"))
			}
		}
	}
}

func transfersCaption(res *sim.Result) string {
	var b strings.Builder
	b.WriteString("One panel per rule, one column per node (every node the scenario names, in order of first appearance). ")
	b.WriteString("The blue bar above the line is how many keys the node received over all steps, the vermillion bar below it how many it handed to other nodes: the data it had to take in and ship out. ")
	b.WriteString("Received minus sent is the node's change in keys; a rule that moves only what it must shows bars on the nodes that joined, left or failed and little elsewhere. All panels share one scale.")
	_, suffix := shortNames(res.Timeline.Nodes)
	b.WriteString(suffixNote(suffix))
	return b.String()
}

// crowdedBarW is the column width under which a panel's bars, a pixel
// wide at least, would overlap their neighbours (more than about 300
// nodes): the panel then draws each direction as one outline of pixel
// columns (columnBars) instead of a rect per node, at a fraction of the
// bytes.
const crowdedBarW = 2.0

// columnBars returns the outline of a crowded panel's bars in one
// direction (sign -1 up from mid, 1 down), or "" when there are none: the
// plot is cut into pixel columns from plotL, each as tall as the tallest
// bar of the nodes whose column middles fall in it (a browser paints
// overlapping bars the same way, the tallest showing), and the outline
// steps along the columns, one step a run of columns of one height.
func columnBars(vals []int, s scale, mid, gw, sign float64) string {
	cols := make([]float64, int(math.Ceil(float64(len(vals))*gw)))
	drawn := false
	for id, v := range vals {
		if h := round1(s.bottom - s.y(float64(v))); v > 0 && h > 0 {
			p := min(int((float64(id)+0.5)*gw), len(cols)-1)
			cols[p], drawn = max(cols[p], h), true
		}
	}
	if !drawn {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "M%s %s", num1(plotL), num1(mid))
	for p := 0; p < len(cols); {
		e := p + 1
		for e < len(cols) && cols[e] == cols[p] {
			e++
		}
		fmt.Fprintf(&b, "V%sh%d", num1(mid+sign*cols[p]), e-p)
		p = e
	}
	b.WriteString("V" + num1(mid) + "z")
	return b.String()
}
