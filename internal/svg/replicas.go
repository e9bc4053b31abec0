package svg

// Figures for replicas and requests: what a step costs beyond the
// primaries' moves (the copies a replica set needs), and what it costs
// in traffic (the requests that move with the keys, and the busiest
// node's load).

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// replicated reports whether any step keeps more than one replica: the
// replicas figure is drawn only then.
func replicated(res *sim.Result) bool {
	for _, st := range res.Timeline.States {
		if st.Replicas > 1 {
			return true
		}
	}
	return false
}

// replicasFigure draws, per step and rule, the replica copies the step
// had to make (light) beside the keys whose primary moved (solid), both
// over the number of keys: a failure that moves 41 primaries may copy
// 246 replicas.
func replicasFigure(res *sim.Result) Figure {
	const name = "replicas.svg"
	title := "Replica copies made and primaries moved, per step and rule"
	sts := styles(res)
	k := float64(res.Keys.Len())
	hi := 0.0
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			hi = max(hi, float64(max(sr.Copies, sr.Moved))/k)
		}
	}
	items := append(ruleSwatches(ruleLabels(res), sts, true, false),
		legendItem{text: "light: replica copies made", draw: func(c *canvas, x, y float64) {
			c.rect(x, y-9, 12, 10, cls("band"))
		}})
	return shareChart{name: name, kind: "replicas", title: title, caption: replicasCaption(res),
		subtitle: "Replicas: copies made (light) and keys whose primary moved (solid), per key",
		items:    items, styles: sts, series: len(res.Rules), max: hi, unit: "copies or moves per key",
		bar: func(c *canvas, s scale, i, r int, x, w float64) {
			sr := &res.Rules[r].Steps[i]
			yc := s.y(float64(max(sr.Copies, sr.Moved)) / k)
			c.rect(x, yc, w, s.bottom-yc, attr("fill", sts[r].color), attr("fill-opacity", "0.35"))
			ym := s.y(float64(sr.Moved) / k)
			c.bar(sts[r], x+w/4, ym, w/2, s.bottom-ym)
		}}.draw(res)
}

func replicasCaption(res *sim.Result) string {
	var parts []string
	for _, rr := range res.Rules {
		copies, moved, at := 0, 0, 0
		for i, sr := range rr.Steps {
			if sr.Copies > copies {
				copies, moved, at = sr.Copies, sr.Moved, i
			}
		}
		if copies == 0 {
			parts = append(parts, rr.Spec.Label+" makes no copies")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s copies %s replicas at step %d, where %s primaries move", rr.Spec.Label, commas(copies), at, commas(moved)))
	}
	return "For each step, one bar per rule: the light bar is the replica copies the step had to make, every node that entered a key's preference list holding a key it did not hold, " +
		"the narrow solid bar the keys whose primary changed, both over the number of keys (a bar above 100% is more than one copy per key). " +
		"With more than one replica a step costs its copies, not its moved keys: " + strings.Join(parts, "; ") + "."
}

// requestsFigure draws, per step and rule, the share of requests that
// moved (solid) beside the share of keys (light): with hot keys the two
// differ, and the requests are the traffic that lands on a cold cache.
func requestsFigure(res *sim.Result) Figure {
	const name = "requests.svg"
	title := "Requests moved and keys moved, per step and rule"
	sts := styles(res)
	k, q := float64(res.Keys.Len()), float64(res.Keys.Requests)
	hi := 0.0
	for _, rr := range res.Rules {
		for _, sr := range rr.Steps {
			hi = max(hi, float64(sr.Moved)/k, float64(sr.MovedRequests)/q)
		}
	}
	items := append(ruleSwatches(ruleLabels(res), sts, true, false),
		legendItem{text: "light: keys moved", draw: func(c *canvas, x, y float64) { c.rect(x, y-9, 12, 10, cls("band")) }})
	return shareChart{name: name, kind: "requests", title: title, caption: requestsCaption(res),
		subtitle: "Requests: share of requests moved (solid) and of keys moved (light)",
		items:    items, styles: sts, series: len(res.Rules), max: hi, unit: "share of requests or keys",
		bar: func(c *canvas, s scale, i, r int, x, w float64) {
			sr := &res.Rules[r].Steps[i]
			yk := s.y(float64(sr.Moved) / k)
			c.rect(x, yk, w/2, s.bottom-yk, attr("fill", sts[r].color), attr("fill-opacity", "0.35"))
			yq := s.y(float64(sr.MovedRequests) / q)
			c.bar(sts[r], x+w/2, yq, w/2, s.bottom-yq)
		}}.draw(res)
}

func requestsCaption(res *sim.Result) string {
	var parts []string
	k, q := float64(res.Keys.Len()), float64(res.Keys.Requests)
	for _, rr := range res.Rules {
		best, at := int64(-1), 0
		for i, sr := range rr.Steps {
			if i > 0 && sr.MovedRequests > best {
				best, at = sr.MovedRequests, i
			}
		}
		if best < 0 {
			continue
		}
		sr := &rr.Steps[at]
		parts = append(parts, fmt.Sprintf("%s moves %s of the requests with %s of the keys at step %d",
			rr.Spec.Label, pct(float64(sr.MovedRequests)/q), pct(float64(sr.Moved)/k), at))
	}
	s := fmt.Sprintf("For each step, two bars per rule: the light one is the share of the %s keys that changed node, the solid one the share of the %s requests they carry, from the keys' request counts. ",
		commas(res.Keys.Len()), commas(int(res.Keys.Requests)))
	if len(parts) > 0 {
		s += "Where a hot key moves the two differ: " + strings.Join(parts, "; ") + "."
	}
	return s
}

// busiestFigure draws, per rule, the busiest node's requests over its
// fair share of them at every step (request_peak_to_mean): the load the
// hottest server has to carry, with the fair share (1×) for reference.
func busiestFigure(res *sim.Result) Figure {
	one := make([]float64, len(res.Timeline.States))
	for i := range one {
		one[i] = 1
	}
	peak := func(r, i int) float64 {
		v, _ := res.Metric("request_peak_to_mean", r, i)
		return v
	}
	var parts []string
	last := len(one) - 1
	for r, rr := range res.Rules {
		parts = append(parts, fmt.Sprintf("%s %s", rr.Spec.Label, times(peak(r, last))))
	}
	caption := "For each step (x axis, step 0 is the starting cluster) and rule, the line gives the busiest node's requests over its fair share of the requests (1× is exactly its share, the solid line): " +
		"the load the hottest server carries, which one hot key can set whatever the keys' balance. At the last step: " + strings.Join(parts, ", ") + "."
	return lineChart{name: "busiest.svg", kind: "busiest",
		title:    "Busiest node's requests over its fair share, step by step",
		subtitle: "Busiest node's requests over its fair share, step by step",
		caption:  caption, unit: "busiest node's requests ÷ fair share", ratio: true,
		value: peak, ref: one, refName: "fair", refText: "fair share (1×)",
		refStyle: []string{cls("ink"), attr("fill", "none"), attr("stroke-width", "1.2")},
		label:    times}.draw(res)
}

// servedFigure draws, per live node at the last step, the requests it
// serves under each rule against its fair share of all requests (an
// equal split by weight): where busiest.svg follows the hottest server
// over time, this shows which servers a hot key overloads, and that the
// keys' balance (balance.svg) does not even requests out. With more live
// nodes than maxBalanceGroups it is not drawn (servedShown).
func servedFigure(res *sim.Result) Figure {
	last := len(res.Timeline.States) - 1
	live := liveAt(res, last)
	total := make([]float64, len(res.Rules))
	for r, rr := range res.Rules {
		for _, m := range live {
			total[r] += float64(rr.Steps[last].Requests[m.ID])
		}
	}
	k := float64(res.Keys.Len())
	fair := func(id timeline.NodeID) float64 { return res.FairShare(id, last) / k * total[0] }
	var parts []string
	for r, rr := range res.Rules {
		v, _ := res.Metric("request_peak_to_mean", r, last)
		parts = append(parts, fmt.Sprintf("%s %s", rr.Spec.Label, times(v)))
	}
	caption := fmt.Sprintf("Each group is one live node after the last step; its bars say how many of the %s requests it serves under each rule "+
		"(the summed request counts of the keys it owns). The level line across each group is its fair share of them, an equal split by weight. "+
		"A bar far above the line is a server that a hot key overloads, however even the keys are; the busiest node's requests over its fair share: %s.",
		commas(int(total[0])), strings.Join(parts, ", "))
	return nodeBars{name: "served.svg", kind: "served",
		title:   fmt.Sprintf("Requests per node after the last step (step %d), against the fair share", last),
		heading: "Requests per node after step " + fmt.Sprint(last) + " (" + opText(res, last) + ")",
		caption: caption, unit: "requests served",
		load: func(r int, id timeline.NodeID) float64 { return float64(res.Rules[r].Steps[last].Requests[id]) },
		fair: fair,
	}.draw(res, live)
}

// servedShown reports whether a replay has a served.svg: request counts,
// and at most maxBalanceGroups live nodes at the last step.
func servedShown(res *sim.Result) bool {
	return res.Keys.Weight != nil && len(liveAt(res, len(res.Timeline.States)-1)) <= maxBalanceGroups
}

// times writes a ratio as "2.19×".
func times(v float64) string { return fmt.Sprintf("%.2f×", v) }
