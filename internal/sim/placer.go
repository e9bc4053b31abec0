package sim

import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/keys"
import "fmt"

// A placer is one placement rule's state machine. Replay calls update once
// per step, in order, then assign; probe and geometry may be called after any
// update.
type placer interface {
	// update brings the rule to the membership of st. It returns notes for
	// the report: what the rule could not do natively, or configurations
	// known to misbehave.
	update(st *timeline.State) []string
	// assign writes every key's preference list: lists[r][i] is the r-th
	// choice for canonical key i, NoNode where fewer live nodes exist.
	assign(lists [][]timeline.NodeID)
	// probe returns a key's position under the rule and its preference
	// list of length r.
	probe(key string, r int) (pos uint64, owners []timeline.NodeID)
	// geometry returns the owner of every part of the 32-bit circle as
	// arcs, and for point-based rules the points themselves.
	geometry() ([]Arc, []Point)
	// Order returns, for each canonical key, its rank in the rule's own
	// position order, or nil when that is the canonical order.
	Order() []uint32
}

// newPlacer returns the placer for a rule. The spec must be validated.
func newPlacer(spec RuleSpec, env *env) (placer, error) {
	k := KindOf(spec.Kind)
	if k == nil {
		return nil, fmt.Errorf("rule %q is not implemented", spec.Kind)
	}
	return k.build(spec, env)
}

// checked turns a constructor's typed result into newPlacer's, so that a
// failed constructor never yields a non-nil placer holding a nil pointer.
func checked[P placer](p P, err error) (placer, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
}

// env is what every placer of one replay shares: keys and node names.
type env struct {
	keys   *keys.KeySet
	nodes  []string
	labels []timeline.Labels // by NodeID
}

// Arc is a run of the circle [Start, next arc's Start) owned by one node.
// Arcs are in ascending Start order and the first starts at 0; the last
// runs to the top of the circle.
type Arc struct {
	Start uint32
	Node  timeline.NodeID
}

// Point is one virtual-node point of a point-based rule.
type Point struct {
	Pos  uint32
	Node timeline.NodeID
}

// liveList returns the live members of st in join order.
func liveList(st *timeline.State) []timeline.Member {
	out := make([]timeline.Member, 0, len(st.Members))
	for _, m := range st.Members {
		if !m.Failed {
			out = append(out, m)
		}
	}
	return out
}

// mergeArcs appends an arc unless it continues the previous one's owner.
func mergeArcs(arcs []Arc, a Arc) []Arc {
	if n := len(arcs); n > 0 && arcs[n-1].Node == a.Node {
		return arcs
	}
	return append(arcs, a)
}

// sampledArcs draws a non-ring rule's ownership wheel: the owner of n
// evenly spaced positions, merged into arcs.
func sampledArcs(n int, owner func(pos uint32) timeline.NodeID) []Arc {
	var arcs []Arc
	for i := range n {
		p := uint32(uint64(i) << 32 / uint64(n))
		arcs = mergeArcs(arcs, Arc{Start: p, Node: owner(p)})
	}
	return arcs
}

// WheelSamples is the resolution of the ownership wheel of rules that do
// not place points on the circle.
const WheelSamples = 1440

// column returns the preference list held at index idx of per-position
// lists (pref[r][idx] is the r-th choice), without the empty slots.
func column(pref [][]timeline.NodeID, idx int) []timeline.NodeID {
	var owners []timeline.NodeID
	for _, p := range pref {
		if p[idx] != timeline.NoNode {
			owners = append(owners, p[idx])
		}
	}
	return owners
}

// env returns what a placer of this replay shares.
func (r *Result) env() *env {
	return &env{keys: r.Keys, nodes: r.Timeline.Nodes, labels: r.Timeline.Labels}
}
