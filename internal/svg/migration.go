package svg

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

// migrationFigure draws, for every compared pair of rules, the share of
// keys whose owner differs between them at each step: what moving the
// clients from one rule to the other would reshuffle, if done then. A
// pair's bars take the colour of the rule it moves from.
func migrationFigure(res *sim.Result) Figure {
	const name = "migrations.svg"
	title := "Keys that change owner if the clients switch rules"
	caption := migrationCaption(res)
	rs := styles(res)
	var items []legendItem
	var sts []ruleStyle
	for _, mr := range res.Migrations {
		st := rs[ruleIndex(res, mr.From)]
		sts = append(sts, st)
		items = append(items, legendItem{text: mr.From + " → " + mr.To, draw: func(c *canvas, x, y float64) {
			c.bar(st, x, y-9, 12, 10)
		}})
	}
	hd := headingOf(res.Scenario.Title, "Switching rules: keys whose owner differs, at every step", figW)
	_, _, _, lh := legendLayout(items, 8, hd.h+6, figW-16)
	top := hd.h + 6 + lh + 22
	h := top + 180 + 40
	c := newCanvas(figW, h, figID(res, name), title, caption)
	c.hatchPatterns(sts)
	c.heading(hd)
	c.rowLegend(items, 8, hd.h+6, figW-16)
	steps := len(res.Timeline.States)
	right := figW - 12.0 // no end labels: the legend names the bars
	gw := (right - plotL) / float64(steps)
	s := niceScale(1, 5, false, top+180, top)
	c.yAxis(s, plotL, right, "share of keys", true)
	k := float64(res.Keys.Len())
	slot := gw * 0.84 / float64(len(res.Migrations))
	for i := range steps {
		gx := plotL + float64(i)*gw + gw*0.08
		for m, mr := range res.Migrations {
			y := s.y(float64(mr.Steps[i].Differ) / k)
			c.bar(sts[m], gx+float64(m)*slot+slot*0.1, y, slot*0.8, s.bottom-y)
		}
	}
	c.stepLabels(res, 0, plotL, gw, s.bottom+13)
	return c.figure(Figure{Name: name, Kind: "migrations", Step: -1, Title: title, Caption: caption})
}

// ruleIndex is the position of the rule labelled label.
func ruleIndex(res *sim.Result, label string) int {
	for r := range res.Rules {
		if res.Rules[r].Spec.Label == label {
			return r
		}
	}
	return 0
}

func migrationCaption(res *sim.Result) string {
	var parts []string
	for _, mr := range res.Migrations {
		lo, hi := mr.Steps[0].Differ, mr.Steps[0].Differ
		for _, st := range mr.Steps {
			lo, hi = min(lo, st.Differ), max(hi, st.Differ)
		}
		parts = append(parts, fmt.Sprintf("switching from %s to %s moves %s to %s of the %s keys, once",
			mr.From, mr.To, commas(lo), commas(hi), commas(res.Keys.Len())))
	}
	return "Each bar is the share of keys whose primary owner under one rule differs from its owner under the other, on the same membership at that step: " +
		strings.Join(parts, "; ") + "."
}
