package sim

import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/keys"

// This file holds the simulator's input: a Scenario is what internal/scenario
// produces from YAML and what Replay consumes. It carries no positions and
// no file names; validation with positions happens before it is built.

// DefaultSeed is the seed used when a scenario names none.
const DefaultSeed = 1

// DefaultVNodes is the number of points per node of a ring rule that names
// none (the "Ring" walkthrough's 160, also libketama's count per server).
const DefaultVNodes = 160

// MaxVNodes bounds the points per unit of weight a rule or a vnodes step
// may ask for.
const MaxVNodes = 10_000

// Scenario is a validated description of one experiment: a key set, a
// starting cluster, the placement rules to compare and the membership
// changes to replay.
type Scenario struct {
	// Name identifies the scenario in output paths (the file name without
	// .yaml). It must be non-empty.
	Name string
	// Title is a one-line human title. Required.
	Title string
	// About is optional Markdown shown at the top of the report.
	About string
	// Seed drives generated keys and every random choice.
	Seed uint64
	// Keys describes the key set.
	Keys keys.KeySpec
	// Nodes is the starting cluster in join order. It must be non-empty
	// and names must be distinct.
	Nodes []timeline.NodeSpec
	// Rules are the placement rules compared side by side. Labels must be
	// distinct; Replay fills empty labels from Kind and parameters.
	Rules []RuleSpec
	// Replicas is the preference-list length at step 0 (≥ 1).
	Replicas int
	// Probes are keys whose positions and preference lists are tracked at
	// every step.
	Probes []string
	// Steps are the membership changes after step 0, in order.
	Steps []timeline.Step
	// Expect are assertions on the replay's metrics.
	Expect []Expectation
	// Migrations are pairs of rules, by label, whose placements the
	// replay compares at every step.
	Migrations []Migration
}

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
