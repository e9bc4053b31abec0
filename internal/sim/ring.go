package sim

import (
	"slices"
	"strconv"
	"strings"
)

// ring is consistent hashing with virtual nodes (Karger et al. 1997): each
// member puts vnodes·weight points on the 32-bit circle, at the rule's hash
// (Hash32 by default) of "name#i"; a key belongs to the first point at or
// clockwise after its position, the same hash of the key, wrapping at the
// top. Failed members keep their points and are skipped. Replicas walk on
// clockwise collecting distinct live nodes.
//
// Points at the same position are ordered by node name, then by point
// index, so the ring does not depend on the order nodes joined in.
type ring struct {
	env    *env
	vnodes int // the rule's own points per unit of weight
	pts    []Point
	idx    []uint32 // point index i of pts[j] ("name#i"), for the tiebreak
	live   []bool   // by NodeID
	cached map[NodeID]ringNode
	kc     *keyCache // key positions under the rule's hash
}

// ringNode caches a member's points, recomputed when its count changes.
type ringNode struct {
	count int
	pts   []uint32
}

// newRingChecked is newRing after checking the rule's hash name.
func newRingChecked(spec RuleSpec, e *env) (*ring, error) {
	if _, err := parseHash(spec.Kind, spec.Hash); err != nil {
		return nil, err
	}
	return newRing(spec, e), nil
}

// newRing returns a ring for a rule whose hash name is valid.
func newRing(spec RuleSpec, e *env) *ring {
	h, _ := parseHash(spec.Kind, spec.Hash)
	v := spec.VNodes
	if v == 0 {
		v = DefaultVNodes
	}
	return &ring{env: e, vnodes: v, cached: map[NodeID]ringNode{}, kc: newKeyCache(e.keys, h)}
}

// pointsOf returns the positions of a node's count points.
func (r *ring) pointsOf(id NodeID, count int) []uint32 {
	if c, ok := r.cached[id]; ok && c.count == count {
		return c.pts
	}
	name := r.env.nodes[id]
	buf := make([]byte, 0, len(name)+8)
	pts := make([]uint32, count)
	for i := range pts {
		buf = strconv.AppendInt(append(append(buf[:0], name...), '#'), int64(i), 10)
		pts[i] = r.kc.hash.sum32(buf)
	}
	r.cached[id] = ringNode{count: count, pts: pts}
	return pts
}

func (r *ring) update(st *State) []string {
	v := r.vnodes
	if st.VNodes > 0 {
		v = st.VNodes
	}
	return r.build(st, v)
}

// ringEntry is a point before sorting: i is its index in "name#i".
type ringEntry struct {
	pos  uint32
	node NodeID
	i    uint32
}

// build places v·weight points for every member of st.
func (r *ring) build(st *State, v int) []string {
	r.live = make([]bool, len(r.env.nodes))
	var all []ringEntry
	for _, m := range st.Members {
		r.live[m.ID] = !m.Failed
		for i, p := range r.pointsOf(m.ID, v*m.Weight) {
			all = append(all, ringEntry{p, m.ID, uint32(i)})
		}
	}
	return r.setPoints(all)
}

// setPoints sorts the points (ties by node name, then point index) and
// reports collisions. r.live must be set.
func (r *ring) setPoints(all []ringEntry) []string {
	names := r.env.nodes
	slices.SortFunc(all, func(a, b ringEntry) int {
		if a.pos != b.pos {
			return cmpU32(a.pos, b.pos)
		}
		if c := strings.Compare(names[a.node], names[b.node]); c != 0 {
			return c
		}
		return cmpU32(a.i, b.i)
	})
	r.pts, r.idx = make([]Point, len(all)), make([]uint32, len(all))
	for j, e := range all {
		r.pts[j], r.idx[j] = Point{e.pos, e.node}, e.i
	}
	return r.collisions()
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// collisions reports points of different nodes at the same position.
func (r *ring) collisions() []string {
	n := 0
	for j := 1; j < len(r.pts); j++ {
		if r.pts[j].Pos == r.pts[j-1].Pos && r.pts[j].Node != r.pts[j-1].Node {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []string{strconv.Itoa(n) + " point collision(s) between nodes, resolved by node name"}
}

// prefs returns, for every point j, the preference list of a key that
// lands on it: the first R distinct live nodes from j clockwise.
func (r *ring) prefs(R int) [][]NodeID {
	P := len(r.pts)
	out := make([][]NodeID, R)
	for k := range out {
		out[k] = make([]NodeID, P)
	}
	list := make([]NodeID, 0, R)
	for j := range P {
		list = r.walk(j, R, list[:0])
		for k := range R {
			out[k][j] = NoNode
			if k < len(list) {
				out[k][j] = list[k]
			}
		}
	}
	return out
}

// walk appends to list up to R distinct live nodes met clockwise from
// point j.
func (r *ring) walk(j, R int, list []NodeID) []NodeID {
	P := len(r.pts)
	for s := 0; s < P && len(list) < R; s++ {
		id := r.pts[(j+s)%P].Node
		if r.live[id] && !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}

// assign merges the sorted keys with the sorted points: one pass, no
// per-key search.
func (r *ring) assign(lists [][]NodeID) {
	pref := r.prefs(len(lists))
	sorted := r.kc.sortedPos()
	perm, _ := r.kc.order()
	P := len(r.pts)
	j := 0
	for t, p := range sorted {
		i := at(perm, t)
		for j < P && r.pts[j].Pos < p {
			j++
		}
		jj := j
		if jj == P {
			jj = 0
		}
		for k := range lists {
			lists[k][i] = pref[k][jj]
		}
	}
}

// first returns the index of the first point at or after pos, wrapping.
func (r *ring) first(pos uint32) int {
	j, _ := slices.BinarySearchFunc(r.pts, pos, func(p Point, t uint32) int { return cmpU32(p.Pos, t) })
	if j == len(r.pts) {
		j = 0
	}
	return j
}

func (r *ring) probe(key string, R int) (uint64, []NodeID) {
	pos := r.kc.hash.sum32([]byte(key))
	return uint64(pos), r.walk(r.first(pos), R, nil)
}

// geometry returns exact arcs: the span (prev point, point] belongs to the
// point's effective live owner. Arcs start just after a point.
func (r *ring) geometry() ([]Arc, []Point) {
	owner := r.prefs(1)[0]
	P := len(r.pts)
	arcs := []Arc{{Start: 0, Node: owner[0]}}
	for j := 0; j < P-1; j++ {
		arcs = mergeArcs(arcs, Arc{Start: r.pts[j].Pos + 1, Node: owner[j+1]})
	}
	if P > 0 && r.pts[P-1].Pos != ^uint32(0) {
		arcs = mergeArcs(arcs, Arc{Start: r.pts[P-1].Pos + 1, Node: owner[0]})
	}
	return arcs, slices.Clone(r.pts)
}

func (r *ring) order() []uint32 {
	_, rank := r.kc.order()
	return rank
}
