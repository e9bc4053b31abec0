package cost

import (
	"math/bits"
	"unsafe"

	"github.com/ringreport/ringreport/internal/gcbound"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The replay's work terms, in key-steps (see the package doc for the
// unit, about 5 ns).
const (
	// KeySetWork is each rule's work per key of a replay before its first
	// step: hashing the key under the rule's hash, sorting the positions,
	// the canonical order. MD5KeySetWork is the same under MD5 (ketama's
	// and the products' that use it). A build of 10⁷ keys over one state
	// took 0.83 s of CPU under ring or modulo (83 ns a key with its
	// placement), 2.67 s under ketama; over two states, 1.67 s under
	// maglev.
	KeySetWork, MD5KeySetWork = 30, 64
	// PointWork is the work of one ring point when a rule builds its
	// ring, at its first state and at each recomputation (RecurWork):
	// hashing "name#i", sorting. A ring of 10⁷ points over two states took
	// 1.1 s to replay and 2.1 s of CPU to build, 1.64·10⁵ points 21 ms to
	// replay (60–110 ns a point with both states' merges).
	PointWork = 24
	// StateWork is each rule's fixed work at one state beside its keys
	// and its table: the tracker's loads, balance, strip shading and
	// fingerprint, the recurrence check and the member lists. 10⁴ states
	// of ring and modulo over 1,000 keys and 11 nodes took 1.9 s of CPU
	// to replay, about 95 µs a state and rule.
	StateWork = 20_000
	// PointStateWork is one ring point at one state after the first,
	// merged or rebuilt: 101 states of a ring of 90,100 points over 1,000
	// keys took 0.29 s to replay, 32 ns a point and state with everything
	// else.
	PointStateWork = 8
	// LocalPassKeys is how many keys cost one key-step at a step of a
	// Local rule beside the keys the step moves: what the tracker passes
	// over every key (the fingerprint, the strips' cells). 10⁷ keys over
	// 101 states of a ring, whose steps move 1–2% of them, took 1.6 s of
	// CPU to build, key set and figures included (under 1 ns a key and
	// state).
	LocalPassKeys = 8
	// MovedKeyWork is one key that a step of a Local rule moves (its
	// lookup, its entry in the delta, the tracker's loads, pairs and undo
	// log): 33 ns when a heavy node's failures and recoveries moved nearly
	// all of 10⁶ keys at each of 1,000 steps (33.5 s of CPU), 34 ns when a
	// node joining three and leaving moved a quarter of 10⁷.
	MovedKeyWork = 8
	// RecurWork is each rule's work per key at a state whose placement
	// returns to an earlier one that the undo logs do not reach (sim's
	// history): the earlier placement is recomputed from scratch by a new
	// placer, every key placed again and its table built again. Any state
	// after the first may be one: a ring over four nodes, three of them
	// heavy, that fails them in turn and recovers all recomputed at
	// nearly every state, 9 ms for 10⁶ keys (9 ns a key); ketama over three
	// nodes, which a node joins and leaves in turn, at every return. The
	// new placer reuses the rule's key hashes and order (keys.Sharing):
	// before it did, ketama hashed every key with MD5 again at each,
	// 120 ns a key.
	RecurWork = 2
	// RankPairs is how many (key, node) pairs rendezvous scores in one
	// key-step with every node of one weight (eight keys at a time: 10⁶
	// keys over 1,025 nodes and 101 states took 0.93 s of CPU to build),
	// and WeightedRankWork one pair's work with weights, a deterministic
	// logarithm each: a heavy node's failures and recoveries among three
	// ranked all of 10⁶ keys afresh at each of 1,000 steps, 113 s of CPU,
	// 38 ns a pair.
	RankPairs, WeightedRankWork = 8, 8
	// KeyByteWork is the bytes of a keys file's keys one key-step hashes
	// (about 1 GB/s).
	KeyByteWork = 4
	// TableTryWork is one try of maglev's fill, which takes about ln M
	// tries an entry: a few nanoseconds while the table is in cache (m =
	// 65,537 over 100 nodes, 2.5 ms a table), and BigTableTryWork when it
	// is not (m = 16,777,213 over 10⁴ nodes, 20 s a table, 70 ns a try).
	TableTryWork, BigTableTryWork, BigTable = 1, 16, 1 << 20
)

// The replay's memory terms, in bytes.
const (
	// PointBytes is the peak memory of one ring point while a rule builds
	// its ring and its first step's figures: 10⁷ and 2·10⁷ points took
	// 505 and 970 MB of peak RSS, 48 bytes a point.
	PointBytes = 64
	// KeyCopies is how many copies of a keys file's bytes a replay holds
	// at its peak: the file as read, the keys cut from it, and what
	// hashing and the key order take. A file of one 200 MB key and 100
	// small ones peaked at 638 MB (3.2 copies).
	KeyCopies = 4
	// TableBytes is the memory of one entry of any other table (maglev's
	// lookup table with its permutation state, a profile's token ring or
	// partition map), the one in use and the one being built.
	TableBytes = 64
)

// replayWork is the time of replaying s: each rule's (ruleWork).
func replayWork(s *sim.Scenario, sh shape) int64 {
	var w int64
	for _, r := range s.Rules {
		w = addSat(w, ruleWork(s, sh, r))
	}
	return w
}

// ruleWork is the time of replaying rule r over s: its key set, its
// fixed work at every state, its placements, its recurrence checks, its
// table and rendezvous's ranking.
func ruleWork(s *sim.Scenario, sh shape, r placer.RuleSpec) int64 {
	rc, table := ruleCost(r, sh)
	follow := sharesFollowWeights(s, sh, rc)
	w := addSat(keySetWork(r, sh), mulSat(sh.states, StateWork), placeWork(sh, rc, follow), recurWork(sh))
	if rc.Ranks {
		w = addSat(w, rankWork(s, sh, follow))
	}
	// a table is built again at each recomputation (RecurWork), one at
	// each state after the first at most
	if rc.Points {
		// built once, merged at every step
		return addSat(w, mulSat(table, PointWork, sh.states), mulSat(table, sh.states, PointStateWork))
	}
	return addSat(w, mulSat(tableTries(table), 2*sh.states-1)) // filled anew at each state
}

// recurWork is a rule's recomputations of earlier placements (RecurWork),
// one at each state after the first at most (the first has no earlier
// one): every key placed again, under whatever hash.
func recurWork(sh shape) int64 { return mulSat(sh.keys, sh.states-1, RecurWork) }

// md5Hash reports whether rule r hashes keys with MD5.
func md5Hash(r placer.RuleSpec) bool {
	h, _ := keys.ParseHash(r.Kind, registry.Effective(r).Hash)
	return h == keys.HashMD5
}

// keySetWork is a rule's key set: every key hashed under the rule's hash
// (KeySetWork, MD5KeySetWork) and the bytes of a keys file's keys.
func keySetWork(r placer.RuleSpec, sh shape) int64 {
	per := int64(KeySetWork)
	if md5Hash(r) {
		per = MD5KeySetWork
	}
	return addSat(mulSat(sh.keys, per), sh.keyTotal/KeyByteWork)
}

// placeWork is a rule's placements: every key at the first state; then,
// for a rule that passes over every key at a step (not Local), every key
// at every state, and for a Local one, its pass over the keys
// (LocalPassKeys) and every key its steps move (movedKeys, MovedKeyWork).
func placeWork(sh shape, rc rulekind.RuleCost, follow bool) int64 {
	if !rc.Local {
		return mulSat(sh.keys, rc.PerKey, sh.states)
	}
	steps := mulSat(sh.keys, sh.states-1) / LocalPassKeys
	return addSat(mulSat(sh.keys, rc.PerKey), steps, mulSat(movedKeys(sh, follow), rc.PerKey, MovedKeyWork))
}

// rankWork is rendezvous's ranking. With every node of one weight, it
// scores every key against every node at the start, against each node a
// step adds or recovers, and the keys a step moves away from a node
// against every node (RankPairs pairs a key-step). With weights, a step
// that changes which weights are live may rank every key afresh, each
// pair at WeightedRankWork.
func rankWork(s *sim.Scenario, sh shape, follow bool) int64 {
	if !uniformWeights(s) {
		return mulSat(sh.keys, sh.names, sh.states, WeightedRankWork)
	}
	var joins int64
	for _, n := range sh.steps.named {
		joins = addSat(joins, n)
	}
	pairs := addSat(mulSat(sh.keys, addSat(sh.names, joins)), mulSat(movedKeys(sh, follow), sh.names))
	return pairs / RankPairs
}

// ruleCost is a rule's registry cost over the shape, and the entries of
// its table at the largest state.
func ruleCost(r placer.RuleSpec, sh shape) (rulekind.RuleCost, int64) {
	k := registry.KindOf(r.Kind)
	if k == nil {
		return rulekind.RuleCost{PerKey: 1}, 0
	}
	rc := k.Cost(r, sh.weight, sh.vnodeSteps)
	return rc, rc.Table
}

// tableTries is the work of filling a table of n entries: n ln n tries
// (bounded by n ⌈log₂ n⌉), each dearer once the table leaves the cache.
func tableTries(n int64) int64 {
	per := int64(TableTryWork)
	if n > BigTable {
		per = BigTableTryWork
	}
	return mulSat(n, log2(n), per)
}

// log2 is ⌈log₂ n⌉ for n ≥ 1, and 0 below.
func log2(n int64) int64 {
	if n <= 1 {
		return 0
	}
	return int64(bits.Len64(uint64(n - 1)))
}

// replayMemory is the peak memory of replaying s: its live state
// (replayLive) with the collector's headroom over it (gcbound.Allowed),
// its tables and its keys file's copies. It is calibrated against the
// peak resident set of replays of 10⁶ and 10⁷ keys (TestReplayMemory)
// and of rings of 10⁷ points.
func replayMemory(s *sim.Scenario, sh shape) int64 {
	live, tables := replayLive(s, sh)
	return addSat(gcbound.Allowed(live), tables, mulSat(sh.keyTotal, KeyCopies))
}

// replayLive is the live heap of replaying s: the key set, every rule's
// working state (its share of per-key arrays, the tracker's assignment,
// delta and undo logs), a recomputation's (recomputeKeyBytes) and the
// result's per-step figures data; and, apart, its tables and a
// recomputation's copy, measured as peak resident set (the collector's share
// is in them).
func replayLive(s *sim.Scenario, sh shape) (live, tables int64) {
	k := sh.keys
	live = mulSat(18, k)                                     // key positions, generation order and strip cells, plus sorting space
	live = addSat(live, mulSat(int64(len(s.Keys.List)), 16)) // the strings' headers
	if s.Keys.Weighted() {
		live = addSat(live, mulSat(8, k)) // weights by generation and by canonical index
	}
	uniform := uniformWeights(s)
	for _, spec := range s.Rules {
		rc, table := ruleCost(spec, sh)
		live = addSat(live, mulSat(k, perKeyBytes(spec, sh.replicas, uniform)), mulSat(sh.states, perStepBytes(spec, max(table, sh.names), k)),
			transferBytes(sh, rc))
		copies := int64(1 + placer.B2i(sh.states > 1)) // and a recomputation's
		live = addSat(live, mulSat(k, copies-1, recomputeKeyBytes(sh.replicas)))
		if rc.Points {
			tables = addSat(tables, mulSat(table, PointBytes, copies))
		} else {
			tables = addSat(tables, mulSat(table, TableBytes, copies))
		}
	}
	return addSat(live, keptPairBytes(s, sh)), tables
}

// The transfer terms, in bytes: what sim keeps of the keys that moved
// between two nodes (sim.Transfers).
const (
	// pairBytes is one transfer pair (sim.Transfer: from, to, keys,
	// requests).
	pairBytes = int64(unsafe.Sizeof(sim.Transfer{}))
	// denseCellBytes is one cell of the pair counter of a node table of
	// at most sim.DenseTransferNodes (keys and requests), and moveBytes
	// one moved key in the sorted counter of a larger one (its entry and
	// the radix passes' copy).
	denseCellBytes, moveBytes = 12, 16
	// receivedBytes is one node's keys received by reason at one state
	// (sim.Transfers.Received).
	receivedBytes = 12
)

// statePairs bounds the transfer pairs of one rule at one state: every
// pair of nodes, or one a key when there are fewer keys; for a rule whose
// membership steps move keys only to or from the nodes they name
// (rulekind.Footprint.Local), two for each named node and other node,
// unless a step of the scenario may move keys between any two (vnodes,
// weight, replicas, partitions, shards). Modulo over 1,000 nodes and 10⁶
// keys moved keys between 632,000 pairs a step; over the same steps
// (add one node, remove another) a ring moved them between at most 140,
// rendezvous 680, maglev 491 and jump, renumbering, 1,627.
func statePairs(sh shape, rc rulekind.RuleCost) int64 {
	p := min(mulSat(sh.names, sh.names), sh.keys)
	if rc.Local && !sh.anyPairs {
		p = min(p, mulSat(2, sh.named, sh.names))
	}
	return p
}

// transferBytes is what one rule's transfers hold: the pair counter (a
// dense table up to sim.DenseTransferNodes, else a moved key apiece, at
// most every key), one state's pair list twice (the counter's, and its
// copy while the replay keeps whole lists) and, at every state, the
// largest pairs (sim.TopTransfers) and each node's keys received.
func transferBytes(sh shape, rc rulekind.RuleCost) int64 {
	pairs := statePairs(sh, rc)
	counter := mulSat(sh.names, sh.names, denseCellBytes)
	if sh.names > sim.DenseTransferNodes {
		counter = mulSat(sh.keys, moveBytes)
	}
	perState := addSat(mulSat(min(pairs, sim.TopTransfers), pairBytes), mulSat(sh.names, receivedBytes))
	return addSat(counter, mulSat(2, pairs, pairBytes), mulSat(sh.states, perState))
}

// keptPairBytes is the whole pair lists of every state and rule, which a
// replay keeps up to sim.MaxKeptPairs of them (for transfers.csv).
func keptPairBytes(s *sim.Scenario, sh shape) int64 {
	var pairs int64
	for _, spec := range s.Rules {
		rc, _ := ruleCost(spec, sh)
		pairs = addSat(pairs, mulSat(sh.states, statePairs(sh, rc)))
	}
	return mulSat(min(pairs, sim.MaxKeptPairs), pairBytes)
}

// perKeyBytes is one rule's working memory per key with lists of length
// r: the tracker's assignment and scratch (2r + 2r bytes), its delta
// (4 + 2r) and undo logs (sim.HistoryBytesPerKey, plus as much for the
// log being written), and the rule's own arrays. uniform says that every
// node weighs the same at every step.
func perKeyBytes(spec placer.RuleSpec, r int64, uniform bool) int64 {
	n := 6*r + 4 + 2*sim.HistoryBytesPerKey
	k := registry.KindOf(spec.Kind)
	if k == nil {
		return n
	}
	if k.Footprint.KeyBytes != nil {
		n += k.Footprint.KeyBytes(spec, r, uniform)
	}
	return n + hashKeyBytes(spec)
}

// hashKeyBytes is what a rule's key cache holds per key under a hash
// other than the default: the positions under it, their order and ranks
// (16 bytes), and the 64-bit hashes of xxhash64.
func hashKeyBytes(spec placer.RuleSpec) int64 {
	switch h, _ := keys.ParseHash(spec.Kind, registry.Effective(spec).Hash); h {
	case keys.HashCRC32, keys.HashMD5:
		return 16
	case keys.HashXX:
		return 24
	}
	return 0
}

// recomputeKeyBytes is what a recomputation of an earlier placement
// (RecurWork) holds per key while it runs, beside the replay: a new
// placer's lists (2 bytes an entry); its key hashes are the rule's own
// (keys.Sharing). Ketama over three nodes that a node joins and leaves,
// 2·10⁶ keys over 21 states, peaked at 117 MiB, where it had peaked at
// 200 MiB with a key cache of its own.
func recomputeKeyBytes(r int64) int64 { return 2 * r }

// perStepBytes is what one rule's StepResult keeps: the strips' shades,
// and the arcs and points of point-based rules (8 bytes a point, where
// 4.2 were measured over five states of a ring of 10⁷ points).
func perStepBytes(spec placer.RuleSpec, points, k int64) int64 {
	n := 2 * int64(strips.Cells(int(min(k, 1<<40))))
	if kind := registry.KindOf(spec.Kind); kind != nil && kind.Footprint.StepPoints {
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
