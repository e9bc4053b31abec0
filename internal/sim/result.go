package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Result is a finished replay: the inputs, the membership timeline and,
// for every rule, what happened at every step. Renderers read it and
// never change it.
type Result struct {
	// Scenario is the replayed input.
	Scenario *Scenario
	// Keys is the key set in canonical order.
	Keys *keys.KeySet
	// Timeline is the membership history shared by all rules.
	Timeline *timeline.Timeline
	// Rules holds one entry per scenario rule, in scenario order.
	Rules []RuleResult
	// Migrations holds one entry per Scenario.Migrations, in order.
	Migrations []MigrationResult

	// keyCell holds each key's KeyOrder strip cell times stripStride, by
	// canonical index: the offset of its counts in a flat strip, shared
	// by the trackers of every rule (see stripOffsets).
	keyCell []uint16
}

// RuleResult is one rule's replay.
type RuleResult struct {
	// Spec is the rule's specification with Label filled in.
	Spec placer.RuleSpec
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
	// BelowQuorum counts keys with fewer than a quorum, ⌊R/2⌋ + 1, of live
	// replicas; Unavailable those with none (a profile's key whose every
	// replica is down); ZoneCollisions those with two replicas in one zone.
	BelowQuorum, Unavailable, ZoneCollisions int
	// Streams says, with R > 1, which node each copy of Copies goes to
	// and comes from; nil with one replica, where Transfers says it.
	Streams *Streams
	// Repartitioned counts keys whose unit of placement changed: their
	// Kafka partition, Elasticsearch shard. A Kafka key that changes
	// partition loses its per-key ordering, whether or not its broker
	// changes.
	Repartitioned int
	// Fingerprint is a 64-bit hash of the owner assignment: the wrapping
	// sum over keys of mix64(canonical index, owner name hash). Equal
	// assignments have equal fingerprints under every rule.
	Fingerprint uint64
	// Recurs is the earliest earlier step whose assignment is identical
	// (compared key by key), or -1.
	Recurs int
	// Probes holds the scenario's probes, in scenario order.
	Probes []Probe
	// Strip says which keys moved and why, as the strips figure shows it.
	Strip Strip
	// Arcs is the ownership of the circle after the step, or nil for the
	// point rules (ring, ketama, bounded), whose arcs follow from Points
	// and the live members: read them with Result.Arcs.
	Arcs []placer.Arc
	// Points are the rule's points on the circle, for point-based rules.
	Points []placer.Point
	// Notes are the rule's remarks on this step: what it could not do
	// natively, and configurations known to misbehave.
	Notes []string
	// Requests is the number of requests each node serves, by NodeID: the
	// summed weight of the keys it owns (primary). Nil when the key set
	// carries no weights.
	Requests []int64
	// counts are the exact counts Strip was shaded from, kept only when
	// a test asks (replayOptions.counts).
	counts *stripCounts
	// MovedRequests is the summed weight of the moved keys (0 unweighted).
	MovedRequests int64
	// Transfers lists the moved keys by old and new owner: one entry per
	// (from, to) pair with at least one key, sorted by From then To
	// (node-table order). Keys sum to Moved; nil when nothing moved.
	Transfers []Transfer
	// HotOwners is the primary owner of each of Keys.Hot, in that order;
	// nil when the key set carries no weights.
	HotOwners []timeline.NodeID
}

// Transfer is the keys that moved from one node to another in one step:
// the data From has to ship to To.
type Transfer struct {
	// From is the key's owner before the step, To its owner after it.
	From, To timeline.NodeID
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
	// Text is the position in the product's own words, for the rules
	// that have one ("token -3674646904862786968", "partition 7", "PG
	// 1.2a"), or "".
	Text string
	// Owners is the preference list, primary first.
	Owners []timeline.NodeID
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

// Strip is a step's moved keys as the strips figure draws them: cell by
// cell in two orders, each cell shaded by why its keys moved and by how
// many did. With K ≤ MaxStripCells each cell is one key; otherwise key g
// (0-based, in the strip's order) of K falls in cell ⌊g·n/K⌋ of n. A
// shade is one byte, where counts by reason took twelve: over a hundred
// steps of five rules that is 2 MB rather than 24.
type Strip struct {
	// KeyOrder cells follow generation order (the keys file order).
	KeyOrder []Shade
	// HashOrder cells follow the rule's position order.
	HashOrder []Shade
	// Moved counts the step's moved keys by reason.
	Moved [NumReasons]int
}

// Shade is what a strip shows of one cell: the reason most of its moved
// keys moved for (the first of equals, in reason order) and the share of
// its keys that moved, in ShadeLevels steps (Level). The zero Shade is a
// cell where nothing moved.
type Shade uint8

// ShadeLevels is how finely a Shade keeps a cell's moved share: Level is
// the share in 64ths, so that a figure can paint a cell in proportion to
// it (17% looks like 17% at any key count) and no cell's share is off by
// more than 1/128 but for the smallest (see shadeOf).
const ShadeLevels = 64

// Every level of every reason fits in a Shade.
var _ = [1]int{}[(NumReasons*ShadeLevels)>>8]

// Level returns the share of the cell's keys that moved, in
// 1/ShadeLevels: 0 when none did, otherwise moved·ShadeLevels/keys
// rounded to the nearest whole (halves up) and at least 1, so that a cell
// where anything moved never reads as unchanged; ShadeLevels when all
// did, and a cell of one key that moved is all of it.
func (s Shade) Level() int {
	if s == 0 {
		return 0
	}
	return int(s-1)%ShadeLevels + 1
}

// Reason returns the commonest reason of the cell's moves.
func (s Shade) Reason() int {
	if s == 0 {
		return 0
	}
	return int(s-1) / ShadeLevels
}

// ShadeLevel is the Level of a cell of keys keys (≥ 1) of which moved
// moved: 0 for none, else round(moved·ShadeLevels/keys), at least 1.
func ShadeLevel(moved, keys int) int {
	if moved <= 0 {
		return 0
	}
	return min(max((2*ShadeLevels*moved+keys)/(2*keys), 1), ShadeLevels)
}

// shadeOf shades a cell of keys keys whose moved keys count c by reason.
func shadeOf(c Cell, keys int) Shade {
	sum, reason := 0, 0
	for r, v := range c {
		sum += int(v)
		if v > c[reason] {
			reason = r
		}
	}
	if sum == 0 {
		return 0
	}
	return Shade(1 + ShadeLevels*reason + ShadeLevel(sum, keys) - 1)
}

// Cell counts the moved keys of one strip cell by reason.
type Cell [NumReasons]uint32

// stripCounts is a step's strip as the tracker counts it: moved keys by
// reason, cell by cell, in the two orders of Strip.
type stripCounts struct {
	KeyOrder, HashOrder []Cell
}

func newStripCounts(k int) *stripCounts {
	c := stripCells(k)
	return &stripCounts{KeyOrder: make([]Cell, c), HashOrder: make([]Cell, c)}
}

// shade returns the Strip of the counts, over k keys.
func (c *stripCounts) shade(k int) Strip {
	n := len(c.KeyOrder)
	s := Strip{KeyOrder: make([]Shade, n), HashOrder: make([]Shade, n)}
	for j := range n {
		keys := CellKeys(j, n, k)
		s.KeyOrder[j] = shadeOf(c.KeyOrder[j], keys)
		s.HashOrder[j] = shadeOf(c.HashOrder[j], keys)
		for r, v := range c.HashOrder[j] {
			s.Moved[r] += int(v)
		}
	}
	return s
}

// clear zeroes every count.
func (c *stripCounts) clear() {
	clear(c.KeyOrder)
	clear(c.HashOrder)
}

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

// EachOwner replays rule up to step afresh and calls f for every key, in
// canonical order, with its position and preference list there as a
// Probe, exactly as the probe table reports a probe: the bulk form of probes, for
// comparing a prediction with production key by key.
func (r *Result) EachOwner(rule, step int, f func(key string, pos Probe)) error {
	e := r.env()
	p, err := registry.NewPlacer(r.Rules[rule].Spec, e)
	if err != nil {
		return err
	}
	for i := 0; i <= step; i++ {
		p.Update(&r.Timeline.States[i])
	}
	rep := r.Timeline.States[step].Replicas
	pt, _ := p.(placer.PositionTexter)
	var buf []byte
	for i := range r.Keys.Len() {
		buf = r.Keys.AppendName(buf[:0], i)
		var pr Probe
		pr.Position, pr.Owners = p.Probe(string(buf), rep)
		if pt != nil {
			pr.Text = pt.PositionText(string(buf))
		}
		f(string(buf), pr)
	}
	return nil
}

// Streams is the replica streaming of one step: every copy a key's new
// replica set needs, by the node that receives it and the node that
// sends it, the first node of the key's old set that is live after the
// step. A copy whose old set has no live node is unsourced: it has to
// come from outside the cluster (a backup), or it is lost.
type Streams struct {
	// Received and Sent count copies by NodeID.
	Received, Sent []int
	// Unsourced counts copies without a live source.
	Unsourced int
}

// count records one copy to node to of a key whose old replicas are old,
// given the nodes live after the step.
func (s *Streams) count(to timeline.NodeID, old []timeline.NodeID, after []bool) {
	s.Received[to]++
	for _, o := range old {
		if after[o] {
			s.Sent[o]++
			return
		}
	}
	s.Unsourced++
}

func newStreams(n int) *Streams { return &Streams{Received: make([]int, n), Sent: make([]int, n)} }
