package placer

// DefaultVNodes is the number of points per node of a ring rule that names
// none (the "Ring" walkthrough's 160, also libketama's count per server).
const DefaultVNodes = 160

// MaxVNodes bounds the points per unit of weight a rule or a vnodes step
// may ask for.
const MaxVNodes = 10_000

// RuleSpec selects a placement rule and its parameters. Zero values mean
// the rule's defaults.
type RuleSpec struct {
	// Kind is the rule's name, one of Kinds (registry.go).
	Kind string
	// Label names the rule in output; unique within a scenario. Empty
	// means Replay derives one (Kind, or Kind plus parameters when two
	// rules share a kind).
	Label string
	// VNodes is the number of points per unit of weight for ring rules;
	// 0 means DefaultVNodes.
	VNodes int
	// Hash names the key hash; empty means "fnv1a-fmix".
	Hash string
	// M is the maglev lookup-table size (a prime); 0 means the default.
	M int
	// Probes is the multi-probe rule's probe count; 0 means the default.
	Probes int
	// Epsilon is the bounded-load rule's slack ε (capacity ⌈(1+ε)·K/n⌉);
	// 0 means the default.
	Epsilon float64
	// Opts holds the parameters of the rules that declare their own (the
	// production profiles), by name, as a scenario writes them. Never
	// modify it in place: Param.Set copies it, so that specs can share it.
	Opts map[string]string
}
