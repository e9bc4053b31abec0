package sim

import (
	"slices"
	"strings"
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
// assign is incremental: it keeps every key's R best (node, score). A
// node that joins or recovers is scored once per key against that list; a
// node that leaves or fails re-ranks only the keys that listed it. The
// first step, a replicas change, a weight change of a live node in the
// weighted form, or a switch between equal and unequal weights ranks all
// keys afresh, O(K·n).
type rendezvous struct {
	env      *env
	kc       *keyCache
	seed     []uint64 // nameHash64 by NodeID
	nameRank []uint32 // NodeID → rank of its name
	live     []Member // from update

	// The ranking as of the last assign.
	R        int
	weight   []int // by NodeID, 0 when not live
	weighted bool
	ids      []NodeID  // key i's list at [i·R, (i+1)·R)
	sc       []float64 // scores beside ids
}

func newRendezvous(spec RuleSpec, e *env) (*rendezvous, error) {
	h, err := parseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	z := &rendezvous{env: e, kc: newKeyCache(e.keys, h)}
	z.seed = make([]uint64, len(e.nodes))
	z.nameRank = make([]uint32, len(e.nodes))
	byName := make([]NodeID, len(e.nodes))
	for id, name := range e.nodes {
		z.seed[id] = nameHash64(name)
		byName[id] = NodeID(id)
	}
	slices.SortFunc(byName, func(a, b NodeID) int { return strings.Compare(e.nodes[a], e.nodes[b]) })
	for r, id := range byName {
		z.nameRank[id] = uint32(r)
	}
	return z, nil
}

func (z *rendezvous) update(st *State) []string {
	z.live = liveList(st)
	return nil
}

// score is the rank of node id for a key with hash k; higher wins.
func (z *rendezvous) score(k uint64, id NodeID, w int, weighted bool) float64 {
	x := mix64(k^z.seed[id]) >> 12
	if !weighted {
		return float64(x)
	}
	h := (float64(x) + 0.5) / (1 << 52)
	return float64(w) / -detLog(h)
}

// insert puts (id, s) into a best-first list if it belongs there.
func (z *rendezvous) insert(ids []NodeID, sc []float64, id NodeID, s float64) {
	p := len(ids)
	for p > 0 && (ids[p-1] == NoNode || s > sc[p-1] || s == sc[p-1] && z.nameRank[id] < z.nameRank[ids[p-1]]) {
		p--
	}
	if p == len(ids) {
		return
	}
	copy(ids[p+1:], ids[p:len(ids)-1])
	copy(sc[p+1:], sc[p:len(sc)-1])
	ids[p], sc[p] = id, s
}

// rank fills one key's list from every live node.
func (z *rendezvous) rank(k uint64, ids []NodeID, sc []float64, weighted bool) {
	fill(ids, NoNode)
	for _, m := range z.live {
		z.insert(ids, sc, m.ID, z.score(k, m.ID, m.Weight, weighted))
	}
}

func (z *rendezvous) assign(lists [][]NodeID) {
	R := len(lists)
	weight := make([]int, len(z.env.nodes))
	for _, m := range z.live {
		weight[m.ID] = m.Weight
	}
	isW := weighted(z.live)
	if z.ids == nil || R != z.R || isW != z.weighted || isW && reweighted(z.weight, weight) {
		z.R, z.weighted = R, isW
		z.rankAll()
	} else {
		z.rankChanges(z.weight, weight)
	}
	z.weight = weight
	for i := range z.env.keys.Len() {
		for r, l := range lists {
			l[i] = z.ids[i*R+r]
		}
	}
}

// weighted reports whether the members' weights differ (used by every
// rule whose weighted form departs from its unweighted one).
func weighted(ms []Member) bool {
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
	R, keys := z.R, z.kc.pos64()
	z.ids = make([]NodeID, len(keys)*R)
	z.sc = make([]float64, len(keys)*R)
	for i, k := range keys {
		z.rank(k, z.ids[i*R:(i+1)*R], z.sc[i*R:(i+1)*R], z.weighted)
	}
}

// rankChanges updates the lists for nodes that left (re-ranking the keys
// that listed one) and nodes that joined (one score per key).
func (z *rendezvous) rankChanges(old, cur []int) {
	gone := make([]bool, len(cur))
	var added []Member
	anyGone := false
	for id := range cur {
		gone[id] = old[id] != 0 && cur[id] == 0
		anyGone = anyGone || gone[id]
		if old[id] == 0 && cur[id] != 0 {
			added = append(added, Member{ID: NodeID(id), Weight: cur[id]})
		}
	}
	if !anyGone && len(added) == 0 {
		return
	}
	R := z.R
	for i, k := range z.kc.pos64() {
		ids, sc := z.ids[i*R:(i+1)*R], z.sc[i*R:(i+1)*R]
		if anyGone && listsAny(ids, gone) {
			z.rank(k, ids, sc, z.weighted)
			continue
		}
		for _, m := range added {
			z.insert(ids, sc, m.ID, z.score(k, m.ID, m.Weight, z.weighted))
		}
	}
}

// listsAny reports whether ids holds a node marked in set.
func listsAny(ids []NodeID, set []bool) bool {
	for _, id := range ids {
		if id != NoNode && set[id] {
			return true
		}
	}
	return false
}

func (z *rendezvous) probe(key string, R int) (uint64, []NodeID) {
	k := z.kc.hash.sum64([]byte(key))
	ids, sc := make([]NodeID, R), make([]float64, R)
	z.rank(k, ids, sc, weighted(z.live))
	return k, slices.DeleteFunc(ids, func(id NodeID) bool { return id == NoNode })
}

// geometry samples the owner of a key whose hash is the wheel position.
func (z *rendezvous) geometry() ([]Arc, []Point) {
	var ids [1]NodeID
	var sc [1]float64
	isW := weighted(z.live)
	return sampledArcs(WheelSamples, func(p uint32) NodeID {
		z.rank(uint64(p), ids[:], sc[:], isW)
		return ids[0]
	}), nil
}

func (z *rendezvous) order() []uint32 {
	_, rank := z.kc.order()
	return rank
}
