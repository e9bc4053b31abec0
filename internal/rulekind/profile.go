package rulekind

import (
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file describes a production profile (internal/profile) for the
// registry; internal/productrules adapts it to a placer.Placer.

// Profile describes a production profile for the registry.
type Profile struct {
	// Name, Aliases and Doc are the Kind's.
	Name    string
	Aliases []string
	Doc     string
	// Params are the profile's parameters; Opt declares each.
	Params []Param
	// New returns the product's rule for a spec whose parameters are
	// validated and filled with their defaults.
	New func(spec placer.RuleSpec) (profile.Rule, error)
	// Bits is the width of the rule's key positions (profile.Rule.Hash):
	// 32 or 64, or 14 for the 16,384 slots of Redis. Wheels scale them to
	// their 32-bit circle.
	Bits int
	// Mosaic says the owner changes from one position to the next (no
	// continuum of arcs), as Kind.Mosaic.
	Mosaic bool
	// HistoryFree is Kind.HistoryFree: the product's placement follows
	// from the membership of the moment, not from how it came about.
	HistoryFree bool
	// KeyBytes is the profile's own memory per key, for the estimate,
	// beside the 8 bytes of its key position.
	KeyBytes int64
	// Table, when not nil, is the entries of the profile's table (tokens,
	// a lookup table, partitions) for a spec with its defaults, given the
	// most weight on it at any step, for the cost estimate.
	Table func(spec placer.RuleSpec, weight int64) int64
	// Effective, when not nil, fills in the defaults that depend on other
	// parameters (the product's own Options.Effective), for reports.
	Effective func(spec placer.RuleSpec) placer.RuleSpec
	// PositionText, when not nil, says where a key of position h is in
	// the product's own words, at placement pl: a signed token, a
	// partition, a PG id.
	PositionText func(r profile.Rule, pl profile.Placement, h uint64) string
	// Unit, when not nil, is the product's unit of placement a key of
	// position h falls in (a partition, a shard): keys whose unit changes
	// at a step are counted as repartitioned (for Kafka, they lose their
	// per-key ordering).
	Unit func(r profile.Rule, pl profile.Placement, h uint64) int
	// Resize, when not nil, is the step that changes the rule's unit
	// count (OpPartitions or OpShards), and Resized returns the spec after
	// it, from the spec before, or an error saying what the product
	// allows. The key positions (Rule.Hash) must not depend on it.
	Resize  timeline.Op
	Resized func(spec placer.RuleSpec, to int) (placer.RuleSpec, error)
}

// CheckResizes checks, in step order, every resize step of the profile's
// kind (OpPartitions, OpShards) against a spec: nil, or the first step the
// product would refuse, by its number, with the product's reason.
func (k *Kind) CheckResizes(spec placer.RuleSpec, steps []timeline.Step) (step int, err error) {
	p := k.Profile
	if p == nil || p.Resized == nil {
		return 0, nil
	}
	spec = WithDefaults(p.Params, spec)
	for i, st := range steps {
		if st.Op != p.Resize {
			continue
		}
		if spec, err = p.Resized(spec, st.Value); err != nil {
			return i + 1, err
		}
	}
	return 0, nil
}

// Resizes reports the step a kind's resize follows (OpPartitions,
// OpShards), or OpStart when it has none.
func (k *Kind) Resizes() timeline.Op {
	if k.Profile == nil || k.Profile.Resized == nil {
		return timeline.OpStart
	}
	return k.Profile.Resize
}
