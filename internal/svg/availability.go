package svg

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
)

// availabilityFigure draws, per step and rule, the keys below a quorum of
// live replicas (light) and those with none (dark), as shares of the keys:
// what a failure costs in reads and writes before any data moves.
func availabilityFigure(res *sim.Result) Figure {
	const name = "availability.svg"
	title := "Keys below quorum and unavailable, per step and rule"
	caption := availabilityCaption(res)
	sts := styles(res)
	items := ruleSwatches(ruleLabels(res), sts, true, false)
	hd := headingOf(res.Scenario.Title, "Availability: keys below quorum (light) and with no live replica (dark)", figW)
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
	k := float64(res.Keys.Len())
	hi := 0.0
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			hi = max(hi, float64(max(sr.BelowQuorum, sr.Unavailable))/k)
		}
	}
	s := niceScale(hi, 5, false, top+180, top)
	c.yAxis(s, plotL, right, "share of keys", true)
	slot := gw * 0.84 / float64(len(res.Rules))
	for i := range steps {
		gx := plotL + float64(i)*gw + gw*0.08
		for r, rr := range res.Rules {
			sr := &rr.Steps[i]
			x := gx + float64(r)*slot + slot*0.1
			yq := s.y(float64(max(sr.BelowQuorum, sr.Unavailable)) / k)
			c.rect(x, yq, slot*0.8, s.bottom-yq, attr("fill", sts[r].color), attr("fill-opacity", "0.4"))
			yu := s.y(float64(sr.Unavailable) / k)
			c.bar(sts[r], x, yu, slot*0.8, s.bottom-yu)
		}
	}
	c.stepLabels(res, 0, plotL, gw, s.bottom+13)
	return c.figure(Figure{Name: name, Kind: "availability", Step: -1, Title: title, Caption: caption})
}

// availability reports whether any rule at any step has keys below quorum
// or unavailable: the figure is drawn only then.
func availability(res *sim.Result) bool {
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			if sr.BelowQuorum+sr.Unavailable > 0 {
				return true
			}
		}
	}
	return false
}

func availabilityCaption(res *sim.Result) string {
	var parts []string
	for _, rr := range res.Rules {
		worst, at := 0, 0
		for i, sr := range rr.Steps {
			if n := max(sr.BelowQuorum, sr.Unavailable); n > worst {
				worst, at = n, i
			}
		}
		if worst == 0 {
			parts = append(parts, rr.Spec.Label+" keeps every key at quorum")
			continue
		}
		sr := &rr.Steps[at]
		parts = append(parts, fmt.Sprintf("%s has %s keys below quorum and %s with no live replica at step %d",
			rr.Spec.Label, commas(sr.BelowQuorum), commas(sr.Unavailable), at))
	}
	return "For each step, one bar per rule: the light bar is the share of keys with fewer than a quorum (⌊R/2⌋ + 1) of live replicas, the dark one the share with none: " +
		strings.Join(parts, "; ") + "."
}
