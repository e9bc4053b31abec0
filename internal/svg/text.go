package svg

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
)

// opText says what step i did, e.g. "add f", listing at most three nodes.
func opText(res *sim.Result, i int) string { return text.Change(res, i, 3) }

// opShort is opText for an axis label.
func opShort(res *sim.Result, i int) string {
	st := &res.Timeline.States[i]
	first := ""
	if len(st.Named) > 0 {
		first = res.Timeline.Nodes[st.Named[0]]
		if len(st.Named) > 1 {
			first += "…"
		}
	}
	switch st.Op {
	case timeline.OpAdd:
		return "+" + first
	case timeline.OpRemove:
		return "−" + first
	case timeline.OpFail:
		return "✕" + first
	case timeline.OpRecover:
		return "↺" + first
	case timeline.OpVNodes:
		return "v=" + strconv.Itoa(st.VNodes)
	case timeline.OpReplicas:
		return "R=" + strconv.Itoa(st.Replicas)
	case timeline.OpPartitions:
		return "p=" + strconv.Itoa(st.Partitions)
	case timeline.OpShards:
		return "s=" + strconv.Itoa(st.Shards)
	case timeline.OpWeight:
		return "w " + first
	}
	return "start"
}

func movedList(res *sim.Result, i int) string {
	var parts []string
	k := float64(res.Keys.Len())
	for _, r := range res.Rules {
		m := r.Steps[i].Moved
		parts = append(parts, fmt.Sprintf("%s %s (%s)", r.Spec.Label, commas(m), pct(float64(m)/k)))
	}
	return strings.Join(parts, ", ")
}

// legendScope says which nodes a shortened legend lists (legendMembers),
// or nothing when it lists them all.
func legendScope(res *sim.Result, i int) string {
	if len(res.Timeline.States[i].Members) <= maxLegendRows {
		return ""
	}
	return fmt.Sprintf(": with %s nodes, it lists only those this step acted on, the failed ones and the %d most and %d least loaded under each rule (data.json has them all)",
		commas(len(res.Timeline.States[i].Members)), legendExtremes, legendExtremes)
}

func ringsCaption(arcs *figArcs, i int, rad float64) string {
	res := arcs.res
	var b strings.Builder
	fmt.Fprintf(&b, "Each wheel is the whole 32-bit hash space bent into a circle, starting at the top (0) and running clockwise; "+
		"a key's hash is a point on it, and the key is stored by the node whose colour covers that point. "+
		"The legend gives each node's colour, how many of the %s keys it holds and its share%s. ", commas(res.Keys.Len()), legendScope(res, i))
	if hasPoints(res, i) {
		b.WriteString("Ticks outside a ring rule's wheel are its points (virtual nodes): each point claims the stretch of circle just before it, " +
			"so more points per node give finer, more even stripes. ")
	}
	m := mosaicRules(res)
	if m != "" {
		b.WriteString("Under " + m + " the owner changes from one hash to the next, so there are no arcs to draw: " +
			"such a wheel is its rule's buckets or table bent round, every live node's share of the keys end to end in join order " +
			"(for modulo and jump its bucket, for maglev its table entries), drawn without key dots; after step 0 an inner ring fills each node's part, " +
			"from its start, with the keys it received in the step, coloured by why as in the strips. ")
		if anyCrowded(res, i, rad) {
			fmt.Fprintf(&b, "Where a share wheel's parts are under %.0f px on average they are drawn a pixel at a time and cut apart only where two parts of %.0f px or more meet", minCutSegment, minCutSegment)
			if i > 0 {
				b.WriteString(", and each pixel of its inner ring is tinted by the share of it that received keys")
			}
			b.WriteString(". ")
		}
	}
	if res.Keys.Len() > maxDots {
		b.WriteString("There are too many keys to draw them; the strips figure shows which ones moved. ")
	} else if len(res.Rules) > 0 {
		b.WriteString("Grey dots inside are the keys, each where its rule puts it: at its hash under the rule's hash function, or for slots at its slot")
		if i > 0 {
			b.WriteString("; the large dark dots are the keys that changed node in this step")
		}
		b.WriteString(". ")
	}
	if anyArcsChanged(arcs, i) {
		fmt.Fprintf(&b, "A wheel of more than %d arcs shows only what changed in this step: the arcs whose owner changed, coloured by why as in the strips (to a node that joined or recovered, off one that left or failed, or between nodes that stayed), each pixel of the ring at an opacity equal to the share of it that changed (to 1/%d), so that a share spread over many thin arcs shows as a tint of its true strength; the rest is grey, like the points of the nodes the step did not act on, and the points of the nodes it acted on are dark. ", changedArcs, strips.ShadeLevels)
	}
	if len(res.Scenario.Probes) > 0 {
		b.WriteString("Numbered diamonds are the probe keys, in their primary's colour, where the rule puts them (on a share wheel, outside their primary's part); the list under each wheel gives each probe's preference list, primary first, and what it was before this step when the step changed it. ")
	}
	if i > 0 {
		fmt.Fprintf(&b, "Moved in this step (%s): %s.", opText(res, i), movedList(res, i))
	}
	if failedAt(res, i) {
		b.WriteString(" Failed nodes are grey and hatched in the legend: they keep their points but own nothing until they recover; the arcs they held before they failed are hatched over whoever holds them now.")
	}
	return strings.TrimSpace(b.String())
}

// mosaicRules lists the labels of the rules whose wheels are mosaics
// (mosaicWheel), or "".
func mosaicRules(res *sim.Result) string {
	var labels []string
	for _, r := range res.Rules {
		if mosaicWheel(r.Spec) {
			labels = append(labels, r.Spec.Label)
		}
	}
	return joinAnd(labels)
}

// anyCrowded reports whether a share wheel of radius rad at step i is
// crowded (crowdedShares).
func anyCrowded(res *sim.Result, i int, rad float64) bool {
	for r := range res.Rules {
		if mosaicWheel(res.Rules[r].Spec) && crowdedShares(shareSegments(res, r, i), 2*math.Pi*rad) {
			return true
		}
	}
	return false
}

// anyArcsChanged reports whether a wheel of arcs of step i is in the
// changed form.
func anyArcsChanged(arcs *figArcs, i int) bool {
	for r := range arcs.res.Rules {
		if !mosaicWheel(arcs.res.Rules[r].Spec) && changedForm(arcs, r, i) {
			return true
		}
	}
	return false
}

// anyChanged reports whether a wheel of step i is in the changed form.
func anyChanged(arcs *figArcs, i int) bool {
	for r := range arcs.res.Rules {
		if changedForm(arcs, r, i) {
			return true
		}
	}
	return false
}

func hasPoints(res *sim.Result, i int) bool {
	for _, r := range res.Rules {
		if r.Steps[i].Points != nil {
			return true
		}
	}
	return false
}

func failedAt(res *sim.Result, i int) bool {
	for _, m := range res.Timeline.States[i].Members {
		if m.Failed {
			return true
		}
	}
	return false
}

// joinAnd joins words as "a", "a and b" or "a, b and c".
func joinAnd(words []string) string {
	switch n := len(words); n {
	case 0:
		return ""
	case 1:
		return words[0]
	default:
		return strings.Join(words[:n-1], ", ") + " and " + words[n-1]
	}
}
