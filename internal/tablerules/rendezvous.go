package tablerules

import (
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// rendezvous is highest random weight hashing (Thaler & Ravishankar 1998,
// "Using Name-Based Mappings to Increase Hit Rates", IEEE/ACM Trans.
// Networking 6(1)): every key ranks every live node by a pseudo-random
// score of the pair, and its preference list is the R best.
//
// The pair hash is x = mix64(k ⊕ s): k the key's hash under the rule (64
// bits for xxhash64, else 32 zero-extended), s = nameHash64(node name) —
// the xor-then-mix construction of github.com/dgryski/go-rendezvous. With
// weights (the "logarithmic method" of Schindelhauer & Schomaker 2005,
// "Weighted Distributed Hash Tables") the score is −w/ln h, h = (⌊x/2¹²⌋ +
// ½)/2⁵² uniform in (0,1), using detLog so that every machine agrees. When
// all live weights are equal, that order is the order of h itself, and the
// rule compares ⌊x/2¹²⌋ as integers: exact. Equal scores go to the node
// whose name sorts first.
//
// Assign is incremental: it keeps every key's R best (node, score). A
// node that joins or recovers is scored once per key against that list; a
// node that leaves or fails re-ranks only the keys that listed it. The
// first step, a replicas change, a weight change of a live node in the
// weighted form, or a switch between equal and unequal weights ranks all
// keys afresh, O(K·n).
type rendezvous struct {
	env      *placer.Env
	kc       *keys.KeyCache
	Seed     []uint64          // nameHash64 by NodeID
	nameRank []uint32          // NodeID → rank of its name
	byRank   []timeline.NodeID // rank of a name → NodeID
	liveSeed []uint64          // seed of each live member, in live order
	liveTag  []uint64          // maxTagged−1−nameRank of each, when nodes ≤ maxTagged
	live     []timeline.Member // from update

	// The ranking as of the last assign.
	R        int
	weight   []int // by NodeID, 0 when not live
	weighted bool
	ids      []timeline.NodeID // key i's list at [i·R, (i+1)·R)
	sc       []float64         // scores beside ids, or nil with one unweighted owner
	hi       []uint32          // with one unweighted owner: x>>32 of each key's owner
	undo     rendezvousUndo
	leaving  []uint32 // departOne's scratch: the keys of the departed node
}

// RendezvousKind is rendezvous hashing's registry entry.
var RendezvousKind = rulekind.Kind{Name: "rendezvous", HistoryFree: true, Doc: "Rendezvous (highest random weight) hashing (Thaler and Ravishankar 1998).",
	Params: []rulekind.Param{rulekind.HashParam}, Mosaic: true,
	Footprint: rulekind.Footprint{Ranks: true, KeyBytes: rendezvousKeyBytes, Local: true},
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) {
		return placer.Checked(newRendezvous(s, e))
	}}

// rendezvousKeyBytes is the rule's memory per key, for the estimate.
func rendezvousKeyBytes(_ placer.RuleSpec, r int64, uniform bool) int64 {
	if r == 1 && uniform {
		return 6 // the owner and 32 bits of its hash
	}
	return 10 * r // node and score per list entry
}

func newRendezvous(spec placer.RuleSpec, e *placer.Env) (*rendezvous, error) {
	h, err := keys.ParseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	z := &rendezvous{env: e, kc: keys.NewKeyCache(e.Keys, h)}
	z.Seed = make([]uint64, len(e.Nodes))
	z.nameRank = make([]uint32, len(e.Nodes))
	byName := make([]timeline.NodeID, len(e.Nodes))
	for id, name := range e.Nodes {
		z.Seed[id] = keys.NameHash64(name)
		byName[id] = timeline.NodeID(id)
	}
	slices.SortFunc(byName, func(a, b timeline.NodeID) int { return strings.Compare(e.Nodes[a], e.Nodes[b]) })
	for r, id := range byName {
		z.nameRank[id] = uint32(r)
	}
	z.byRank = byName
	return z, nil
}

func (z *rendezvous) Update(st *timeline.State) []string {
	z.live = placer.LiveList(st)
	z.liveSeed, z.liveTag = z.liveSeed[:0], z.liveTag[:0]
	if len(z.env.Nodes) <= maxTagged {
		for _, m := range z.live {
			z.liveSeed = append(z.liveSeed, z.Seed[m.ID])
			z.liveTag = append(z.liveTag, uint64(maxTagged-1-z.nameRank[m.ID]))
		}
	}
	return nil
}

// maxTagged bounds the nodes for which best packs a node's name rank
// into the 12 bits its unweighted score drops.
const maxTagged = 1 << 12

// score is the rank of node id for a key with hash k; higher wins.
func (z *rendezvous) score(k uint64, id timeline.NodeID, w int, weighted bool) float64 {
	x := keys.Mix64(k^z.Seed[id]) >> 12
	if !weighted {
		return float64(x)
	}
	h := (float64(x) + 0.5) / (1 << 52)
	return float64(w) / -keys.DetLog(h)
}

// insert puts (id, s) into a best-first list if it belongs there and
// reports whether it did.
func (z *rendezvous) insert(ids []timeline.NodeID, sc []float64, id timeline.NodeID, s float64) bool {
	p := len(ids)
	for p > 0 && (ids[p-1] == timeline.NoNode || s > sc[p-1] || s == sc[p-1] && z.nameRank[id] < z.nameRank[ids[p-1]]) {
		p--
	}
	if p == len(ids) {
		return false
	}
	copy(ids[p+1:], ids[p:len(ids)-1])
	copy(sc[p+1:], sc[p:len(sc)-1])
	ids[p], sc[p] = id, s
	return true
}

// offer inserts member m into key k's list if it belongs there, and
// reports whether it did; most keys are turned away after one score and
// one comparison.
func (z *rendezvous) offer(k uint64, ids []timeline.NodeID, sc []float64, m timeline.Member) bool {
	var s float64
	if z.weighted {
		s = z.score(k, m.ID, m.Weight, true)
	} else {
		s = float64(keys.Mix64(k^z.Seed[m.ID]) >> 12)
	}
	last := len(ids) - 1
	if ids[last] != timeline.NoNode && s < sc[last] {
		return false
	}
	return z.insert(ids, sc, m.ID, s)
}

// rank fills one key's list from every live node.
func (z *rendezvous) rank(k uint64, ids []timeline.NodeID, sc []float64, weighted bool) {
	if len(ids) == 1 && !weighted {
		id, s := z.best(k)
		ids[0], sc[0] = id, float64(s)
		return
	}
	fill(ids, timeline.NoNode)
	for _, m := range z.live {
		z.insert(ids, sc, m.ID, z.score(k, m.ID, m.Weight, weighted))
	}
}

// best is rank's unweighted single-owner case: the live node of highest
// score x>>12, ties to the name that sorts first, and that score.
func (z *rendezvous) best(k uint64) (timeline.NodeID, uint64) {
	if len(z.liveTag) > 0 {
		// ⌊x/2¹²⌋ in the high 52 bits, the complement of the name rank in
		// the low 12: the largest packed value is the highest score, ties
		// to the name that sorts first, found without a branch.
		var top uint64
		tags := z.liveTag[:len(z.liveSeed)]
		for e, seed := range z.liveSeed {
			top = max(top, keys.Mix64(k^seed)&^(maxTagged-1)|tags[e])
		}
		return z.byRank[maxTagged-1-top&(maxTagged-1)], top >> 12
	}
	id, s := timeline.NoNode, uint64(0)
	for _, m := range z.live {
		x := keys.Mix64(k^z.Seed[m.ID]) >> 12
		if id == timeline.NoNode || x > s || x == s && z.nameRank[m.ID] < z.nameRank[id] {
			id, s = m.ID, x
		}
	}
	return id, s
}

func (z *rendezvous) Assign(lists [][]timeline.NodeID) {
	R := len(lists)
	weight, isW := z.weights()
	if z.ids == nil || R != z.R || isW != z.weighted || isW && reweighted(z.weight, weight) {
		z.R, z.weighted = R, isW
		z.rankAll()
	} else {
		z.rankChanges(z.weight, weight, nil)
	}
	z.weight = weight
	if R == 1 {
		copy(lists[0], z.ids)
		return
	}
	for i := range z.env.Keys.Len() {
		for r, l := range lists {
			l[i] = z.ids[i*R+r]
		}
	}
}

// Delta is assign's incremental case, reporting the keys whose lists
// rankChanges touched; it declines whenever assign would rank afresh.
func (z *rendezvous) Delta(d *placer.Delta) bool {
	weight, isW := z.weights()
	if z.ids == nil || len(d.Lists) != z.R || isW != z.weighted || isW && reweighted(z.weight, weight) {
		return false
	}
	z.rankChanges(z.weight, weight, d)
	z.weight = weight
	return true
}

// weights returns the live weights by NodeID (0 when not live) and
// whether they differ.
func (z *rendezvous) weights() ([]int, bool) {
	weight := make([]int, len(z.env.Nodes))
	for _, m := range z.live {
		weight[m.ID] = m.Weight
	}
	return weight, weighted(z.live)
}

// weighted reports whether the members' weights differ (used by every
// rule whose weighted form departs from its unweighted one).
func weighted(ms []timeline.Member) bool {
	for _, mem := range ms {
		if mem.Weight != ms[0].Weight {
			return true
		}
	}
	return false
}

// reweighted reports whether a node live before and after changed weight.
func reweighted(old, cur []int) bool {
	for id := range cur {
		if old[id] != 0 && cur[id] != 0 && old[id] != cur[id] {
			return true
		}
	}
	return false
}

func (z *rendezvous) rankAll() {
	if z.R == 1 && !z.weighted {
		z.rankAllOne()
		return
	}
	z.hi = nil
	R, keys := z.R, z.kc.Keys64()
	K := z.env.Keys.Len()
	z.ids = make([]timeline.NodeID, K*R)
	z.sc = make([]float64, K*R)
	for i := range K {
		z.rank(keys.At(i), z.ids[i*R:(i+1)*R], z.sc[i*R:(i+1)*R], z.weighted)
	}
}

// rankChanges updates the lists for nodes that left (re-ranking the keys
// that listed one) and nodes that joined (one score per key), adding
// every key whose list changed to d when d is not nil.
func (z *rendezvous) rankChanges(old, cur []int, d *placer.Delta) {
	gone := make([]bool, len(cur))
	var added []timeline.Member
	anyGone := false
	for id := range cur {
		gone[id] = old[id] != 0 && cur[id] == 0
		anyGone = anyGone || gone[id]
		if old[id] == 0 && cur[id] != 0 {
			added = append(added, timeline.Member{ID: timeline.NodeID(id), Weight: cur[id]})
		}
	}
	if !anyGone && len(added) == 0 {
		return
	}
	if z.R == 1 && !z.weighted {
		z.changesOne(old, cur, gone, added, d)
		return
	}
	R, keys := z.R, z.kc.Keys64()
	for i := range z.env.Keys.Len() {
		ids, sc := z.ids[i*R:(i+1)*R], z.sc[i*R:(i+1)*R]
		k := keys.At(i)
		changed := false
		if anyGone && listsAny(ids, gone) {
			z.rank(k, ids, sc, z.weighted)
			changed = true
		} else {
			for _, m := range added {
				changed = z.offer(k, ids, sc, m) || changed
			}
		}
		if changed && d != nil {
			d.Add(i, ids)
		}
	}
}

// listsAny reports whether ids holds a node marked in set.
func listsAny(ids []timeline.NodeID, set []bool) bool {
	for _, id := range ids {
		if id != timeline.NoNode && set[id] {
			return true
		}
	}
	return false
}

func (z *rendezvous) Probe(key string, R int) (uint64, []timeline.NodeID) {
	k := z.kc.Hash.Sum64([]byte(key))
	ids, sc := make([]timeline.NodeID, R), make([]float64, R)
	z.rank(k, ids, sc, weighted(z.live))
	return k, slices.DeleteFunc(ids, func(id timeline.NodeID) bool { return id == timeline.NoNode })
}

// Geometry samples the owner of a key whose hash is the wheel position.
// Unweighted, the samples are ranked together (rankBatch).
func (z *rendezvous) Geometry() ([]placer.Arc, []placer.Point) {
	isW := weighted(z.live)
	if !isW && len(z.liveTag) > 0 {
		return z.batchArcs(), nil
	}
	var ids [1]timeline.NodeID
	var sc [1]float64
	return placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID {
		z.rank(uint64(p), ids[:], sc[:], isW)
		return ids[0]
	}), nil
}

// batchArcs is Geometry's unweighted case.
func (z *rendezvous) batchArcs() []placer.Arc {
	ps := placer.SamplePositions(placer.WheelSamples)
	ks := make([]uint64, len(ps))
	for i, p := range ps {
		ks[i] = uint64(p)
	}
	ids, hi32 := make([]timeline.NodeID, len(ks)), make([]uint32, len(ks))
	for lo := 0; lo < len(ks); lo += rankBlock {
		hi := min(lo+rankBlock, len(ks))
		z.rankBatch(ks[lo:hi], ids[lo:hi], hi32[lo:hi])
	}
	return placer.ArcsOfSamples(ps, ids)
}

func (z *rendezvous) Order() []uint32 {
	_, rank := z.kc.Order()
	return rank
}
