package placer

import (
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/timeline"
)

// A Placer is one placement rule's state machine. Replay calls Update once
// per step, in order, then Assign (or Delta, for a DeltaPlacer); Probe and
// Geometry answer for the state of the last Assign or Delta (a bounded-load
// rule places a probe by where every other key went).
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
	// Geometry returns how the rule owns the 32-bit circle: arcs, and
	// for point-based rules the points. A rule whose arcs follow from its
	// points and the live members alone (ring, libketama, bounded)
	// returns nil arcs, and RingArcs derives them when a figure needs
	// them.
	Geometry() ([]Arc, []Point)
	// Order returns, for each canonical key, its rank in the rule's own
	// position order, or nil when that is the canonical order.
	Order() []uint32
}

// Checked turns a constructor's typed result into a Kind.Build's, so that
// a failed constructor never yields a non-nil placer holding a nil
// pointer.
func Checked[P Placer](p P, err error) (Placer, error) {
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

// MergeArcs appends an arc unless it continues the previous one's owner.
func MergeArcs(arcs []Arc, a Arc) []Arc {
	if n := len(arcs); n > 0 && arcs[n-1].Node == a.Node {
		return arcs
	}
	return append(arcs, a)
}

// SampledArcs draws a non-ring rule's ownership wheel: the owner of n
// evenly spaced positions, merged into arcs.
func SampledArcs(n int, owner func(pos uint32) timeline.NodeID) []Arc {
	var arcs []Arc
	for i := range n {
		p := samplePosition(i, n)
		arcs = MergeArcs(arcs, Arc{Start: p, Node: owner(p)})
	}
	return arcs
}

// SamplePositions are SampledArcs' n positions, in order, for a rule that
// finds their owners together; ArcsOfSamples merges the owners it found.
func SamplePositions(n int) []uint32 {
	ps := make([]uint32, n)
	for i := range ps {
		ps[i] = samplePosition(i, n)
	}
	return ps
}

// ArcsOfSamples is SampledArcs with owners[i] the owner of ps[i], ps
// being SamplePositions.
func ArcsOfSamples(ps []uint32, owners []timeline.NodeID) []Arc {
	var arcs []Arc
	for i, p := range ps {
		arcs = MergeArcs(arcs, Arc{Start: p, Node: owners[i]})
	}
	return arcs
}

// samplePosition is the i-th of n evenly spaced positions on the circle.
func samplePosition(i, n int) uint32 { return uint32(uint64(i) << 32 / uint64(n)) }

// RingArcs is the ownership of the circle by the points pts, in position
// order, when live says which nodes are alive: the stretch up to each
// point belongs to the first live node at or after it, wrapping, as on
// a ring (NoNode when none is). Neighbouring arcs of one owner merge.
func RingArcs(pts []Point, live func(timeline.NodeID) bool) []Arc {
	P := len(pts)
	if P == 0 {
		return []Arc{{Start: 0, Node: timeline.NoNode}}
	}
	owner := make([]timeline.NodeID, P)
	next := timeline.NoNode
	for range 2 {
		for j := P - 1; j >= 0; j-- {
			if id := pts[j].Node; live(id) {
				next = id
			}
			owner[j] = next
		}
	}
	arcs := []Arc{{Start: 0, Node: owner[0]}}
	for j := 0; j < P-1; j++ {
		arcs = MergeArcs(arcs, Arc{Start: pts[j].Pos + 1, Node: owner[j+1]})
	}
	if pts[P-1].Pos != ^uint32(0) {
		arcs = MergeArcs(arcs, Arc{Start: pts[P-1].Pos + 1, Node: owner[0]})
	}
	return arcs
}

// WheelSamples is the resolution of the ownership wheel of rules that do
// not place points on the circle.
const WheelSamples = 1440

// A StartChecker can refuse the starting cluster, as a product refuses a
// configuration (a Kafka topic's replication factor above its brokers), so
// that the replay fails with the product's reason instead of placing
// nothing.
type StartChecker interface {
	CheckStart(st *timeline.State) error
}

// A DeltaPlacer can also place a step incrementally. After Update, Delta
// fills d (already reset to the step's list length) with every key whose
// preference list may differ from the one the placer gave it at the
// previous step, with its new list, and returns true; it returns false,
// writing nothing that matters, when it cannot, and the caller falls back
// to Assign. The caller asks for a Delta only when the list length did
// not change, and only after an Assign or a Delta of the previous step.
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

// MakeLists returns r preference lists of k entries each.
func MakeLists(r, k int) [][]timeline.NodeID {
	out := make([][]timeline.NodeID, r)
	for i := range out {
		out[i] = make([]timeline.NodeID, k)
	}
	return out
}

// CountNoNode counts the empty slots (NoNode) of a list.
func CountNoNode(l []timeline.NodeID) int {
	n := 0
	for _, o := range l {
		if o == timeline.NoNode {
			n++
		}
	}
	return n
}

// B2i is 1 for true and 0 for false, for branch-free counting.
func B2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// QuoteNames lists node names, quoted, comma-separated.
func QuoteNames(names []string, ids []timeline.NodeID) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = strconv.Quote(names[id])
	}
	return strings.Join(q, ", ")
}
