package placer

import (
	"fmt"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/timeline"
)

// A Placer is one placement rule's state machine. Replay calls update once
// per step, in order, then assign; probe and geometry may be called after any
// update.
type Placer interface {
	// Update brings the rule to the membership of st. It returns notes for
	// the report: what the rule could not do natively, or configurations
	// known to misbehave.
	Update(st *timeline.State) []string
	// Assign writes every key's preference list: lists[r][i] is the r-th
	// choice for canonical key i, NoNode where fewer live nodes exist.
	Assign(lists [][]timeline.NodeID)
	// Probe returns a key's position under the rule and its preference
	// list of length r.
	Probe(key string, r int) (pos uint64, owners []timeline.NodeID)
	// Geometry returns the owner of every part of the 32-bit circle as
	// arcs, and for point-based rules the points themselves.
	Geometry() ([]Arc, []Point)
	// Order returns, for each canonical key, its rank in the rule's own
	// position order, or nil when that is the canonical order.
	Order() []uint32
}

// NewPlacer returns the placer for a rule. The spec must be validated.
func NewPlacer(spec RuleSpec, env *Env) (Placer, error) {
	k := KindOf(spec.Kind)
	if k == nil {
		return nil, fmt.Errorf("rule %q is not implemented", spec.Kind)
	}
	return k.build(spec, env)
}

// checked turns a constructor's typed result into newPlacer's, so that a
// failed constructor never yields a non-nil placer holding a nil pointer.
func checked[P Placer](p P, err error) (Placer, error) {
	if err != nil {
		return nil, err
	}
	return p, nil
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

// LiveList returns the live members of st in join order.
func LiveList(st *timeline.State) []timeline.Member {
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

// A StartChecker can refuse the starting cluster, as a product refuses a
// configuration (a Kafka topic's replication factor above its brokers), so
// that the replay fails with the product's reason instead of placing
// nothing.
type StartChecker interface {
	CheckStart(st *timeline.State) error
}

// A DeltaPlacer can also place a step incrementally. After update, delta
// fills d (already reset to the step's list length) with every key whose
// preference list may differ from the one the placer gave it at the
// previous step, with its new list, and returns true; it returns false,
// writing nothing that matters, when it cannot, and the caller falls back
// to assign. The caller asks for a delta only when the list length did
// not change, and only after an assign or a delta of the previous step.
type DeltaPlacer interface {
	Placer
	Delta(d *Delta) bool
}

// A PositionTexter says where a key is in its product's own words.
type PositionTexter interface {
	PositionText(key string) string
}

// Env is what every placer of one replay shares: keys and node names.
type Env struct {
	Keys   *keys.KeySet
	Nodes  []string
	Labels []timeline.Labels // by NodeID
}

// A Stranding placer can leave keys with no live replica on the node that
// held them (profilePlacer); stranded says how many at the current step.
type Stranding interface {
	Stranded() int
}

// A Repartitioner places keys in units (partitions, shards) and says how
// many keys changed unit at the current step.
type Repartitioner interface {
	Repartitioned() int
}

func MakeLists(r, k int) [][]timeline.NodeID {
	out := make([][]timeline.NodeID, r)
	for i := range out {
		out[i] = make([]timeline.NodeID, k)
	}
	return out
}

func CountNoNode(l []timeline.NodeID) int {
	n := 0
	for _, o := range l {
		if o == timeline.NoNode {
			n++
		}
	}
	return n
}

func B2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
