package cost

import (
	"math/bits"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The replay's work terms, in key-steps (see the package doc for the
// unit).
const (
	// KeySetWork is each rule's work per key of a replay before its first
	// step: hashing the key under the rule's hash, sorting the positions,
	// the canonical order. 100 seed replays of 10⁵ keys over two states
	// (2.7 s) leave about 2.5 key-steps a key beside the placements.
	KeySetWork = 4
	// PointWork is the work of one ring point when a rule builds its
	// ring: hashing "name#i", sorting, the figure's arcs. 10⁷ points of
	// one ring took 14.8 s, 1.5 µs or 33 key-steps a point; the steps
	// after it merge only what changed (five states of the same ring,
	// 13.8 s).
	PointWork = 40
)

// The replay's memory terms, in bytes.
const (
	// PointBytes is the peak memory of one ring point while a rule builds
	// its ring and its first step's figures: 10⁷ and 2·10⁷ points took
	// 505 and 970 MB of peak RSS, 48 bytes a point.
	PointBytes = 64
	// TableBytes is the memory of one entry of any other table (maglev's
	// lookup table with its permutation state, a profile's token ring or
	// partition map), the one in use and the one being built.
	TableBytes = 64
	// gcNum/gcDen is the share Go's collector adds on top of the live
	// heap at its default setting (GOGC=100 lets it grow to twice; the
	// replay's arrays are long-lived, so half of it is seen).
	gcNum, gcDen = 3, 2
)

// replayWork is the time of replaying s: for each rule, its key set,
// its table and every state's placements, and rendezvous's ranking of
// every key against every node at each reweighting.
func replayWork(s *sim.Scenario, sh shape) int64 {
	var w int64
	for _, r := range s.Rules {
		rc, table := ruleCost(r, sh)
		w = addSat(w, mulSat(sh.keys, KeySetWork), mulSat(sh.keys, rc.PerKey, sh.states))
		if rc.Ranks {
			w = addSat(w, mulSat(sh.keys, sh.names, 1+sh.weightSteps))
		}
		if rc.Points {
			// built once, merged at every step
			w = addSat(w, mulSat(table, PointWork), mulSat(table, sh.states))
		} else {
			// filled anew at each state: maglev's fill takes about log₂ M
			// tries an entry (m = 16,777,213 over 10⁴ nodes, 20 s a table)
			w = addSat(w, mulSat(table, log2(table), sh.states))
		}
	}
	return w
}

// ruleCost is a rule's registry cost over the shape, and the entries of
// its table at the largest state.
func ruleCost(r placer.RuleSpec, sh shape) (placer.RuleCost, int64) {
	k := placer.KindOf(r.Kind)
	if k == nil {
		return placer.RuleCost{PerKey: 1}, 0
	}
	rc := k.Cost(r, sh.weight, sh.vnodeSteps)
	return rc, rc.Table
}

// log2 is ⌈log₂ n⌉ for n ≥ 1, and 0 below.
func log2(n int64) int64 {
	if n <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(n - 1)))
}

// replayMemory is the peak memory of replaying s: the key set, every
// rule's working state (its share of per-key arrays, the tracker's
// assignment, delta and undo logs), its table, and the result's
// per-step figures data, with the collector's headroom. It is
// calibrated against the peak resident set of replays of 10⁶ and 10⁷
// keys (TestReplayMemory) and of rings of 10⁷ points.
func replayMemory(s *sim.Scenario, sh shape) int64 {
	k := sh.keys
	live := mulSat(18, k) // key positions, generation order and strip cells, plus sorting space
	if s.Keys.List != nil {
		for _, key := range s.Keys.List {
			live = addSat(live, int64(len(key))+16) // the strings and their headers
		}
	}
	if s.Keys.Weighted() {
		live = addSat(live, mulSat(8, k)) // weights by generation and by canonical index
	}
	uniform := uniformWeights(s)
	var tables int64 // measured as peak RSS: the collector's share is in it
	for _, spec := range s.Rules {
		rc, table := ruleCost(spec, sh)
		live = addSat(live, mulSat(k, perKeyBytes(spec, sh.replicas, uniform)), mulSat(sh.states, perStepBytes(spec, max(table, sh.names), k)))
		if rc.Points {
			tables = addSat(tables, mulSat(table, PointBytes))
		} else {
			tables = addSat(tables, mulSat(table, TableBytes))
		}
	}
	return addSat(mulSat(live, gcNum)/gcDen, tables)
}

// perKeyBytes is one rule's working memory per key with lists of length
// r: the tracker's assignment and scratch (2r + 2r bytes), its delta
// (4 + 2r) and undo logs (sim.HistoryBytesPerKey, plus as much for the
// log being written), and the rule's own arrays. uniform says that every
// node weighs the same at every step.
func perKeyBytes(spec placer.RuleSpec, r int64, uniform bool) int64 {
	n := 6*r + 4 + 2*sim.HistoryBytesPerKey
	k := placer.KindOf(spec.Kind)
	if k == nil {
		return n
	}
	if k.Footprint.KeyBytes != nil {
		n += k.Footprint.KeyBytes(spec, r, uniform)
	}
	switch h, _ := keys.ParseHash(spec.Kind, spec.Effective().Hash); h {
	case keys.HashCRC32, keys.HashMD5:
		n += 16 // positions under the rule's hash, their order and ranks
	case keys.HashXX:
		n += 24 // the 64-bit hashes too
	}
	return n
}

// perStepBytes is what one rule's StepResult keeps: the strips' shades,
// and the arcs and points of point-based rules (8 bytes a point, where
// 4.2 were measured over five states of a ring of 10⁷ points).
func perStepBytes(spec placer.RuleSpec, points, k int64) int64 {
	n := 2 * int64(sim.StripCells(int(min(k, 1<<40))))
	if kind := placer.KindOf(spec.Kind); kind != nil && kind.Footprint.StepPoints {
		return addSat(n, mulSat(8, points))
	}
	return n + 8*placer.WheelSamples
}

// uniformWeights reports whether every node the scenario names weighs the
// same and no step reweighs one.
func uniformWeights(s *sim.Scenario) bool {
	w := 0
	same := func(v int) bool {
		v = max(v, 1)
		if w == 0 {
			w = v
		}
		return v == w
	}
	for _, n := range s.Nodes {
		if !same(n.Weight) {
			return false
		}
	}
	for _, st := range s.Steps {
		if st.Op == timeline.OpWeight {
			return false
		}
		for _, n := range st.Nodes {
			if st.Op == timeline.OpAdd && !same(n.Weight) {
				return false
			}
		}
	}
	return true
}
