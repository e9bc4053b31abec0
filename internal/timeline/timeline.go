package timeline

import (
	"fmt"
	"github.com/ringreport/ringreport/internal/keys"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
)

// NodeID indexes a Timeline's node table. Identity is the name: a node that
// leaves and rejoins keeps its NodeID.
type NodeID uint16

// NoNode marks an empty slot in a preference list.
const NoNode NodeID = 0xFFFF

// MaxNodeIDs is the most distinct node names a scenario may use.
const MaxNodeIDs = 0xFFFE

// Member is a node of the cluster at some step.
type Member struct {
	// ID is the node's index in the node table.
	ID NodeID
	// Weight is the node's relative capacity (≥ 1).
	Weight int
	// Failed members keep their identity (and ring points) but own no keys.
	Failed bool
}

// State is the cluster after one step.
type State struct {
	// Op and Note repeat the step's operation and note (OpStart for step 0).
	Op   Op
	Note string
	// Members are the nodes that belong to the cluster, in join order: a
	// node that leaves and rejoins goes to the end.
	Members []Member
	// Named are the nodes the step acted on, with random choices resolved.
	Named []NodeID
	// Random reports that Named was drawn with the scenario's generator.
	Random bool
	// VNodes overrides every ring rule's points per node when non-zero.
	VNodes int
	// Replicas is the preference-list length.
	Replicas int
	// Partitions and Shards override every Kafka rule's partition count
	// and every Elasticsearch rule's shard count when non-zero.
	Partitions, Shards int
}

// Live returns the number of members that have not failed.
func (s *State) Live() int {
	n := 0
	for _, m := range s.Members {
		if !m.Failed {
			n++
		}
	}
	return n
}

// Member returns the member with the given ID and whether it is one.
func (s *State) Member(id NodeID) (Member, bool) {
	for _, m := range s.Members {
		if m.ID == id {
			return m, true
		}
	}
	return Member{}, false
}

// Timeline is the membership history of a scenario, independent of any
// placement rule: every rule replays the same States.
type Timeline struct {
	// Nodes is the node table: every name the scenario uses, in order of
	// first appearance. NodeID i names Nodes[i].
	Nodes []string
	// Labels holds each node's labels, by NodeID.
	Labels []Labels
	// States holds the cluster after each step; States[0] is the start.
	States []State
}

// StepError is a membership problem found while building a Timeline.
type StepError struct {
	// Step is the step number (0 for the starting nodes, i+1 for Steps[i]).
	Step int
	// Node indexes the offending entry of the step's Nodes, or -1 when the
	// problem is the step as a whole.
	Node int
	// Msg says what is wrong, in lower case without a final period.
	Msg string
}

func (e StepError) Error() string { return fmt.Sprintf("step %d: %s", e.Step, e.Msg) }

// pick returns a uniform integer in [0, n) from r, n ≥ 1. It uses Lemire's
// multiply-and-reject method on r.Uint64 so that the result depends only on
// PCG's output, which math/rand/v2 specifies.
func pick(r *rand.Rand, n int) int {
	un := uint64(n)
	for {
		hi, lo := bits.Mul64(r.Uint64(), un)
		if lo >= un || lo >= -un%un {
			return int(hi)
		}
	}
}

// NewTimeline resolves a scenario's membership changes (its starting
// nodes, replication and steps), including the random choices seeded by
// seed, and reports every step that cannot be done.
// The Timeline is usable only when no errors are returned.
func NewTimeline(seed uint64, nodes []NodeSpec, replicas int, steps []Step) (*Timeline, []StepError) {
	b := &timelineBuilder{t: &Timeline{}, ids: map[string]NodeID{}, rng: keys.NewRand(seed, keys.StreamChoice)}
	start := State{Op: OpStart, Replicas: max(replicas, 1)}
	for i, n := range nodes {
		if _, dup := start.Member(b.id(n.Name)); dup {
			b.errorf(0, i, "duplicate node %q", n.Name)
			continue
		}
		start.Members = append(start.Members, Member{ID: b.id(n.Name), Weight: weightOf(n), Failed: n.Down})
		b.label(0, i, n)
	}
	if len(nodes) == 0 {
		b.errorf(0, -1, "the cluster needs at least one node")
	} else if start.Live() == 0 {
		b.errorf(0, -1, "every starting node is down; at least one must be live")
	}
	b.t.States = append(b.t.States, start)
	for i, st := range steps {
		b.apply(i+1, st)
	}
	if len(b.t.Nodes) > MaxNodeIDs {
		b.errorf(0, -1, "too many distinct node names (%d); at most %d", len(b.t.Nodes), MaxNodeIDs)
	}
	return b.t, b.errs
}

func weightOf(n NodeSpec) int { return max(n.Weight, 1) }

type timelineBuilder struct {
	t    *Timeline
	ids  map[string]NodeID
	rng  *rand.Rand
	errs []StepError
}

func (b *timelineBuilder) id(name string) NodeID {
	if id, ok := b.ids[name]; ok {
		return id
	}
	id := NodeID(len(b.t.Nodes))
	b.ids[name] = id
	b.t.Nodes = append(b.t.Nodes, name)
	b.t.Labels = append(b.t.Labels, Labels{})
	return id
}

// label records the labels a node entry gives. A node keeps its labels:
// naming it again (a re-add) with other labels is an error.
func (b *timelineBuilder) label(step, entry int, ns NodeSpec) {
	id := b.ids[ns.Name]
	if ns.Labels == (Labels{}) {
		return
	}
	have := b.t.Labels[id]
	if have != (Labels{}) && have != ns.Labels {
		b.errorf(step, entry, "node %q was labelled %s; a node keeps its labels", ns.Name, have)
		return
	}
	b.t.Labels[id] = ns.Labels
}

// String describes labels for messages: "zone z1, rack r2".
func (l Labels) String() string {
	var parts []string
	if l.Zone != "" {
		parts = append(parts, "zone "+strconv.Quote(l.Zone))
	}
	if l.Rack != "" {
		parts = append(parts, "rack "+strconv.Quote(l.Rack))
	}
	if l.ID != 0 {
		parts = append(parts, "id "+strconv.Itoa(l.ID))
	}
	if len(parts) == 0 {
		return "without labels"
	}
	return strings.Join(parts, ", ")
}

// matches reports whether l has every label sel sets.
func (l Labels) matches(sel Labels) bool {
	return (sel.Zone == "" || l.Zone == sel.Zone) && (sel.Rack == "" || l.Rack == sel.Rack) && (sel.ID == 0 || l.ID == sel.ID)
}

// lookup returns the NodeID of a name the scenario has used, or NoNode.
func (b *timelineBuilder) lookup(name string) NodeID {
	if id, ok := b.ids[name]; ok {
		return id
	}
	return NoNode
}

func (b *timelineBuilder) errorf(step, node int, format string, args ...any) {
	b.errs = append(b.errs, StepError{Step: step, Node: node, Msg: fmt.Sprintf(format, args...)})
}

// apply appends the state after step number n.
func (b *timelineBuilder) apply(n int, st Step) {
	prev := &b.t.States[len(b.t.States)-1]
	next := State{Op: st.Op, Note: st.Note, Random: st.Random, VNodes: prev.VNodes,
		Replicas: prev.Replicas, Partitions: prev.Partitions, Shards: prev.Shards,
		Members: append([]Member(nil), prev.Members...)}
	switch st.Op {
	case OpAdd:
		b.add(n, st, &next)
	case OpRemove, OpFail:
		b.removeOrFail(n, st, &next)
	case OpRecover:
		b.recover(n, st, &next)
	case OpWeight:
		b.weight(n, st, &next)
	case OpVNodes:
		next.VNodes = st.Value
	case OpReplicas:
		next.Replicas = st.Value
	case OpPartitions:
		next.Partitions = st.Value
	case OpShards:
		next.Shards = st.Value
	default:
		b.errorf(n, -1, "unknown operation %v", st.Op)
	}
	b.t.States = append(b.t.States, next)
}

func (b *timelineBuilder) add(n int, st Step, next *State) {
	for i, ns := range st.Nodes {
		id := b.id(ns.Name)
		if _, ok := next.Member(id); ok {
			b.errorf(n, i, "node %q is already a member%s", ns.Name, b.lastRandom(id))
			continue
		}
		next.Members = append(next.Members, Member{ID: id, Weight: weightOf(ns)})
		next.Named = append(next.Named, id)
		b.label(n, i, ns)
	}
}

// lastRandom explains, for an error naming id, which node the most recent
// random removal took instead, since users write steps against a seed.
func (b *timelineBuilder) lastRandom(id NodeID) string {
	for i := len(b.t.States) - 1; i > 0; i-- {
		s := &b.t.States[i]
		if s.Op == OpRemove && len(s.Named) == 1 && s.Named[0] != id && s.Random {
			return fmt.Sprintf(" (the random removal at step %d took %q)", i, b.t.Nodes[s.Named[0]])
		}
	}
	return ""
}

func (b *timelineBuilder) removeOrFail(n int, st Step, next *State) {
	verb := st.Op.String()
	targets := b.targets(n, st, next)
	for _, t := range targets {
		idx := memberIndex(next, t.id)
		switch {
		case idx < 0:
			b.errorf(n, t.entry, "cannot %s %q: it is not a member", verb, t.name)
			continue
		case st.Op == OpFail && next.Members[idx].Failed:
			b.errorf(n, t.entry, "cannot fail %q: it has already failed", t.name)
			continue
		}
		if st.Op == OpRemove {
			next.Members = append(next.Members[:idx], next.Members[idx+1:]...)
		} else {
			next.Members[idx].Failed = true
		}
		next.Named = append(next.Named, t.id)
	}
	if len(targets) > 0 && next.Live() == 0 {
		b.errorf(n, -1, "cannot %s: no live node would remain", verb)
	}
}

type target struct {
	id    NodeID
	name  string
	entry int
}

// targets resolves the nodes a remove or fail step names, drawing one
// member (remove) or one live member (fail) when the step says random.
func (b *timelineBuilder) targets(n int, st Step, next *State) []target {
	if st.Where != (Labels{}) {
		return b.selected(n, st, next)
	}
	if !st.Random {
		ts := make([]target, 0, len(st.Nodes))
		for i, ns := range st.Nodes {
			ts = append(ts, target{id: b.lookup(ns.Name), name: ns.Name, entry: i})
		}
		return ts
	}
	var pool []NodeID
	for _, m := range next.Members {
		if st.Op == OpRemove || !m.Failed {
			pool = append(pool, m.ID)
		}
	}
	if len(pool) == 0 {
		b.errorf(n, -1, "cannot %s a random node: there is none to choose", st.Op)
		return nil
	}
	id := pool[pick(b.rng, len(pool))]
	return []target{{id: id, name: b.t.Nodes[id], entry: -1}}
}

// selected resolves a step that names its nodes by label: every member
// that carries them (for fail, the live ones; for recover, the failed).
func (b *timelineBuilder) selected(n int, st Step, next *State) []target {
	var ts []target
	for _, m := range next.Members {
		skip := (st.Op == OpFail && m.Failed) || (st.Op == OpRecover && !m.Failed)
		if !skip && b.t.Labels[m.ID].matches(st.Where) {
			ts = append(ts, target{id: m.ID, name: b.t.Nodes[m.ID], entry: -1})
		}
	}
	if len(ts) == 0 {
		b.errorf(n, -1, "cannot %s the nodes %s: no %smember has those labels", st.Op, st.Where, map[Op]string{OpFail: "live ", OpRecover: "failed "}[st.Op])
	}
	return ts
}

func memberIndex(s *State, id NodeID) int {
	for i, m := range s.Members {
		if m.ID == id {
			return i
		}
	}
	return -1
}

func (b *timelineBuilder) recover(n int, st Step, next *State) {
	if st.Where != (Labels{}) {
		for _, t := range b.selected(n, st, next) {
			next.Members[memberIndex(next, t.id)].Failed = false
			next.Named = append(next.Named, t.id)
		}
		return
	}
	if st.All {
		for i := range next.Members {
			if next.Members[i].Failed {
				next.Members[i].Failed = false
				next.Named = append(next.Named, next.Members[i].ID)
			}
		}
		return
	}
	for i, ns := range st.Nodes {
		id := b.lookup(ns.Name)
		idx := memberIndex(next, id)
		switch {
		case idx < 0:
			b.errorf(n, i, "cannot recover %q: it is not a member", ns.Name)
		case !next.Members[idx].Failed:
			b.errorf(n, i, "cannot recover %q: it has not failed", ns.Name)
		default:
			next.Members[idx].Failed = false
			next.Named = append(next.Named, id)
		}
	}
}

func (b *timelineBuilder) weight(n int, st Step, next *State) {
	for i, ns := range st.Nodes {
		id := b.lookup(ns.Name)
		idx := memberIndex(next, id)
		if idx < 0 {
			b.errorf(n, i, "cannot set the weight of %q: it is not a member", ns.Name)
			continue
		}
		next.Members[idx].Weight = weightOf(ns)
		next.Named = append(next.Named, id)
	}
}
