package tablerules

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// modulo is the naive baseline: bucket = hash mod n over the live members,
// bucket i being the i-th live member in join order. A node that rejoins
// goes to the end of the order, so modulo depends on the order of the
// nodes, not only on the set. The key's hash is the rule's (Hash32 by
// default, low 32 bits of xxhash64). Modulo has no weighted form: weights
// are ignored, with a note.
type modulo struct {
	env  *placer.Env
	live []timeline.Member
	kc   *keys.KeyCache
}

// ModuloKind is the modulo rule's registry entry.
var ModuloKind = rulekind.Kind{Name: "modulo", HistoryFree: true, Doc: "hash(key) mod n over the live nodes in join order: simple, and moves almost every key when n changes.",
	Params: []rulekind.Param{rulekind.HashParam}, Mosaic: true, Theory: rulekind.ModuloTheory,
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newModulo(s, e)) }}

func newModulo(spec placer.RuleSpec, e *placer.Env) (*modulo, error) {
	h, err := keys.ParseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	return &modulo{env: e, kc: keys.NewKeyCache(e.Keys, h)}, nil
}

func (m *modulo) Update(st *timeline.State) []string {
	m.live = placer.LiveList(st)
	if weighted(m.live) {
		return []string{"modulo has no weighted form: weights ignored"}
	}
	return nil
}

func (m *modulo) Assign(lists [][]timeline.NodeID) {
	n := uint32(len(m.live))
	ids := make([]timeline.NodeID, n)
	for i, mem := range m.live {
		ids[i] = mem.ID
	}
	for r, list := range lists {
		if uint32(r) >= n {
			fill(list, timeline.NoNode)
			continue
		}
		assignRank(list, m.kc.Pos32(), ids, uint32(r))
	}
}

// assignRank writes the r-th choice of every key, ids[(p + r) mod n] for
// its position p, into list. The primary choice, the common case, has a
// loop of its own without the offset.
func assignRank(list []timeline.NodeID, pos []uint32, ids []timeline.NodeID, r uint32) {
	n := uint32(len(ids))
	if r == 0 {
		keys.PickMod(list, pos, ids)
		return
	}
	mod := keys.NewFastMod(n)
	list = list[:len(pos)]
	for i, p := range pos {
		b := mod.Of(p) + r
		if b >= n {
			b -= n
		}
		list[i] = ids[b]
	}
}

func (m *modulo) Probe(key string, r int) (uint64, []timeline.NodeID) {
	n := uint32(len(m.live))
	b := m.kc.Hash.Sum32([]byte(key)) % n
	owners := make([]timeline.NodeID, 0, r)
	for j := 0; j < r && j < int(n); j++ {
		owners = append(owners, m.live[(b+uint32(j))%n].ID)
	}
	return uint64(b), owners
}

func (m *modulo) Geometry() ([]placer.Arc, []placer.Point) {
	n := uint32(len(m.live))
	return placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID { return m.live[p%n].ID }), nil
}

func (m *modulo) Order() []uint32 {
	_, rank := m.kc.Order()
	return rank
}

func fill(s []timeline.NodeID, v timeline.NodeID) {
	for i := range s {
		s[i] = v
	}
}
