package sim

// modulo is the naive baseline: bucket = hash mod n over the live members,
// bucket i being the i-th live member in join order. A node that rejoins
// goes to the end of the order, so modulo depends on the order of the
// nodes, not only on the set. The key's hash is the rule's (Hash32 by
// default, low 32 bits of xxhash64). Modulo has no weighted form: weights
// are ignored, with a note.
type modulo struct {
	env  *env
	live []Member
	kc   *keyCache
}

func newModulo(spec RuleSpec, e *env) (*modulo, error) {
	h, err := parseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	return &modulo{env: e, kc: newKeyCache(e.keys, h)}, nil
}

func (m *modulo) update(st *State) []string {
	m.live = liveList(st)
	if weighted(m.live) {
		return []string{"modulo has no weighted form: weights ignored"}
	}
	return nil
}

func (m *modulo) assign(lists [][]NodeID) {
	n := uint32(len(m.live))
	ids := make([]NodeID, n)
	for i, mem := range m.live {
		ids[i] = mem.ID
	}
	for r, list := range lists {
		if uint32(r) >= n {
			fill(list, NoNode)
			continue
		}
		off := uint32(r)
		for i, p := range m.kc.pos32() {
			b := p%n + off
			if b >= n {
				b -= n
			}
			list[i] = ids[b]
		}
	}
}

func (m *modulo) probe(key string, r int) (uint64, []NodeID) {
	n := uint32(len(m.live))
	b := m.kc.hash.sum32([]byte(key)) % n
	owners := make([]NodeID, 0, r)
	for j := 0; j < r && j < int(n); j++ {
		owners = append(owners, m.live[(b+uint32(j))%n].ID)
	}
	return uint64(b), owners
}

func (m *modulo) geometry() ([]Arc, []Point) {
	n := uint32(len(m.live))
	return sampledArcs(WheelSamples, func(p uint32) NodeID { return m.live[p%n].ID }), nil
}

func (m *modulo) order() []uint32 {
	_, rank := m.kc.order()
	return rank
}

func fill(s []NodeID, v NodeID) {
	for i := range s {
		s[i] = v
	}
}
