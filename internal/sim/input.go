package sim

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
	Nodes []NodeSpec
	// Rules are the placement rules compared side by side. Labels must be
	// distinct; Replay fills empty labels from Kind and parameters.
	Rules []RuleSpec
	// Replicas is the preference-list length at step 0 (≥ 1).
	Replicas int
	// Probes are keys whose positions and preference lists are tracked at
	// every step.
	Probes []string
	// Steps are the membership changes after step 0, in order.
	Steps []Step
	// Expect are assertions on the replay's metrics.
	Expect []Expectation
	// Migrations are pairs of rules, by label, whose placements the
	// replay compares at every step.
	Migrations []Migration
}

// NodeSpec names a node, its weight and its labels.
type NodeSpec struct {
	// Name is the node's identity. Names are compared byte for byte.
	Name string
	// Weight is the node's relative capacity, ≥ 1; 0 means 1.
	Weight int
	// Labels place the node in the topology; they belong to the node, as
	// its name does, and are given where it is first named.
	Labels
	// Down starts a node of the starting cluster failed, as a product's
	// configuration can list a server that is down (nodes: {from: …}).
	Down bool
}

// Labels are a node's place in the topology and its product id. Empty
// fields are unset.
type Labels struct {
	// Zone and Rack are the node's failure domains: a datacenter or
	// availability zone, and a rack in it.
	Zone, Rack string
	// ID is the node's numeric id where a product has one (HAProxy's
	// server id); 0 means the product's default.
	ID int
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

// Op is the kind of a membership change.
type Op int

// The membership changes a step can make.
const (
	OpStart      Op = iota // step 0: the starting cluster
	OpAdd                  // add Nodes (join at the end of the join order)
	OpRemove               // remove Nodes, or one random member when Random
	OpFail                 // fail Nodes, or one random live member when Random
	OpRecover              // recover Nodes, or every failed member when All
	OpVNodes               // set points per node of every ring rule to Value
	OpReplicas             // set the preference-list length to Value
	OpWeight               // set the weights of Nodes
	OpPartitions           // set the partition count of every Kafka rule to Value
	OpShards               // split or shrink every Elasticsearch index to Value shards
)

var opNames = [...]string{"start", "add", "remove", "fail", "recover", "vnodes", "replicas", "weight", "partitions", "shards"}

// String returns the op's scenario spelling ("add", "remove", ...).
func (o Op) String() string {
	if o < 0 || int(o) >= len(opNames) {
		return "op?"
	}
	return opNames[o]
}

// Step is one membership change.
type Step struct {
	// Op is what the step does.
	Op Op
	// Nodes are the nodes the step names (with weights for add and weight).
	Nodes []NodeSpec
	// Random picks one member with the scenario's seeded generator
	// (remove and fail only).
	Random bool
	// All recovers every failed member (recover only).
	All bool
	// Value is the new count for vnodes, replicas, partitions and shards
	// steps.
	Value int
	// Where, when not empty, selects the step's nodes by label instead of
	// by name: every member in that zone and rack (remove, fail and
	// recover only; fail takes the live ones, recover the failed ones).
	Where Labels
	// Note is shown beside the step in the report.
	Note string
}
