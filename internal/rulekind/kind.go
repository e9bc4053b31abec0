package rulekind

import "github.com/ringreport/ringreport/internal/placer"

// Kind is one placement rule: everything the rest of ringreport needs to
// know of it. Each rule declares its Kind beside its placer; the registry
// (internal/registry) lists them.
type Kind struct {
	// Name is the rule's spelling in scenarios and placer.RuleSpec.Kind.
	Name string
	// Aliases are older spellings a scenario may still use; the parser
	// replaces them by Name.
	Aliases []string
	// Doc says what the rule is, in one sentence, for the schema and the
	// README's rule table.
	Doc string
	// Params are the parameters a scenario may set, in report order.
	Params []Param
	// Fixed are parameters the rule always runs with and a scenario may
	// not set, such as a product's own hash.
	Fixed []Param
	// Mosaic says the rule's owner changes from one key hash to the next,
	// so that it has no arcs worth drawing: the figures draw its wheel as
	// its buckets or table bent round, each live node's share of the keys
	// in join order, rather than sampled by hash (a uniform blur).
	Mosaic bool
	// HistoryFree says the rule's placement at a state depends on that
	// state alone (its members in join order, their weights and failures,
	// its vnodes and replicas), not on the steps that led there, so a
	// replay rebuilds an earlier state from it directly instead of
	// replaying every step before it (the recurrence check does, past its
	// undo logs). TestHistoryFreeRebuild holds every kind that says so to
	// it over random timelines.
	HistoryFree bool
	// Theory is the closed form that sweeps draw beside the rule.
	Theory Theory
	// FixedPoints is the points per node of a rule that fixes its own
	// (0 when vnodes applies).
	FixedPoints int
	// Footprint is what the estimate needs of the rule.
	Footprint Footprint
	// Position, when not nil, returns for a spec the function that gives
	// a key's place on the 32-bit circle of the rule's wheel, for rules
	// whose position is not a hash named by placer.RuleSpec.Hash.
	Position func(spec placer.RuleSpec) func(key []byte) uint32
	// Build returns the rule's placer for a validated spec.
	Build func(spec placer.RuleSpec, e *placer.Env) (placer.Placer, error)
	// Profile is the production profile the kind runs, or nil.
	Profile *Profile
	// Effective, when not nil, fills in the defaults that depend on other
	// parameters, after every Param.Default is set.
	Effective func(placer.RuleSpec) placer.RuleSpec
}

// Theory names a closed form of a rule's behaviour that sweeps draw.
type Theory uint8

// The theories.
const (
	NoTheory     Theory = iota
	RingTheory          // balance √((n−1)/(n·v+1)) of v random points per node
	ModuloTheory        // n/(n+1) of keys move when an (n+1)-th node joins
)

// Footprint describes a rule's share of the estimate: its table size at
// one step, per-key work and memory, and what a step's result keeps.
type Footprint struct {
	// Table returns the entries of the rule's table at one step for the
	// raw spec, the most weight on the ring at any step and the largest
	// vnodes step; Points says they are points kept per step.
	Table  func(spec placer.RuleSpec, weight, vnodeSteps int64) int64
	Points bool
	// PerKey is the rule's lookups per key per step (multiprobe's probes,
	// four at a time); nil means 1.
	PerKey func(spec placer.RuleSpec) int64
	// Ranks says every key ranks every node (rendezvous), which adds keys
	// × nodes of work per reweighting.
	Ranks bool
	// KeyBytes is the rule's own arrays per key with lists of length r;
	// uniform says every node weighs the same at every step.
	KeyBytes func(spec placer.RuleSpec, r int64, uniform bool) int64
	// StepPoints says a step's result keeps the rule's points (or else
	// placer.WheelSamples arcs).
	StepPoints bool
	// Local says a step that adds, removes, fails or recovers nodes moves
	// keys only to or from the nodes it names (a monotone rule: ring,
	// rendezvous), so between at most two pairs per named node and other
	// node. False, the default, errs high: a step may move keys between
	// any two nodes (modulo reshuffles them; jump renumbers its buckets
	// when a member other than the last leaves; maglev's table shifts
	// entries between nodes that stay).
	Local bool
}

// RuleCost is a rule's share of a scenario's estimated work.
type RuleCost struct {
	// Table is the entries of the rule's table at one step.
	Table int64
	// PerKey is the rule's lookups per key per step.
	PerKey int64
	// Ranks says every key ranks every node at each reweighting.
	Ranks bool
	// Points says the table's entries are points the result keeps.
	Points bool
	// Local says membership steps move keys only to or from the nodes
	// they name (Footprint.Local).
	Local bool
}

// Cost returns the rule's cost for a raw spec, given the most weight on
// the ring at any step and the largest vnodes step.
func (k *Kind) Cost(spec placer.RuleSpec, weight, vnodeSteps int64) RuleCost {
	c := RuleCost{PerKey: 1, Ranks: k.Footprint.Ranks, Points: k.Footprint.Points, Local: k.Footprint.Local}
	if k.Footprint.Table != nil {
		c.Table = k.Footprint.Table(spec, weight, vnodeSteps)
	}
	if k.Footprint.PerKey != nil {
		c.PerKey = k.Footprint.PerKey(spec)
	}
	return c
}

// Param returns the kind's parameter called name, or nil when the kind
// does not accept it.
func (k *Kind) Param(name string) *Param {
	for i := range k.Params {
		if k.Params[i].Name == name {
			return &k.Params[i]
		}
	}
	return nil
}

// Validate checks a spec whose parameters each passed their own checks
// as a whole, as the product would (a gRPC ring's maximum below its
// minimum): nil, or an error that says what is wrong.
func (k *Kind) Validate(spec placer.RuleSpec) error {
	if k.Profile == nil {
		return nil
	}
	_, err := k.Profile.New(WithDefaults(k.Params, spec))
	return err
}
