package sim

// modulo is the naive baseline: bucket = hash mod n over the live members,
// bucket i being the i-th live member in join order. A node that rejoins
// goes to the end of the order, so modulo depends on the order of the
// nodes, not only on the set.
type modulo struct {
	env  *env
	live []Member
}

func newModulo(e *env) *modulo { return &modulo{env: e} }

func (m *modulo) update(st *State) []string {
	m.live = liveList(st)
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
		for i, p := range m.env.keys.Pos {
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
	b := Hash32(key) % n
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

func (m *modulo) order() []uint32 { return nil }

func fill(s []NodeID, v NodeID) {
	for i := range s {
		s[i] = v
	}
}
