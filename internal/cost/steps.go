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
// (weights, vnodes, replicas, …), or any step of a scenario that has one
// of weights or vnodes, may move every key. sh must be shapeOf(s), and
// heaviest the largest weight of every name.
func sharesOf(s *sim.Scenario, sh shape, heaviest map[string]int64) stepShares {
	l := newLedger(s, heaviest)
	out := stepShares{members: l.members}
	for _, st := range s.Steps {
		named, count, live := l.step(st, sh)
		share := int64(ShareUnit)
		if membership(st.Op) && sh.weightSteps == 0 && sh.vnodeSteps == 0 && live > 0 {
			share = min(share, mulSat(ShareSlack, sh.replicas, named, ShareUnit)/live+1)
		}
		out.members = min(out.members, l.members)
		out.moved = append(out.moved, share)
		out.named = append(out.named, count)
	}
	return out
}

// ledger follows a scenario's weights step by step, erring on the side
// of fewer live nodes: members bounds the members' weight below, failed
// the failed members' weight above.
type ledger struct {
	members, failed    int64
	heaviest, lightest map[string]int64
	maxWeight          int64
}

// newLedger is the ledger of s at its start.
func newLedger(s *sim.Scenario, heaviest map[string]int64) *ledger {
	l := &ledger{heaviest: heaviest, lightest: map[string]int64{}, maxWeight: 1}
	light := func(ns []timeline.NodeSpec) {
		for _, n := range ns {
			if w, seen := l.lightest[n.Name]; !seen || int64(max(n.Weight, 1)) < w {
				l.lightest[n.Name] = int64(max(n.Weight, 1))
			}
		}
	}
	light(s.Nodes)
	for _, st := range s.Steps {
		if st.Op == timeline.OpAdd {
			light(st.Nodes)
		}
	}
	for _, n := range s.Nodes {
		l.members += int64(max(n.Weight, 1))
	}
	for _, w := range heaviest {
		l.maxWeight = max(l.maxWeight, w) // a maximum: the order of the map does not matter
	}
	return l
}

// step applies st, and returns the most weight it names, the most nodes
// it names and the least live weight their share is of: after the step
// for nodes that join, before it for nodes that leave.
func (l *ledger) step(st timeline.Step, sh shape) (named, count, live int64) {
	sum := func(by map[string]int64) (w int64) {
		for _, n := range st.Nodes {
			w = addSat(w, by[n.Name])
		}
		return w
	}
	named = addSat(sum(l.heaviest), int64(placer.B2i(st.Random))*l.maxWeight)
	count = int64(len(st.Nodes) + placer.B2i(st.Random))
	if st.Where != (timeline.Labels{}) {
		named, count = sh.weight, sh.names
	}
	before := l.members - l.failed
	switch {
	case st.Op == timeline.OpAdd:
		for _, n := range st.Nodes {
			l.members = addSat(l.members, int64(max(n.Weight, 1)))
		}
	case st.Op == timeline.OpRemove:
		l.members -= named
	case st.Op == timeline.OpFail:
		l.failed = min(addSat(l.failed, named), sh.weight)
	case st.Op == timeline.OpRecover && st.All:
		named, count = l.failed, min(sh.names, l.failed)
		l.failed = 0
	case st.Op == timeline.OpRecover && st.Where == (timeline.Labels{}):
		l.failed = max(l.failed-sum(l.lightest), 0) // a recover by label may leave others failed
	}
	if st.Op == timeline.OpRemove || st.Op == timeline.OpFail {
		return named, count, before
	}
	return named, count, l.members - l.failed
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
