package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/timeline"
	"math"
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
	cached map[timeline.NodeID]ringNode
	kc     *keys.KeyCache // key positions under the rule's hash
	on     []int          // by NodeID: 1 + the point count it has on the ring, 0 when off
	pref   [][]timeline.NodeID
	last   ringView // what the last assign or delta placed
}

// ringNode caches a member's points, recomputed when its count changes,
// and the same points as sorted entries, made on first use.
type ringNode struct {
	count  int
	pts    []uint32
	sorted []ringEntry
}

// ringView is what a ring's assignment depends on: its points, in order,
// and the preference list of keys that land on each. Point slices are
// never modified once built, so views and StepResults share them.
type ringView struct {
	pts  []Point
	pref [][]timeline.NodeID
}

// newRingChecked is newRing after checking the rule's hash name.
func newRingChecked(spec RuleSpec, e *env) (*ring, error) {
	if _, err := keys.ParseHash(spec.Kind, spec.Hash); err != nil {
		return nil, err
	}
	return newRing(spec, e), nil
}

// newRing returns a ring for a rule whose hash name is valid.
func newRing(spec RuleSpec, e *env) *ring {
	h, _ := keys.ParseHash(spec.Kind, spec.Hash)
	v := spec.VNodes
	if v == 0 {
		v = DefaultVNodes
	}
	return &ring{env: e, vnodes: v, cached: map[timeline.NodeID]ringNode{}, kc: keys.NewKeyCache(e.keys, h)}
}

// pointsOf returns the positions of a node's count points.
func (r *ring) pointsOf(id timeline.NodeID, count int) []uint32 {
	if c, ok := r.cached[id]; ok && c.count == count {
		return c.pts
	}
	name := r.env.nodes[id]
	buf := make([]byte, 0, len(name)+8)
	pts := make([]uint32, count)
	for i := range pts {
		buf = strconv.AppendInt(append(append(buf[:0], name...), '#'), int64(i), 10)
		pts[i] = r.kc.Hash.Sum32(buf)
	}
	r.cached[id] = ringNode{count: count, pts: pts}
	return pts
}

func (r *ring) update(st *timeline.State) []string {
	v := r.vnodes
	if st.VNodes > 0 {
		v = st.VNodes
	}
	return r.build(st, v)
}

// ringEntry is a point before sorting: i is its index in "name#i".
type ringEntry struct {
	pos  uint32
	node timeline.NodeID
	i    uint32
}

// build places v·weight points for every member of st.
func (r *ring) build(st *timeline.State, v int) []string {
	r.live = make([]bool, len(r.env.nodes))
	want := make([]placed, 0, len(st.Members))
	for _, m := range st.Members {
		r.live[m.ID] = !m.Failed
		want = append(want, placed{m.ID, v * m.Weight, r.pointsOf(m.ID, v*m.Weight)})
	}
	return r.place(want)
}

// placed is a node's wanted points: count identifies them in the cache.
type placed struct {
	id    timeline.NodeID
	count int
	pts   []uint32
}

// place makes the ring hold exactly the wanted nodes' points (r.live must
// be set) and reports collisions. When few nodes change it merges their
// points into the sorted ones, O(P), rather than sorting all of them.
func (r *ring) place(want []placed) []string {
	r.pref = nil
	if r.on == nil {
		r.on = make([]int, len(r.env.nodes))
	}
	keep := make([]bool, len(r.env.nodes))
	var added []placed
	for _, w := range want {
		if r.on[w.id] == w.count+1 {
			keep[w.id] = true
		} else {
			added = append(added, w)
		}
	}
	changed := len(added)
	for id := range r.on {
		changed += b2i(r.on[id] > 0 && !keep[id])
		r.on[id] = 0
	}
	for _, w := range want {
		r.on[w.id] = w.count + 1
	}
	switch {
	case r.pts == nil || 4*changed > len(want):
		return r.setPoints(r.entries(want))
	case changed == 0:
		// Only liveness changed (a failure or a recovery): the points,
		// which are never modified in place, stay shared with the
		// steps that already hold them.
		return r.collisions()
	}
	return r.mergePoints(keep, added)
}

// entries lists every wanted point, unsorted.
func (r *ring) entries(want []placed) []ringEntry {
	var all []ringEntry
	for _, w := range want {
		for i, p := range w.pts {
			all = append(all, ringEntry{p, w.id, uint32(i)})
		}
	}
	return all
}

// mergePoints keeps the points of nodes marked keep and merges in the
// added nodes' points, each node's sorted once and cached.
func (r *ring) mergePoints(keep []bool, added []placed) []string {
	var add []ringEntry
	for _, w := range added {
		add = append(add, r.sortedOf(w)...)
	}
	if len(added) > 1 {
		slices.SortFunc(add, r.cmpEntry)
	}
	pts := make([]Point, 0, len(r.pts)+len(add))
	idx := make([]uint32, 0, cap(pts))
	a := 0
	for j, p := range r.pts {
		if !keep[p.Node] {
			continue
		}
		e := ringEntry{p.Pos, p.Node, r.idx[j]}
		for ; a < len(add) && r.cmpEntry(add[a], e) < 0; a++ {
			pts, idx = append(pts, Point{add[a].pos, add[a].node}), append(idx, add[a].i)
		}
		pts, idx = append(pts, p), append(idx, e.i)
	}
	for ; a < len(add); a++ {
		pts, idx = append(pts, Point{add[a].pos, add[a].node}), append(idx, add[a].i)
	}
	r.pts, r.idx = pts, idx
	return r.collisions()
}

// sortedOf returns a node's points as entries in ring order, cached with
// its points.
func (r *ring) sortedOf(w placed) []ringEntry {
	c := r.cached[w.id]
	if c.sorted == nil || c.count != w.count {
		c = ringNode{count: w.count, pts: w.pts}
		for i, p := range w.pts {
			c.sorted = append(c.sorted, ringEntry{p, w.id, uint32(i)})
		}
		slices.SortFunc(c.sorted, r.cmpEntry)
		r.cached[w.id] = c
	}
	return c.sorted
}

// cmpEntry orders points by position, then node name, then point index.
func (r *ring) cmpEntry(a, b ringEntry) int {
	if a.pos != b.pos {
		return cmpU32(a.pos, b.pos)
	}
	if a.node != b.node {
		if c := strings.Compare(r.env.nodes[a.node], r.env.nodes[b.node]); c != 0 {
			return c
		}
	}
	return cmpU32(a.i, b.i)
}

// setPoints sorts the points (ties by node name, then point index) and
// reports collisions. r.live must be set.
func (r *ring) setPoints(all []ringEntry) []string {
	r.pref = nil
	slices.SortFunc(all, r.cmpEntry)
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
// lands on it: the first R distinct live nodes from j clockwise. The
// result is cached until the points change and must not be modified.
func (r *ring) prefs(R int) [][]timeline.NodeID {
	if len(r.pref) == R {
		return r.pref
	}
	if R == 1 {
		r.pref = [][]timeline.NodeID{r.owners()}
		return r.pref
	}
	P := len(r.pts)
	out := makeLists(R, P)
	list := make([]timeline.NodeID, 0, R)
	for j := range P {
		list = r.walk(j, R, list[:0])
		for k := range R {
			out[k][j] = timeline.NoNode
			if k < len(list) {
				out[k][j] = list[k]
			}
		}
	}
	r.pref = out
	return out
}

// owners returns, for every point, the first live node from it clockwise
// (NoNode when none is live): two backward passes, wrapping.
func (r *ring) owners() []timeline.NodeID {
	out := make([]timeline.NodeID, len(r.pts))
	next := timeline.NoNode
	for range 2 {
		for j := len(r.pts) - 1; j >= 0; j-- {
			if id := r.pts[j].Node; r.live[id] {
				next = id
			}
			out[j] = next
		}
	}
	return out
}

// walk appends to list up to R distinct live nodes met clockwise from
// point j.
func (r *ring) walk(j, R int, list []timeline.NodeID) []timeline.NodeID {
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
func (r *ring) assign(lists [][]timeline.NodeID) {
	pref := r.prefs(len(lists))
	sorted := r.kc.SortedPos()
	perm, _ := r.kc.Order()
	P := len(r.pts)
	j := 0
	for t, p := range sorted {
		i := keys.CanonicalAt(perm, t)
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
	r.last = ringView{r.pts, pref}
}

// delta reports the keys of every stretch of the circle whose preference
// list changed since the last assign or delta: a merge of the old and new
// points, then a binary search in the sorted key positions for each
// changed stretch. Its cost is O(P + changed keys), not O(K).
func (r *ring) delta(d *delta) bool {
	if len(r.last.pref) != len(d.lists) {
		return false
	}
	cur := ringView{r.pts, r.prefs(len(d.lists))}
	sorted := r.kc.SortedPos()
	perm, _ := r.kc.Order()
	diffViews(r.last, cur, func(lo, hi uint64, _, j int) bool {
		t0, t1 := stretchRanks(sorted, lo, hi)
		for t := t0; t < t1; t++ {
			d.addFrom(keys.CanonicalAt(perm, t), cur.pref, j)
		}
		return true
	})
	r.last = cur
	return true
}

// diffViews walks the circle's stretches between the points of both views
// and calls changed(lo, hi, i, j) for each stretch [lo, hi] whose lists
// differ, i and j being the points of a and of b that keys there land on;
// it stops early when changed returns false.
func diffViews(a, b ringView, changed func(lo, hi uint64, i, j int) bool) {
	i, j := 0, 0 // the first point at or after x, in a and in b
	for x := uint64(0); x <= math.MaxUint32; {
		endA, ownA := stretch(a.pts, i)
		endB, ownB := stretch(b.pts, j)
		end := min(endA, endB)
		if !sameLists(a.pref, ownA, b.pref, ownB) && !changed(x, end, ownA, ownB) {
			return
		}
		x = end + 1
		i, j = skipTo(a.pts, i, x), skipTo(b.pts, j, x)
	}
}

// stretchRanks returns the ranks [t0, t1) of the sorted positions that
// fall in the stretch [lo, hi] of the circle.
func stretchRanks(sorted []uint32, lo, hi uint64) (t0, t1 int) {
	t1 = len(sorted)
	if hi < math.MaxUint32 {
		t1 = lowerBound(sorted, uint32(hi+1))
	}
	return lowerBound(sorted, uint32(lo)), t1
}

// stretch returns where the stretch of point i ends and the point keys in
// it land on: i, or point 0 past the last point.
func stretch(pts []Point, i int) (end uint64, own int) {
	if i < len(pts) {
		return uint64(pts[i].Pos), i
	}
	return math.MaxUint32, 0
}

// skipTo advances i to the first point at or after x.
func skipTo(pts []Point, i int, x uint64) int {
	for i < len(pts) && uint64(pts[i].Pos) < x {
		i++
	}
	return i
}

// sameLists reports whether point i of a and point j of b have the same
// preference lists.
func sameLists(a [][]timeline.NodeID, i int, b [][]timeline.NodeID, j int) bool {
	for r := range a {
		if a[r][i] != b[r][j] {
			return false
		}
	}
	return true
}

// first returns the index of the first point at or after pos, wrapping.
func (r *ring) first(pos uint32) int {
	j, _ := slices.BinarySearchFunc(r.pts, pos, func(p Point, t uint32) int { return cmpU32(p.Pos, t) })
	if j == len(r.pts) {
		j = 0
	}
	return j
}

func (r *ring) probe(key string, R int) (uint64, []timeline.NodeID) {
	pos := r.kc.Hash.Sum32([]byte(key))
	return uint64(pos), r.walk(r.first(pos), R, nil)
}

// geometry returns the points alone: the arcs follow from them and the
// step's live members (ringArcs, through Result.Arcs), and a hundred
// steps of 16,000 points would otherwise keep 13 MB of arcs per rule
// until the figures are drawn.
func (r *ring) geometry() ([]Arc, []Point) { return nil, r.pts }

// ringArcs is the ownership of the circle by the points pts, in position
// order, when live says which nodes are alive: the stretch up to each
// point belongs to the first live node at or after it, wrapping, as on
// a ring (NoNode when none is). Neighbouring arcs of one owner merge.
func ringArcs(pts []Point, live func(timeline.NodeID) bool) []Arc {
	P := len(pts)
	if P == 0 {
		return []Arc{{Start: 0, Node: timeline.NoNode}}
	}
	owner := make([]timeline.NodeID, P)
	next := timeline.NoNode
	for range 2 {
		for j := P - 1; j >= 0; j-- {
			if id := pts[j].Node; live(id) {
				next = id
			}
			owner[j] = next
		}
	}
	arcs := []Arc{{Start: 0, Node: owner[0]}}
	for j := 0; j < P-1; j++ {
		arcs = mergeArcs(arcs, Arc{Start: pts[j].Pos + 1, Node: owner[j+1]})
	}
	if pts[P-1].Pos != ^uint32(0) {
		arcs = mergeArcs(arcs, Arc{Start: pts[P-1].Pos + 1, Node: owner[0]})
	}
	return arcs
}

func (r *ring) Order() []uint32 {
	_, rank := r.kc.Order()
	return rank
}
