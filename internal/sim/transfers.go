package sim

import (
	"maps"
	"slices"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file measures who ships keys to whom, and the request loads, from
// the keys that changed owner in a step. The tracker's undo log of the
// step already lists them (sparse: each moved key and its old owner;
// dense, when more than a third moved: the whole previous assignment), so
// the transfers are one pass over the log after the step, and a step that
// moves few keys costs little here too.
//
// A rule that reshuffles (modulo, jump's renumbering) moves keys between
// almost every pair of nodes, n² pairs a step, so a step keeps its pairs
// bounded (Transfers): the largest TopTransfers, the sums of the rest and
// each node's keys received, and every pair only while the whole replay
// has at most MaxKeptPairs of them.

// TopTransfers is the most from → to pairs a step's Transfers keeps by
// name: the pairs that moved the most keys. data.json lists them
// (report.MaxJSONTransfers) and the report the first few of them;
// Transfers.Rest counts and sums the others.
const TopTransfers = 100

// MaxKeptPairs is the most transfer pairs, summed over every step and
// rule, whose whole lists (Transfers.All) a replay keeps; past it the
// replay keeps none (Result.AllTransfers reports false). Their one reader
// is transfers.csv, a row of at least 11 bytes a pair, so past this many
// pairs the file would pass report.TransfersCSVLimit, and the build leaves
// it out whether or not the lists were kept (report checks the relation
// at compile time). Options.AllPairs keeps every list whatever their
// number, for `render transfers-csv`. 2¹⁹ pairs hold 12 MiB.
const MaxKeptPairs = 1 << 19

// Transfers is one step's moved keys by old and new owner, in a size
// that grows with the nodes rather than with their square.
type Transfers struct {
	// Top is the TopTransfers pairs that moved the most keys, ties going
	// to the earlier pair by From then To, sorted by From then To: every
	// pair when there are no more.
	Top []Transfer
	// Rest counts the pairs Top leaves out and sums their keys and
	// requests.
	Rest TransferRest
	// All is every pair with at least one key, sorted by From then To
	// (node-table order), while the replay keeps them (see MaxKeptPairs
	// and Result.AllTransfers); nil otherwise, and when nothing moved.
	All []Transfer
	// Received is, by NodeID, the keys each node received at the step by
	// why they moved, as the strips count them (strips.ReasonGained, …);
	// nil when nothing moved.
	Received [][strips.NumReasons]int32
}

// TransferRest is what Transfers.Top leaves out: how many pairs, and the
// keys and requests they moved.
type TransferRest struct {
	Pairs    int
	Keys     int
	Requests int64
}

// Pairs is the number of (from, to) pairs between which keys moved.
func (t *Transfers) Pairs() int { return len(t.Top) + t.Rest.Pairs }

// NodeTransfer is what one node received and sent over a whole run under
// one rule: keys, and their requests (0 when the keys carry none).
type NodeTransfer struct {
	In, Out                 int
	InRequests, OutRequests int64
}

// AllTransfers reports whether every step's Transfers.All holds every
// pair: the replay kept at most MaxKeptPairs of them, or Options.AllPairs
// asked for all of every step.
func (r *Result) AllTransfers() bool { return !r.pairsDropped && r.pairsStep == 0 }

// AllTransfersAt reports whether step i's Transfers.All holds every pair
// (Options.AllPairsStep may have kept another step's alone).
func (r *Result) AllTransfersAt(i int) bool {
	return !r.pairsDropped && (r.pairsStep == 0 || i == r.pairsStep || i == 0)
}

// keepPairs counts n more pairs kept in full and reports whether the
// replay still keeps them. Rules run concurrently; whatever they kept is
// dropped at the end once the count passes MaxKeptPairs (dropPairs), so
// the result does not depend on scheduling.
func (r *Result) keepPairs(n int) bool {
	return r.pairsKept.Add(int64(n)) <= MaxKeptPairs
}

// dropPairs drops every step's whole pair list when the replay counted
// more than MaxKeptPairs of them.
func (r *Result) dropPairs() {
	if r.allPairs || r.pairsKept.Load() <= MaxKeptPairs {
		return
	}
	r.pairsDropped = true
	for i := range r.Rules {
		for j := range r.Rules[i].Steps {
			r.Rules[i].Steps[j].Transfers.All = nil
		}
	}
}

// pairKeeper turns each step's whole pair list of one rule into its
// bounded Transfers and sums every node's transfers over the run.
type pairKeeper struct {
	res    *Result
	keep   bool // the replay still keeps whole lists
	totals []NodeTransfer
	heap   []int32 // topPairs' scratch
}

func newPairKeeper(res *Result) *pairKeeper {
	return &pairKeeper{res: res, keep: true, totals: make([]NodeTransfer, len(res.Timeline.Nodes))}
}

// measure returns the Transfers of step i whose every pair is all (sorted
// by From then To; the caller may reuse it), given who was live before
// and after the step (by NodeID).
func (k *pairKeeper) measure(i int, all []Transfer, before, after []bool) Transfers {
	if len(all) == 0 {
		return Transfers{}
	}
	var tr Transfers
	tr.All = k.whole(i, all)
	if len(all) <= TopTransfers && tr.All != nil {
		tr.Top = tr.All
	} else {
		top, rest := topPairs(all, TopTransfers, &k.heap)
		tr.Top, tr.Rest = slices.Clone(top), rest
	}
	tr.Received = make([][strips.NumReasons]int32, len(before))
	for _, t := range all {
		tr.Received[t.To][moveReasonOf(t.From, t.To, before, after)] += int32(t.Keys)
		k.total(t)
	}
	return tr
}

// whole returns a copy of step i's pairs all while the replay keeps
// whole lists, else nil.
func (k *pairKeeper) whole(i int, all []Transfer) []Transfer {
	if r := k.res; r.allPairs {
		if r.pairsStep != 0 && i != r.pairsStep {
			return nil
		}
		return slices.Clone(all)
	}
	if k.keep {
		k.keep = k.res.keepPairs(len(all))
	}
	if !k.keep {
		return nil
	}
	return slices.Clone(all)
}

// total adds one pair to its nodes' run totals.
func (k *pairKeeper) total(t Transfer) {
	in, out := &k.totals[t.To], &k.totals[t.From]
	in.In += t.Keys
	in.InRequests += t.Requests
	out.Out += t.Keys
	out.OutRequests += t.Requests
}

// moveReasonOf is why a key moved from old to cur, given the live sets
// before and after the step: forced off a node that is not live after it,
// else gained by one that was not live before it, else collateral.
func moveReasonOf(old, cur timeline.NodeID, before, after []bool) int {
	return int(reasonOf[placer.B2i(!after[old])<<1|placer.B2i(!before[cur])])
}

// keyWeight returns key k's weight, 0 when w is nil.
func keyWeight(w []uint32, k int) uint32 {
	if w == nil {
		return 0
	}
	return w[k]
}

// transfers measures the step's transfers and moved requests from the
// open undo log and the new primary owners (unless moves1 counted them
// already), and updates t.reqs. It must run after the step's changes are
// applied and before the log closes.
func (t *tracker) transfers(i int, acc *stepAcc) {
	u, now, w, pc := t.hist.Log(), t.cur[0], t.w, &t.pairs
	switch {
	case t.counted:
		t.counted = false
	case u.IsDense():
		for k, o := range u.Dense() {
			if c := now[k]; c != o {
				pc.add(o, c, keyWeight(w, k))
			}
		}
	default:
		keys, old := u.Sparse()
		for e, k := range keys {
			pc.add(old[e], now[k], keyWeight(w, int(k)))
		}
	}
	all, moved := pc.flush(t.reqs)
	acc.sr.Transfers, acc.sr.MovedRequests = t.keeper.measure(i, all, acc.before, acc.after), moved
}

// startRequests computes the request loads of the current assignment.
func (t *tracker) startRequests() {
	if t.w == nil {
		return
	}
	t.reqs = make([]int64, len(t.nodeHash))
	for k, o := range t.cur[0] {
		t.reqs[o] += int64(t.w[k])
	}
}

// hotOwners returns the primary owners of the hot keys in owners, or nil
// when there are none.
func hotOwners(hot []int, owners []timeline.NodeID) []timeline.NodeID {
	if len(hot) == 0 {
		return nil
	}
	out := make([]timeline.NodeID, len(hot))
	for j, k := range hot {
		out[j] = owners[k]
	}
	return out
}

// fullTransfers is the reference measurement of transfers, moved
// requests and request loads from two whole primary assignments (prev is
// nil at step 0), before and after being the live sets: a map over every
// key, sorted at the end, the largest pairs picked by a stable sort of
// them all, and each node's keys received counted key by key. The run
// totals and whether to keep step i's whole list go through k.
func fullTransfers(res *Result, i int, prev, cur []timeline.NodeID, before, after []bool, k *pairKeeper, sr *StepResult) {
	w := res.Keys.Weight
	if w != nil {
		sr.Requests = make([]int64, len(res.Timeline.Nodes))
		for key, o := range cur {
			sr.Requests[o] += int64(w[key])
		}
	}
	sr.HotOwners = hotOwners(res.Keys.Hot, cur)
	if prev == nil {
		return
	}
	pairs := map[[2]timeline.NodeID]*Transfer{}
	var received [][strips.NumReasons]int32
	for key := range cur {
		if prev[key] == cur[key] {
			continue
		}
		if received == nil {
			received = make([][strips.NumReasons]int32, len(res.Timeline.Nodes))
		}
		received[cur[key]][moveReasonOf(prev[key], cur[key], before, after)]++
		pk := [2]timeline.NodeID{prev[key], cur[key]}
		if pairs[pk] == nil {
			pairs[pk] = &Transfer{From: prev[key], To: cur[key]}
		}
		pairs[pk].Keys++
		pairs[pk].Requests += int64(keyWeight(w, key))
		sr.MovedRequests += int64(keyWeight(w, key))
	}
	var all []Transfer
	for _, pk := range slices.SortedFunc(maps.Keys(pairs), func(a, b [2]timeline.NodeID) int {
		if a[0] != b[0] {
			return int(a[0]) - int(b[0])
		}
		return int(a[1]) - int(b[1])
	}) {
		all = append(all, *pairs[pk])
	}
	sr.Transfers = referenceTop(all)
	sr.Transfers.Received = received
	if sr.Transfers.All = k.whole(i, all); len(all) <= TopTransfers && sr.Transfers.All != nil {
		sr.Transfers.Top = sr.Transfers.All
	}
	for _, t := range all {
		k.total(t)
	}
}

// referenceTop is the reference of topPairs: all sorted by keys, most
// first, stably (ties in From, To order), cut at TopTransfers and sorted
// back by From then To.
func referenceTop(all []Transfer) Transfers {
	var tr Transfers
	if len(all) == 0 {
		return tr
	}
	by := slices.Clone(all)
	slices.SortStableFunc(by, func(a, b Transfer) int { return b.Keys - a.Keys })
	n := min(len(by), TopTransfers)
	for _, t := range by[n:] {
		tr.Rest.Pairs++
		tr.Rest.Keys += t.Keys
		tr.Rest.Requests += t.Requests
	}
	tr.Top = by[:n:n]
	slices.SortFunc(tr.Top, func(a, b Transfer) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		return int(a.To) - int(b.To)
	})
	return tr
}
