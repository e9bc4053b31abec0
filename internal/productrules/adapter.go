package productrules

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// This file adapts any production profile (internal/profile) to the
// simulator: one generic placer, and the registry entry (Kind) that
// builds it.

// Kind returns the registry entry of a profile: its placer is the generic
// profilePlacer below.
func Kind(p rulekind.Profile) rulekind.Kind {
	return rulekind.Kind{Name: p.Name, Aliases: p.Aliases, Doc: p.Doc, Params: p.Params, Mosaic: p.Mosaic, HistoryFree: p.HistoryFree, Profile: &p, Effective: p.Effective,
		Footprint: rulekind.Footprint{KeyBytes: func(placer.RuleSpec, int64, bool) int64 { return 8 + p.KeyBytes }, Table: table(p)},
		Position: func(spec placer.RuleSpec) func([]byte) uint32 {
			r, err := p.New(spec)
			if err != nil {
				return func([]byte) uint32 { return 0 }
			}
			return func(b []byte) uint32 { return scaleTo32(r.Hash(b), p.Bits) }
		},
		Build: func(spec placer.RuleSpec, e *placer.Env) (placer.Placer, error) {
			spec = rulekind.WithDefaults(p.Params, spec)
			r, err := p.New(spec)
			if err != nil {
				return nil, fmt.Errorf("rule %s: %w", p.Name, err)
			}
			pp := newProfilePlacer(p, r, e)
			pp.spec = spec
			return pp, nil
		}}
}

// table is the profile's Table as a Kind's Footprint.Table, or nil.
func table(p rulekind.Profile) func(placer.RuleSpec, int64, int64) int64 {
	if p.Table == nil {
		return nil
	}
	return func(s placer.RuleSpec, weight, _ int64) int64 {
		return p.Table(rulekind.WithDefaults(p.Params, s), weight)
	}
}

// scaleTo32 maps a position of a bits-wide space onto the 32-bit circle.
func scaleTo32(h uint64, bits int) uint32 {
	if bits >= 32 {
		return uint32(h >> (bits - 32))
	}
	return uint32(h << (32 - bits))
}

// profilePlacer runs a profile.Rule: it hashes every key once, rebuilds
// the product's placement at every step from the membership, and asks it
// for every key's owners.
type profilePlacer struct {
	p       rulekind.Profile
	rule    profile.Rule
	env     *placer.Env
	hash    []uint64 // Rule.Hash of every key, by canonical index
	pos     []uint32 // hash scaled to the circle
	rank    []uint32 // canonical index → rank by pos, nil when canonical
	servers []profile.Server
	ids     []timeline.NodeID // server index → node
	pl      profile.Placement
	// held is every key's primary at the last step, where a key with no
	// live replica stays (see assign); stranded counts such keys.
	held      []timeline.NodeID
	nStranded int
	// spec is the rule's spec as it runs now (after resize steps), size
	// the unit count a resize step last set (0: the spec's own).
	spec placer.RuleSpec
	size int
	// lists is every key's preference list at the current step.
	lists [][]timeline.NodeID
	// units is every key's unit at the last step, and moved how many
	// changed unit at this one (Profile.Unit).
	units []int32
	moved int
}

func newProfilePlacer(p rulekind.Profile, r profile.Rule, e *placer.Env) *profilePlacer {
	pp := &profilePlacer{p: p, rule: r, env: e, hash: make([]uint64, e.Keys.Len()), pos: make([]uint32, e.Keys.Len())}
	var buf []byte
	for i := range pp.hash {
		buf = e.Keys.AppendName(buf[:0], i)
		pp.hash[i] = r.Hash(buf)
		pp.pos[i] = scaleTo32(pp.hash[i], p.Bits)
	}
	_, _, pp.rank = keys.RankBy(pp.pos)
	return pp
}

// Update gives the product the members in join order, failed ones marked
// Down, and builds its placement from the previous one.
func (pp *profilePlacer) Update(st *timeline.State) []string {
	var notes []string
	if n := pp.resize(st); n != "" {
		notes = append(notes, n)
	}
	pp.servers = pp.servers[:0]
	pp.ids = pp.ids[:0]
	for _, m := range st.Members {
		l := pp.env.Labels[m.ID]
		pp.servers = append(pp.servers, profile.Server{Name: pp.env.Nodes[m.ID], Weight: max(m.Weight, 1), Down: m.Failed,
			ID: l.ID, Zone: l.Zone, Rack: l.Rack})
		pp.ids = append(pp.ids, m.ID)
	}
	pl, err := pp.rule.Build(pp.servers, pp.pl)
	if err != nil {
		return append(notes, fmt.Sprintf("%s: %s; the placement stays as it was", pp.p.Name, strings.TrimSuffix(err.Error(), ".")))
	}
	pp.pl = pl
	pp.nStranded = pp.hold(max(st.Replicas, 1))
	pp.countUnits()
	if pp.nStranded > 0 {
		notes = append(notes, fmt.Sprintf("%s: %d keys have no live replica (every node that holds them is failed or gone); they stay on the node that held them, unavailable, and are not counted as moved",
			pp.p.Name, pp.nStranded))
	}
	return notes
}

// resize applies a step that changes the rule's unit count: the product's
// rule for the new count, built next from the current placement, as the
// product grows a topic's partitions or splits an index. It returns a
// note when the product refuses (the parser checks this beforehand).
func (pp *profilePlacer) resize(st *timeline.State) string {
	to := st.Partitions
	if pp.p.Resize == timeline.OpShards {
		to = st.Shards
	}
	if pp.p.Resized == nil || to == 0 || to == pp.size {
		return ""
	}
	spec, err := pp.p.Resized(pp.spec, to)
	if err == nil {
		var r profile.Rule
		if r, err = pp.p.New(spec); err == nil {
			pp.rule, pp.spec, pp.size = r, spec, to
			return ""
		}
	}
	return fmt.Sprintf("%s: %v; the count stays as it was", pp.p.Name, err)
}

// countUnits counts the keys whose unit changed since the last step.
func (pp *profilePlacer) countUnits() {
	if pp.p.Unit == nil {
		return
	}
	first := pp.units == nil
	if first {
		pp.units = make([]int32, len(pp.hash))
	}
	pp.moved = 0
	for i, h := range pp.hash {
		u := int32(pp.p.Unit(pp.rule, pp.pl, h))
		if !first && u != pp.units[i] {
			pp.moved++
		}
		pp.units[i] = u
	}
}

func (pp *profilePlacer) Repartitioned() int { return pp.moved }

// hold brings every key's held primary to the current placement — its
// first live owner among its r, or where it was when the product finds no
// live server for it — and returns how many keys have none. It asks for
// r owners, as assign does, since a product may hold a key on r nodes
// and answer for it from any that is live (Cassandra). It runs at every
// update, so that a replay that assigns only at its last step (replayTo)
// holds the same.
//
// It also writes every key's whole preference list into pp.lists, which
// Assign hands out: the product is asked once per key and step.
func (pp *profilePlacer) hold(r int) int {
	if pp.held == nil {
		pp.held = make([]timeline.NodeID, len(pp.hash))
		for i := range pp.held {
			pp.held[i] = timeline.NoNode
		}
	}
	for len(pp.lists) < r {
		pp.lists = append(pp.lists, make([]timeline.NodeID, len(pp.hash)))
	}
	pp.lists = pp.lists[:r]
	n := 0
	buf := make([]int, 0, r)
	for i, h := range pp.hash {
		buf = pp.pl.Owners(h, r, buf[:0])
		for j := range pp.lists {
			id := timeline.NoNode
			if j < len(buf) {
				id = pp.ids[buf[j]]
			}
			pp.lists[j][i] = id
		}
		if len(buf) == 0 {
			n++
			pp.lists[0][i] = pp.held[i]
		} else {
			pp.held[i] = pp.lists[0][i]
		}
	}
	return n
}

// CheckStart builds the starting cluster once, to refuse what the product
// refuses.
func (pp *profilePlacer) CheckStart(st *timeline.State) error {
	pp.Update(st)
	if pp.pl == nil {
		_, err := pp.rule.Build(pp.servers, nil)
		return err
	}
	stranded := pp.nStranded
	pp.pl, pp.held, pp.units, pp.lists = nil, nil, nil, nil
	if stranded > 0 {
		return fmt.Errorf("%d keys have no live server to start with", stranded)
	}
	return nil
}

// Assign writes the product's owners. A key the product finds no live
// server for (a Kafka partition whose replicas are all down, a Cassandra
// range whose replicas are) stays on the node that held it at the last
// step: its data has not moved, it is only unavailable, as update notes.
func (pp *profilePlacer) Assign(lists [][]timeline.NodeID) {
	for r, l := range lists {
		copy(l, pp.lists[r])
	}
}

func (pp *profilePlacer) Probe(key string, r int) (uint64, []timeline.NodeID) {
	h := pp.rule.Hash([]byte(key))
	var out []timeline.NodeID
	for _, o := range pp.pl.Owners(h, r, nil) {
		out = append(out, pp.ids[o])
	}
	return h, out
}

// Geometry samples the owners around the circle, and gives a continuum's
// points scaled to it.
func (pp *profilePlacer) Geometry() ([]placer.Arc, []placer.Point) {
	var buf []int
	arcs := placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID {
		buf = pp.pl.Owners(unscale(p, pp.p.Bits), 1, buf[:0])
		if len(buf) == 0 {
			return timeline.NoNode
		}
		return pp.ids[buf[0]]
	})
	c, ok := pp.pl.(profile.Continuum)
	if !ok {
		return arcs, nil
	}
	pts, bits := c.Points()
	out := make([]placer.Point, len(pts))
	for i, pt := range pts {
		out[i] = placer.Point{Pos: scaleTo32(pt.Pos, bits), Node: pp.ids[pt.Server]}
	}
	return arcs, out
}

// unscale is the position of the bits-wide space at circle position p.
func unscale(p uint32, bits int) uint64 {
	if bits >= 32 {
		return uint64(p) << (bits - 32)
	}
	return uint64(p) >> (32 - bits)
}

func (pp *profilePlacer) Order() []uint32 { return pp.rank }

func (pp *profilePlacer) PositionText(key string) string {
	if pp.p.PositionText == nil || pp.pl == nil {
		return ""
	}
	return pp.p.PositionText(pp.rule, pp.pl, pp.rule.Hash([]byte(key)))
}

func (pp *profilePlacer) Stranded() int { return pp.nStranded }
