package sim

import (
	"slices"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// health counts, from the step's preference lists, the keys below a
// quorum of live replicas, without one, and with two replicas in one zone
// while as many zones as replicas are live.
// Lists hold live nodes first and NoNode after them, but for a stranded
// key, which keeps the down node that held it first.
func health(sr *StepResult, p placer.Placer, st *timeline.State, lists [][]timeline.NodeID, labels []timeline.Labels) {
	stranded := 0
	s, profiled := p.(placer.Stranding)
	if profiled {
		stranded = s.Stranded()
	}
	sr.Unavailable = stranded
	if u, ok := p.(placer.Repartitioner); ok {
		sr.Repartitioned = u.Repartitioned()
	}
	r := len(lists)
	q := r/2 + 1
	switch {
	case !profiled && st.Live() >= q:
		// The built-in rules list r distinct live nodes while there are
		// as many, so no key is below quorum; no pass over the keys.
	case q == 1:
		sr.BelowQuorum = stranded + placer.CountNoNode(lists[0])
	default:
		sr.BelowQuorum = placer.CountNoNode(lists[q-1])
	}
	if r > 1 && liveZones(st, labels) >= r {
		sr.ZoneCollisions = zoneCollisions(lists, labels)
	}
}

// liveZones counts the zones with a live member: two replicas in one zone
// are a collision only when r zones could hold them apart.
func liveZones(st *timeline.State, labels []timeline.Labels) int {
	var zones []string
	for _, m := range st.Members {
		if z := labels[m.ID].Zone; !m.Failed && z != "" && !slices.Contains(zones, z) {
			zones = append(zones, z)
		}
	}
	return len(zones)
}

// zoneCollisions counts keys with two replicas in one (named) zone.
func zoneCollisions(lists [][]timeline.NodeID, labels []timeline.Labels) int {
	n := 0
	for k := range lists[0] {
	key:
		for a := range lists {
			za := zoneOf(lists[a][k], labels)
			for b := a + 1; b < len(lists) && za != ""; b++ {
				if zoneOf(lists[b][k], labels) == za {
					n++
					break key
				}
			}
		}
	}
	return n
}

func zoneOf(id timeline.NodeID, labels []timeline.Labels) string {
	if id == timeline.NoNode {
		return ""
	}
	return labels[id].Zone
}
