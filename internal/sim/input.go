package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file holds the simulator's input: a Scenario is what internal/scenario
// produces from YAML and what Replay consumes. It carries no positions and
// no file names; validation with positions happens before it is built.

// DefaultSeed is the seed used when a scenario names none.
const DefaultSeed = 1

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
	Rules []placer.RuleSpec
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
