package svg

import "github.com/ringreport/ringreport/internal/sim"

// shareChart is a whole-run figure of grouped bars, one group per step and
// one bar per series, on a share-of-keys axis from 0 to max: the layout
// migrations.svg and availability.svg share.
type shareChart struct {
	name, kind, title, subtitle, caption string
	items                                []legendItem
	styles                               []ruleStyle // for the hatches the bars use
	series                               int
	max                                  float64
	unit                                 string // the y axis's; "" is "share of keys"
	// bar draws series j's bar at step i, of width w from x, against s.
	bar func(c *canvas, s scale, i, j int, x, w float64)
}

func (sc shareChart) draw(res *sim.Result) Figure {
	hd := headingOf(res.Scenario.Title, sc.subtitle, figW)
	_, _, _, lh := legendLayout(sc.items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 22
	c := newCanvas(figW, top+180+40, figID(res, sc.name), sc.title, sc.caption)
	c.hatchPatterns(sc.styles)
	c.heading(hd)
	c.rowLegend(sc.items, 8, hd.h+6, figW-16)
	steps := len(res.Timeline.States)
	right := figW - 12.0 // no end labels: the legend names the bars
	gw := (right - plotL) / float64(steps)
	s := niceScale(sc.max, 5, false, top+180, top)
	unit := sc.unit
	if unit == "" {
		unit = "share of keys"
	}
	c.yAxis(s, plotL, right, unit, true)
	slot := gw * 0.84 / float64(sc.series)
	for i := range steps {
		gx := plotL + float64(i)*gw + gw*0.08
		for j := range sc.series {
			sc.bar(c, s, i, j, gx+float64(j)*slot+slot*0.1, slot*0.8)
		}
	}
	c.stepLabels(res, 0, plotL, gw, s.bottom+13)
	return c.figure(Figure{Name: sc.name, Kind: sc.kind, Step: -1, Title: sc.title, Caption: sc.caption})
}
