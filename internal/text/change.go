package text

import (
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Change says what step i of a replay did, in plain text: "start with a,
// b, c", "add f (weight 2)", "remove d (random)", "recover all: b",
// "points per node → 240", "replicas → 3", "weight a → 2". At most
// maxNames nodes are listed (0: all); the rest are counted.
func Change(res *sim.Result, i, maxNames int) string {
	st := &res.Timeline.States[i]
	switch st.Op {
	case timeline.OpStart:
		return "start with " + members(res, st, maxNames)
	case timeline.OpVNodes:
		return "points per node → " + strconv.Itoa(st.VNodes)
	case timeline.OpReplicas:
		return "replicas → " + strconv.Itoa(st.Replicas)
	case timeline.OpPartitions:
		return "partitions → " + strconv.Itoa(st.Partitions)
	case timeline.OpShards:
		return "shards → " + strconv.Itoa(st.Shards)
	case timeline.OpRecover:
		if i-1 < len(res.Scenario.Steps) && res.Scenario.Steps[i-1].All {
			if len(st.Named) == 0 {
				return "recover all (none had failed)"
			}
			return "recover all: " + named(res, st, maxNames)
		}
	case timeline.OpRemove, timeline.OpFail:
		if st.Random {
			return st.Op.String() + " " + named(res, st, maxNames) + " (random)"
		}
	}
	return st.Op.String() + " " + named(res, st, maxNames)
}

// named lists the nodes a step acted on, with the weight for add (when
// not 1) and weight steps: "f (weight 2)", "a → 2".
func named(res *sim.Result, st *timeline.State, maxNames int) string {
	parts := make([]string, 0, len(st.Named))
	for _, id := range st.Named {
		p := res.Timeline.Nodes[id]
		m, _ := st.Member(id)
		switch {
		case st.Op == timeline.OpWeight:
			p += " → " + strconv.Itoa(m.Weight)
		case st.Op == timeline.OpAdd && m.Weight != 1:
			p += " (weight " + strconv.Itoa(m.Weight) + ")"
		}
		parts = append(parts, p)
	}
	return truncList(parts, maxNames)
}

// members lists the members of st in join order, with their weights
// unless all live members weigh the same.
func members(res *sim.Result, st *timeline.State, maxNames int) string {
	weighted := !EqualWeights(st)
	parts := make([]string, len(st.Members))
	for i, m := range st.Members {
		parts[i] = res.Timeline.Nodes[m.ID]
		if weighted {
			parts[i] += " (weight " + strconv.Itoa(m.Weight) + ")"
		}
	}
	return truncList(parts, maxNames)
}

// EqualWeights reports whether the live members of st share one weight.
func EqualWeights(st *timeline.State) bool {
	w := 0
	for _, m := range st.Members {
		if m.Failed {
			continue
		}
		if w != 0 && m.Weight != w {
			return false
		}
		w = m.Weight
	}
	return true
}

// truncList joins parts with ", ", listing at most max (0: all) and
// counting the rest: "a, b, c, +4 more".
func truncList(parts []string, max int) string {
	if max > 0 && len(parts) > max+1 {
		parts = append(parts[:max:max], "+"+strconv.Itoa(len(parts)-max)+" more")
	}
	return strings.Join(parts, ", ")
}
