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
	k := float64(res.Keys.Len())
	hi := 0.0
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			hi = max(hi, float64(max(sr.BelowQuorum, sr.Unavailable))/k)
		}
	}
	return shareChart{name: name, kind: "availability", title: title, caption: caption,
		subtitle: "Availability: keys below quorum (light) and with no live replica (dark)",
		items:    ruleSwatches(ruleLabels(res), sts, true, false), styles: sts, series: len(res.Rules), max: hi,
		bar: func(c *canvas, s scale, i, r int, x, w float64) {
			sr := &res.Rules[r].Steps[i]
			yq := s.y(float64(max(sr.BelowQuorum, sr.Unavailable)) / k)
			c.rect(x, yq, w, s.bottom-yq, attr("fill", sts[r].color), attr("fill-opacity", "0.4"))
			yu := s.y(float64(sr.Unavailable) / k)
			c.bar(sts[r], x, yu, w, s.bottom-yu)
		}}.draw(res)
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
