package sim

// KeyPositions returns, by canonical key, where rule's wheel puts each key
// on the 32-bit circle of StepResult.Arcs and Points: the key's 32-bit hash
// under the rule's hash for the hashing rules (ring, bounded, ketama,
// multiprobe, modulo, maglev; the low 32 bits for xxhash64), the same for
// jump and rendezvous, whose sampled wheels give position p to a key
// whose hash is p, and for slots the key's slot scaled to the circle,
// slot·2³²/16384, the start of the slot's arc.
//
// On the point rules (ring, ketama, and bounded while the key's first
// node has room) and on slots the arc at a key's position is exactly its
// owner's. The wheels of the other rules are sampled (WheelSamples) from
// an owner that changes from one hash to the next, so there a key's
// position says where its hash is, not who owns it.
//
// Nothing of this is kept in the result: every call hashes every key
// again and returns a new slice, so call it only for small key sets.
func (res *Result) KeyPositions(rule int) []uint32 {
	spec := res.Rules[rule].Spec
	keys := res.Keys
	if k := KindOf(spec.Kind); k != nil && k.position != nil {
		return newKeyCache(keys, hashFNV).each32(k.position(spec.Effective()))
	}
	h, err := parseHash(spec.Kind, spec.Effective().Hash)
	if err != nil || h == hashFNV {
		return append([]uint32(nil), keys.Pos...)
	}
	return newKeyCache(keys, h).pos32()
}

// MovedKeys returns, by canonical key, whether the key changed owner at
// step under rule, read from the step's strip; nil at step 0 and when
// the strip holds bins of keys rather than single keys (K > MaxStripCells).
func (res *Result) MovedKeys(rule, step int) []bool {
	cells := res.Rules[rule].Steps[step].Strip.HashOrder
	k := res.Keys.Len()
	if step == 0 || len(cells) != k {
		return nil
	}
	rank := res.keyRank(rule)
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
func (res *Result) keyRank(rule int) []uint32 {
	spec := res.Rules[rule].Spec
	if k := KindOf(spec.Kind); k == nil || k.position == nil {
		if h, err := parseHash(spec.Kind, spec.Effective().Hash); err != nil || h == hashFNV {
			return nil
		}
	}
	_, _, rank := rankBy(res.KeyPositions(rule))
	return rank
}

// WheelPosition returns where rule's wheel puts key, as KeyPositions does
// for the keys of the key set: for a probe, which need not be one of
// them.
func (res *Result) WheelPosition(rule int, key string) uint32 {
	spec := res.Rules[rule].Spec
	if k := KindOf(spec.Kind); k != nil && k.position != nil {
		return k.position(spec.Effective())([]byte(key))
	}
	h, err := parseHash(spec.Kind, spec.Effective().Hash)
	if err != nil {
		h = hashFNV
	}
	return h.sum32([]byte(key))
}
