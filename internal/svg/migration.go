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
	k := float64(res.Keys.Len())
	return shareChart{name: name, kind: "migrations", title: title, caption: caption,
		subtitle: "Switching rules: keys whose owner differs, at every step",
		items:    items, styles: sts, series: len(res.Migrations), max: 1,
		bar: func(c *canvas, s scale, i, m int, x, w float64) {
			y := s.y(float64(res.Migrations[m].Steps[i].Differ) / k)
			c.bar(sts[m], x, y, w, s.bottom-y)
		}}.draw(res)
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
