package figdata

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// KeyPositions returns, by canonical key, where rule's wheel puts each key
// on the 32-bit circle of sim.StepResult.Arcs and Points: the key's 32-bit hash
// under the rule's hash for the hashing rules (ring, bounded, ketama,
// multiprobe, modulo, maglev; the low 32 bits for xxhash64), the same for
// jump and rendezvous, whose sampled wheels give position p to a key
// whose hash is p, and for slots the key's slot scaled to the circle,
// slot·2³²/16384, the start of the slot's arc.
//
// On the point rules (ring, ketama, and bounded while the key's first
// node has room) and on slots the arc at a key's position is exactly its
// owner's. The wheels of the other rules are sampled (placer.WheelSamples) from
// an owner that changes from one hash to the next, so there a key's
// position says where its hash is, not who owns it.
//
// Nothing of this is kept in the result: every call hashes every key
// again and returns a new slice, so call it only for small key sets.
func KeyPositions(res *sim.Result, rule int) []uint32 {
	spec := res.Rules[rule].Spec
	ks := res.Keys
	if k := registry.KindOf(spec.Kind); k != nil && k.Position != nil {
		return keys.NewKeyCache(ks, keys.HashFNV).Each32(k.Position(registry.Effective(spec)))
	}
	h, err := keys.ParseHash(spec.Kind, registry.Effective(spec).Hash)
	if err != nil || h == keys.HashFNV {
		return append([]uint32(nil), ks.Pos...)
	}
	return keys.NewKeyCache(ks, h).Pos32()
}

// MovedKeys returns, by canonical key, whether the key changed owner at
// step under rule, read from the step's strip; nil at step 0 and when
// the strip holds bins of keys rather than single keys (K > strips.MaxCells).
func MovedKeys(res *sim.Result, rule, step int) []bool {
	cells := res.Rules[rule].Steps[step].Strip.HashOrder
	k := res.Keys.Len()
	if step == 0 || len(cells) != k {
		return nil
	}
	rank := keyRank(res, rule)
	out := make([]bool, k)
	for i := range out {
		t := i
		if rank != nil {
			t = int(rank[i])
		}
		out[i] = cells[t] != 0
	}
	return out
}

// keyRank returns each canonical key's rank in the rule's position
// order, as its placer's order does, or nil when that is the canonical
// order: the rule orders keys by KeyPositions, ties by canonical index.
func keyRank(res *sim.Result, rule int) []uint32 {
	spec := res.Rules[rule].Spec
	if k := registry.KindOf(spec.Kind); k == nil || k.Position == nil {
		if h, err := keys.ParseHash(spec.Kind, registry.Effective(spec).Hash); err != nil || h == keys.HashFNV {
			return nil
		}
	}
	_, _, rank := keys.RankBy(KeyPositions(res, rule))
	return rank
}

// Arcs returns the ownership of the circle under rule at step: the
// step's Arcs, or for the point rules the arcs their points give the
// step's live members (a new slice each call).
func Arcs(r *sim.Result, rule, step int) []placer.Arc {
	sr := &r.Rules[rule].Steps[step]
	if sr.Arcs != nil || sr.Points == nil {
		return sr.Arcs
	}
	live := make([]bool, len(r.Timeline.Nodes))
	for _, m := range r.Timeline.States[step].Members {
		live[m.ID] = !m.Failed
	}
	return placer.RingArcs(sr.Points, func(id timeline.NodeID) bool { return live[id] })
}

// WheelPosition returns where rule's wheel puts key, as KeyPositions does
// for the keys of the key set: for a probe, which need not be one of
// them.
func WheelPosition(res *sim.Result, rule int, key string) uint32 {
	spec := res.Rules[rule].Spec
	if k := registry.KindOf(spec.Kind); k != nil && k.Position != nil {
		return k.Position(registry.Effective(spec))([]byte(key))
	}
	h, err := keys.ParseHash(spec.Kind, registry.Effective(spec).Hash)
	if err != nil {
		h = keys.HashFNV
	}
	return h.Sum32([]byte(key))
}
