package timeline

// This file holds the membership input: the nodes of a scenario and the
// steps that change them.

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
