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
	items := ruleSwatches(res)
	_, _, _, lh := legendLayout(items, 8, headH+6, figW-16)
	top := headH + 6 + lh + 22
	h := top + 180 + 40
	c := newCanvas(figW, h, figID(res, name), title, caption)
	c.text(8, 18, fit("Availability: keys below quorum (light) and with no live replica (dark)", figW-16, 13), cls("fg", "b"), attr("font-size", "13"))
	c.rowLegend(items, 8, headH+6, figW-16)
	steps := len(res.Timeline.States)
	gw := (plotR - plotL) / float64(steps)
	k := float64(res.Keys.Len())
	hi := 0.0
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			hi = max(hi, float64(max(sr.BelowQuorum, sr.Unavailable))/k)
		}
	}
	s := niceScale(hi, 5, false, top+180, top)
	c.yAxis(s, plotL, plotR, "share of keys", true)
	slot := gw * 0.84 / float64(len(res.Rules))
	for i := range steps {
		gx := plotL + float64(i)*gw + gw*0.08
		for r, rr := range res.Rules {
			sr := &rr.Steps[i]
			x := gx + float64(r)*slot + slot*0.1
			yq := s.y(float64(max(sr.BelowQuorum, sr.Unavailable)) / k)
			c.rect(x, yq, slot*0.8, s.bottom-yq, attr("fill", ruleColor(r)), attr("fill-opacity", "0.45"))
			yu := s.y(float64(sr.Unavailable) / k)
			c.rect(x, yu, slot*0.8, s.bottom-yu, attr("fill", ruleColor(r)))
		}
	}
	c.stepLabels(res, 0, plotL, gw, s.bottom+13)
	return Figure{Name: name, Kind: "availability", Step: -1, Title: title, Caption: caption, SVG: c.bytes()}
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
