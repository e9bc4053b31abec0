package figdata

import (
	"cmp"
	"slices"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// MaxListed is the most members of a step that any list of them shows
// one by one: the report's member lists and load tables and the wheel
// legends. A larger cluster is shortened, to the ends of the list in
// words and to the Notable members in tables and legends, so that a
// hundred steps of a hundred nodes stay readable; data.json has them
// all.
const MaxListed = 24

// Notable returns the members of step i that a shortened list of a large
// cluster keeps, in join order: the members the step acted on, the failed
// ones, and under each of the given rules the extremes most and the
// extremes least loaded live members, by their load relative to their
// fair share (ties go to the earlier member). It keeps at most limit
// members, taken in that order of priority, so that the nodes a step
// acts on are never crowded out. The wheel legends and the report's load
// tables show these when a cluster has too many members to list.
func Notable(res *sim.Result, i int, rules []int, extremes, limit int) []timeline.Member {
	st := &res.Timeline.States[i]
	keep := make([]bool, len(st.Members))
	kept := 0
	mark := func(j int) {
		if !keep[j] && kept < limit {
			keep[j] = true
			kept++
		}
	}
	for j, m := range st.Members {
		if slices.Contains(st.Named, m.ID) {
			mark(j)
		}
	}
	var live []int
	for j, m := range st.Members {
		if m.Failed {
			mark(j)
		} else {
			live = append(live, j)
		}
	}
	for _, r := range rules {
		rel := res.LoadShares(r, i)
		byLoad := slices.Clone(live)
		slices.SortStableFunc(byLoad, func(a, b int) int { return cmp.Compare(rel[b], rel[a]) })
		for e := range min(extremes, len(byLoad)) {
			mark(byLoad[e])
			mark(byLoad[len(byLoad)-1-e])
		}
	}
	out := make([]timeline.Member, 0, kept)
	for j, m := range st.Members {
		if keep[j] {
			out = append(out, m)
		}
	}
	return out
}
