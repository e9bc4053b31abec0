package sim

import (
	"sync/atomic"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/strips"
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
	// allPairs keeps every step's whole pair list (Options.AllPairs),
	// or step pairsStep's alone when it is not 0 (Options.AllPairsStep);
	// pairsKept counts the pairs kept so far, over every rule, and
	// pairsDropped says they passed MaxKeptPairs and were dropped.
	allPairs     bool
	pairsStep    int
	pairsKept    *atomic.Int64
	pairsDropped bool
}

// RuleResult is one rule's replay.
type RuleResult struct {
	// Spec is the rule's specification with Label filled in.
	Spec placer.RuleSpec
	// Steps holds one entry per timeline state.
	Steps []StepResult
	// NodeTransfers is every node's keys and requests received and sent
	// over the whole run, by NodeID.
	NodeTransfers []NodeTransfer
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
	Strip strips.Strip
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
	counts *strips.Counts
	// MovedRequests is the summed weight of the moved keys (0 unweighted).
	MovedRequests int64
	// Transfers is the moved keys by old and new owner, bounded: the
	// largest pairs, the sums of the others, the keys each node received,
	// and every pair only while the replay keeps them (see Transfers).
	Transfers Transfers
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

func ceilDiv(a, b int) int { return (a + b - 1) / b }

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
			sr.Strip, sr.Arcs, sr.Points = strips.Strip{}, nil, nil
			steps[j] = sr
		}
		out.Rules[i] = RuleResult{Spec: rr.Spec, Steps: steps, NodeTransfers: rr.NodeTransfers}
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
	// A probe is answered as at the step's Assign: bounded loads place a
	// key by where every other key went.
	p.Assign(placer.MakeLists(rep, r.Keys.Len()))
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
