package sim

// Result is a finished replay: the inputs, the membership timeline and,
// for every rule, what happened at every step. Renderers read it and
// never change it.
type Result struct {
	// Scenario is the replayed input.
	Scenario *Scenario
	// Keys is the key set in canonical order.
	Keys *KeySet
	// Timeline is the membership history shared by all rules.
	Timeline *Timeline
	// Rules holds one entry per scenario rule, in scenario order.
	Rules []RuleResult
}

// RuleResult is one rule's replay.
type RuleResult struct {
	// Spec is the rule's specification with Label filled in.
	Spec RuleSpec
	// Steps holds one entry per timeline state.
	Steps []StepResult
}

// StepResult is what one rule did at one step. Counts are exact; the
// floating-point figures derived from them live in Balance.
type StepResult struct {
	// Loads is the number of keys each node owns (primary), by NodeID,
	// for every node in the node table.
	Loads []int
	// Moved counts keys whose owner changed since the previous step.
	Moved int
	// Needed is ½·Σ|B_i − A_i|: the moves the change in loads requires.
	Needed int
	// Ideal is the fewest moves that reach a split where every live node
	// holds ⌊T_i⌋ or ⌈T_i⌉ keys, from the previous step's loads.
	Ideal int
	// TotalMoved is the running total of Moved since step 0.
	TotalMoved int
	// ReplicaMoved counts keys whose set of replica nodes changed.
	ReplicaMoved int
	// Copies counts replica copies that had to be created: for every key,
	// the nodes in its new replica set that were not in its old one.
	Copies int
	// UnderReplicated counts keys with fewer than R live distinct nodes.
	UnderReplicated int
	// Fingerprint is a 64-bit hash of the owner assignment: the wrapping
	// sum over keys of mix64(canonical index, owner name hash). Equal
	// assignments have equal fingerprints under every rule.
	Fingerprint uint64
	// Recurs is the earliest earlier step whose assignment is identical
	// (compared key by key), or -1.
	Recurs int
	// Probes holds the scenario's probes, in scenario order.
	Probes []Probe
	// Strip says which keys moved and why.
	Strip Strip
	// Arcs is the ownership of the circle after the step, or nil for the
	// point rules (ring, ketama, bounded), whose arcs follow from Points
	// and the live members: read them with Result.Arcs.
	Arcs []Arc
	// Points are the rule's points on the circle, for point-based rules.
	Points []Point
	// Notes are the rule's remarks on this step: what it could not do
	// natively, and configurations known to misbehave.
	Notes []string
	// Requests is the number of requests each node serves, by NodeID: the
	// summed weight of the keys it owns (primary). Nil when the key set
	// carries no weights.
	Requests []int64
	// MovedRequests is the summed weight of the moved keys (0 unweighted).
	MovedRequests int64
	// Transfers lists the moved keys by old and new owner: one entry per
	// (from, to) pair with at least one key, sorted by From then To
	// (node-table order). Keys sum to Moved; nil when nothing moved.
	Transfers []Transfer
	// HotOwners is the primary owner of each of Keys.Hot, in that order;
	// nil when the key set carries no weights.
	HotOwners []NodeID
}

// Transfer is the keys that moved from one node to another in one step:
// the data From has to ship to To.
type Transfer struct {
	// From is the key's owner before the step, To its owner after it.
	From, To NodeID
	// Keys is the number of keys that moved from From to To.
	Keys int
	// Requests is their summed weight (0 when the key set has none).
	Requests int64
}

// Collateral is Moved − Needed: keys moved between nodes whose loads did
// not need it. It is 0 for a monotone rule.
func (s *StepResult) Collateral() int { return s.Moved - s.Needed }

// Probe is where a rule puts one probe key at one step.
type Probe struct {
	// Position is the key's place under the rule: the 32-bit hash on a
	// ring-like rule (ring, bounded, ketama, multiprobe), the bucket for
	// modulo and jump, the slot for slots, the table index for maglev,
	// the key's hash for rendezvous.
	Position uint64
	// Owners is the preference list, primary first.
	Owners []NodeID
}

// Why a key moved; the zero value means it did not.
const (
	ReasonGained     = iota // the new owner joined or recovered in this step
	ReasonForced            // the old owner left or failed in this step
	ReasonCollateral        // both owners were live before and after
	NumReasons
)

// MaxStripCells is the most cells a strip keeps; beyond it cells become
// bins of consecutive keys.
const MaxStripCells = 2048

// Strip counts moved keys per cell in two orders. With K ≤ MaxStripCells
// each cell is one key; otherwise key g (0-based, in the strip's order) of
// K falls in cell ⌊g·n/K⌋ of n.
type Strip struct {
	// KeyOrder cells follow generation order (the keys file order).
	KeyOrder []Cell
	// HashOrder cells follow the rule's position order.
	HashOrder []Cell
}

// Cell counts the moved keys of one strip cell by reason.
type Cell [NumReasons]uint32

// CellKeys returns how many keys cell c of n cells holds, out of k keys:
// the g with ⌊g·n/k⌋ = c.
func CellKeys(c, n, k int) int { return ceilDiv((c+1)*k, n) - ceilDiv(c*k, n) }

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// stripCells returns the number of cells of a strip over k keys.
func stripCells(k int) int { return min(k, MaxStripCells) }

// WithoutFigureData returns a copy of r without what only figures draw:
// every step's Strip, Arcs and Points. Everything else is shared with r,
// which stays unchanged. A caller that has drawn its figures keeps the
// copy, so that this data — O(points × steps × rules), about 80 MB for a
// hundred steps of 16,000 points under five rules — can be collected
// before pages are built.
func (r *Result) WithoutFigureData() *Result {
	out := *r
	out.Rules = make([]RuleResult, len(r.Rules))
	for i, rr := range r.Rules {
		steps := make([]StepResult, len(rr.Steps))
		for j, sr := range rr.Steps {
			sr.Strip, sr.Arcs, sr.Points = Strip{}, nil, nil
			steps[j] = sr
		}
		out.Rules[i] = RuleResult{Spec: rr.Spec, Steps: steps}
	}
	return &out
}

// Arcs returns the ownership of the circle under rule at step: the
// step's Arcs, or for the point rules the arcs their points give the
// step's live members (a new slice each call).
func (r *Result) Arcs(rule, step int) []Arc {
	sr := &r.Rules[rule].Steps[step]
	if sr.Arcs != nil || sr.Points == nil {
		return sr.Arcs
	}
	live := make([]bool, len(r.Timeline.Nodes))
	for _, m := range r.Timeline.States[step].Members {
		live[m.ID] = !m.Failed
	}
	return ringArcs(sr.Points, func(id NodeID) bool { return live[id] })
}
