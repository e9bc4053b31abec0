package cost

import (
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Shares are fractions of the keys in units of 1/ShareUnit.
const ShareUnit = 1 << 20

// The bounds on the keys a step moves.
const (
	// ShareSlack is how far above its weight's share of the live weight a
	// node's share of the keys may be, for a rule whose shares follow
	// the weights (sharesFollowWeights): a ring node of p ≥ MinSharePoints
	// points holds the sum of p gaps between random points, which exceeds
	// twice its mean with probability below e^(−0.3p) (a Gamma tail:
	// below 2⁻⁴³ at 100 points, beyond any search for names), and a
	// rendezvous node wins each key on an independent pseudo-random score.
	// Generated keys are spread alike; the keys of a file may be chosen to
	// land on one node, so with one every step may move every key.
	ShareSlack = 2
	// MinSharePoints is the fewest ring points per unit of weight with
	// which a rule's shares follow the weights within ShareSlack.
	MinSharePoints = 100
)

// stepShares is what the terms read of the steps: for each step after
// the start, the share of the keys it may move under a rule whose shares
// follow the weights, and the nodes it names.
type stepShares struct {
	// moved[i] bounds the keys step i+1 moves, in 1/ShareUnit of them;
	// named[i] the nodes it names (joins, for rendezvous's scoring).
	moved, named []int64
	// members bounds below the weight of the members at any state.
	members int64
}

// sharesOf bounds, step by step, the keys that each step of s moves
// under a Local rule whose shares follow the weights: a membership step
// moves only the keys of the nodes it names (rulekind.Footprint.Local),
// at most ShareSlack times their weight's share of the live weight, times
// the longest preference list, in which each appears; any other step
// (weights, vnodes, replicas, …) may move every key. The live weight is
// bounded below step by step: every member's weight, less every weight a
// remove or fail may have taken (a recover gives back only what a fail
// took). sh must be shapeOf(s).
func sharesOf(s *sim.Scenario, sh shape, heaviest map[string]int64) stepShares {
	var out stepShares
	weightOf := func(ns []timeline.NodeSpec) int64 {
		var w int64
		for _, n := range ns {
			w += heaviest[n.Name]
		}
		return w
	}
	var members, failed int64 // a lower bound of the members' weight, an upper one of the failed weight
	for _, n := range s.Nodes {
		members += int64(max(n.Weight, 1))
	}
	out.members = members
	maxWeight := int64(1)
	for _, w := range heaviest {
		maxWeight = max(maxWeight, w) // a maximum: the order of the map does not matter
	}
	for _, st := range s.Steps {
		w := weightOf(st.Nodes) + int64(placer.B2i(st.Random))*maxWeight
		count := int64(len(st.Nodes)) + int64(placer.B2i(st.Random))
		if st.Where != (timeline.Labels{}) {
			w, count = sh.weight, sh.names
		}
		before := members - failed
		switch st.Op {
		case timeline.OpAdd:
			members = addSat(members, w)
		case timeline.OpRemove:
			members -= w
		case timeline.OpFail:
			failed = min(addSat(failed, w), sh.weight)
		case timeline.OpRecover:
			if st.All {
				w, count = failed, min(sh.names, failed)
			}
			failed = max(failed-w, 0)
		}
		live := members - failed // a node that joins holds its share of the live weight after the step
		if st.Op == timeline.OpRemove || st.Op == timeline.OpFail {
			live = before // one that leaves, of the live weight before it
		}
		share := int64(ShareUnit)
		if membership(st.Op) && sh.weightSteps == 0 && sh.vnodeSteps == 0 && live > 0 {
			share = min(share, mulSat(ShareSlack, sh.replicas, w, ShareUnit)/live+1)
		}
		out.members = min(out.members, members)
		out.moved = append(out.moved, share)
		out.named = append(out.named, count)
	}
	return out
}

// sharesFollowWeights reports whether under rule rc over shape sh every
// node's share of the keys is at most ShareSlack times its weight's
// share of the live weight: a Local rule over generated keys that ranks
// every node (rendezvous) or gives every node at least MinSharePoints
// points per unit of weight.
func sharesFollowWeights(s *sim.Scenario, sh shape, rc rulekind.RuleCost) bool {
	if !rc.Local || s.Keys.List != nil {
		return false
	}
	return rc.Ranks || (rc.Points && rc.Table >= mulSat(sh.weight, MinSharePoints))
}

// movedKeys is the keys every step of a rule moves in all, at most: the
// step shares of sharesOf when the rule's shares follow the weights,
// else every key at every step.
func movedKeys(sh shape, follow bool) int64 {
	if !follow {
		return mulSat(sh.keys, sh.states-1)
	}
	var parts int64
	for _, m := range sh.steps.moved {
		parts = addSat(parts, m)
	}
	return mulSat(sh.keys, parts/ShareUnit+1)
}
