package ringrules

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// RingKind is the ring's registry entry.
var RingKind = rulekind.Kind{Name: "ring", HistoryFree: true, Doc: "Consistent-hash ring (Karger et al. 1997): every node gets vnodes points on a 32-bit circle; a key belongs to the first point clockwise from its hash.",
	Params: []rulekind.Param{paramVNodes.WithDefault(strconv.Itoa(placer.DefaultVNodes)), rulekind.HashParam}, Theory: rulekind.RingTheory,
	Footprint: rulekind.Footprint{Table: vnodeTable, Points: true, StepPoints: true, Local: true},
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) {
		return placer.Checked(newRingChecked(s, e))
	}}

// paramVNodes is the points per node of the ring rules.
var paramVNodes = rulekind.IntField(rulekind.Param{Name: "vnodes", Type: rulekind.ParamInt, Min: 1, Max: placer.MaxVNodes,
	Doc: "Points per node (per unit of weight) on the ring.",
	One: "point per node", Many: "points per node"},
	func(s *placer.RuleSpec) *int { return &s.VNodes })

// vnodeTable is the points of a vnodes rule at one step, for the estimate.
func vnodeTable(s placer.RuleSpec, weight, vnodeSteps int64) int64 {
	return max(int64(cmp.Or(s.VNodes, placer.DefaultVNodes)), vnodeSteps) * weight
}

// Ring is consistent hashing with virtual nodes (Karger et al. 1997): each
// member puts vnodes·weight points on the 32-bit circle, at the rule's hash
// (Hash32 by default) of "name#i"; a key belongs to the first point at or
// clockwise after its position, the same hash of the key, wrapping at the
// top. Failed members keep their points and are skipped. Replicas walk on
// clockwise collecting distinct live nodes.
//
// Points at the same position are ordered by node name, then by point
// index, so the ring does not depend on the order nodes joined in.
type Ring struct {
	Env    *placer.Env
	Vnodes int // the rule's own points per unit of weight
	Pts    []placer.Point
	Idx    []uint32 // point index i of pts[j] ("name#i"), for the tiebreak
	Live   []bool   // by NodeID
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
	sorted []RingEntry
}

// ringView is what a ring's assignment depends on: its points, in order,
// and the preference list of keys that land on each. Point slices are
// never modified once built, so views and StepResults share them.
type ringView struct {
	pts  []placer.Point
	pref [][]timeline.NodeID
}

// newRingChecked is newRing after checking the rule's hash name.
func newRingChecked(spec placer.RuleSpec, e *placer.Env) (*Ring, error) {
	if _, err := keys.ParseHash(spec.Kind, spec.Hash); err != nil {
		return nil, err
	}
	return NewRing(spec, e), nil
}

// NewRing returns a ring for a rule whose hash name is valid.
func NewRing(spec placer.RuleSpec, e *placer.Env) *Ring {
	h, _ := keys.ParseHash(spec.Kind, spec.Hash)
	v := spec.VNodes
	if v == 0 {
		v = placer.DefaultVNodes
	}
	return &Ring{Env: e, Vnodes: v, cached: map[timeline.NodeID]ringNode{}, kc: keys.NewKeyCache(e.Keys, h)}
}

// pointsOf returns the positions of a node's count points.
func (r *Ring) pointsOf(id timeline.NodeID, count int) []uint32 {
	if c, ok := r.cached[id]; ok && c.count == count {
		return c.pts
	}
	name := r.Env.Nodes[id]
	buf := make([]byte, 0, len(name)+8)
	pts := make([]uint32, count)
	for i := range pts {
		buf = strconv.AppendInt(append(append(buf[:0], name...), '#'), int64(i), 10)
		pts[i] = r.kc.Hash.Sum32(buf)
	}
	r.cached[id] = ringNode{count: count, pts: pts}
	return pts
}

func (r *Ring) Update(st *timeline.State) []string {
	v := r.Vnodes
	if st.VNodes > 0 {
		v = st.VNodes
	}
	return r.build(st, v)
}

// RingEntry is a point before sorting: Index is its index in "name#i".
type RingEntry struct {
	Pos   uint32
	Node  timeline.NodeID
	Index uint32
}

// build places v·weight points for every member of st.
func (r *Ring) build(st *timeline.State, v int) []string {
	r.Live = make([]bool, len(r.Env.Nodes))
	want := make([]placed, 0, len(st.Members))
	for _, m := range st.Members {
		r.Live[m.ID] = !m.Failed
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
func (r *Ring) place(want []placed) []string {
	r.pref = nil
	if r.on == nil {
		r.on = make([]int, len(r.Env.Nodes))
	}
	keep := make([]bool, len(r.Env.Nodes))
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
		changed += placer.B2i(r.on[id] > 0 && !keep[id])
		r.on[id] = 0
	}
	for _, w := range want {
		r.on[w.id] = w.count + 1
	}
	switch {
	case r.Pts == nil || 4*changed > len(want):
		return r.SetPoints(r.entries(want))
	case changed == 0:
		// Only liveness changed (a failure or a recovery): the points,
		// which are never modified in place, stay shared with the
		// steps that already hold them.
		return r.collisions()
	}
	return r.mergePoints(keep, added)
}

// entries lists every wanted point, unsorted.
func (r *Ring) entries(want []placed) []RingEntry {
	n := 0
	for _, w := range want {
		n += len(w.pts)
	}
	all := make([]RingEntry, 0, n)
	for _, w := range want {
		for i, p := range w.pts {
			all = append(all, RingEntry{p, w.id, uint32(i)})
		}
	}
	return all
}

// mergePoints keeps the points of nodes marked keep and merges in the
// added nodes' points, each node's sorted once and cached.
func (r *Ring) mergePoints(keep []bool, added []placed) []string {
	var add []RingEntry
	for _, w := range added {
		add = append(add, r.sortedOf(w)...)
	}
	if len(added) > 1 {
		slices.SortFunc(add, r.cmpEntry)
	}
	pts := make([]placer.Point, 0, len(r.Pts)+len(add))
	idx := make([]uint32, 0, cap(pts))
	a := 0
	for j, p := range r.Pts {
		if !keep[p.Node] {
			continue
		}
		e := RingEntry{p.Pos, p.Node, r.Idx[j]}
		for ; a < len(add) && r.cmpEntry(add[a], e) < 0; a++ {
			pts, idx = append(pts, placer.Point{Pos: add[a].Pos, Node: add[a].Node}), append(idx, add[a].Index)
		}
		pts, idx = append(pts, p), append(idx, e.Index)
	}
	for ; a < len(add); a++ {
		pts, idx = append(pts, placer.Point{Pos: add[a].Pos, Node: add[a].Node}), append(idx, add[a].Index)
	}
	r.Pts, r.Idx = pts, idx
	return r.collisions()
}

// sortedOf returns a node's points as entries in ring order, cached with
// its points.
func (r *Ring) sortedOf(w placed) []RingEntry {
	c := r.cached[w.id]
	if c.sorted == nil || c.count != w.count {
		c = ringNode{count: w.count, pts: w.pts}
		for i, p := range w.pts {
			c.sorted = append(c.sorted, RingEntry{p, w.id, uint32(i)})
		}
		r.sortEntries(c.sorted)
		r.cached[w.id] = c
	}
	return c.sorted
}

// cmpEntry orders points by position, then node name, then point index.
func (r *Ring) cmpEntry(a, b RingEntry) int {
	if a.Pos != b.Pos {
		return cmpU32(a.Pos, b.Pos)
	}
	if a.Node != b.Node {
		if c := strings.Compare(r.Env.Nodes[a.Node], r.Env.Nodes[b.Node]); c != 0 {
			return c
		}
	}
	return cmpU32(a.Index, b.Index)
}

// sortEntries sorts points in cmpEntry's order, the same as
// slices.SortFunc(all, r.cmpEntry) but by a radix sort of the positions
// (keys.RankBy, stable), after which only runs of equal positions, which
// are rare, are compared by node name and index: a comparison sort of
// a ring's 10⁴–10⁵ points was most of a sweep's replay.
func (r *Ring) sortEntries(all []RingEntry) {
	pos := make([]uint32, len(all))
	for i, e := range all {
		pos[i] = e.Pos
	}
	_, perm, _ := keys.RankBy(pos)
	sorted := make([]RingEntry, len(all))
	for t, i := range perm {
		sorted[t] = all[i]
	}
	for lo := 0; lo < len(sorted); {
		hi := lo + 1
		for hi < len(sorted) && sorted[hi].Pos == sorted[lo].Pos {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(sorted[lo:hi], r.cmpEntry)
		}
		lo = hi
	}
	copy(all, sorted)
}

// SetPoints sorts the points (ties by node name, then point index) and
// reports collisions. r.live must be set.
func (r *Ring) SetPoints(all []RingEntry) []string {
	r.pref = nil
	r.sortEntries(all)
	r.Pts, r.Idx = make([]placer.Point, len(all)), make([]uint32, len(all))
	for j, e := range all {
		r.Pts[j], r.Idx[j] = placer.Point{Pos: e.Pos, Node: e.Node}, e.Index
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
func (r *Ring) collisions() []string {
	n := 0
	for j := 1; j < len(r.Pts); j++ {
		if r.Pts[j].Pos == r.Pts[j-1].Pos && r.Pts[j].Node != r.Pts[j-1].Node {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return []string{strconv.Itoa(n) + " point collision(s) between nodes, resolved by node name"}
}

// Prefs returns, for every point j, the preference list of a key that
// lands on it: the first R distinct live nodes from j clockwise. The
// result is cached until the points change and must not be modified.
func (r *Ring) Prefs(R int) [][]timeline.NodeID {
	if len(r.pref) == R {
		return r.pref
	}
	if R == 1 {
		r.pref = [][]timeline.NodeID{r.owners()}
		return r.pref
	}
	P := len(r.Pts)
	out := placer.MakeLists(R, P)
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
func (r *Ring) owners() []timeline.NodeID {
	out := make([]timeline.NodeID, len(r.Pts))
	next := timeline.NoNode
	for range 2 {
		for j := len(r.Pts) - 1; j >= 0; j-- {
			if id := r.Pts[j].Node; r.Live[id] {
				next = id
			}
			out[j] = next
		}
	}
	return out
}

// walk appends to list up to R distinct live nodes met clockwise from
// point j.
func (r *Ring) walk(j, R int, list []timeline.NodeID) []timeline.NodeID {
	P := len(r.Pts)
	for s := 0; s < P && len(list) < R; s++ {
		id := r.Pts[(j+s)%P].Node
		if r.Live[id] && !slices.Contains(list, id) {
			list = append(list, id)
		}
	}
	return list
}

// Assign merges the sorted keys with the sorted points: one pass, no
// per-key search.
func (r *Ring) Assign(lists [][]timeline.NodeID) {
	pref := r.Prefs(len(lists))
	sorted := r.kc.SortedPos()
	perm, _ := r.kc.Order()
	P := len(r.Pts)
	j := 0
	for t, p := range sorted {
		i := keys.CanonicalAt(perm, t)
		for j < P && r.Pts[j].Pos < p {
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
	r.last = ringView{r.Pts, pref}
}

// Delta reports the keys of every stretch of the circle whose preference
// list changed since the last assign or delta: a merge of the old and new
// points, then a binary search in the sorted key positions for each
// changed stretch. Its cost is O(P + changed keys), not O(K).
func (r *Ring) Delta(d *placer.Delta) bool {
	if len(r.last.pref) != len(d.Lists) {
		return false
	}
	cur := ringView{r.Pts, r.Prefs(len(d.Lists))}
	sorted := r.kc.SortedPos()
	perm, _ := r.kc.Order()
	diffViews(r.last, cur, func(lo, hi uint64, _, j int) bool {
		t0, t1 := stretchRanks(sorted, lo, hi)
		for t := t0; t < t1; t++ {
			d.AddFrom(keys.CanonicalAt(perm, t), cur.pref, j)
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
		if !placer.SameLists(a.pref, ownA, b.pref, ownB) && !changed(x, end, ownA, ownB) {
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
func stretch(pts []placer.Point, i int) (end uint64, own int) {
	if i < len(pts) {
		return uint64(pts[i].Pos), i
	}
	return math.MaxUint32, 0
}

// skipTo advances i to the first point at or after x.
func skipTo(pts []placer.Point, i int, x uint64) int {
	for i < len(pts) && uint64(pts[i].Pos) < x {
		i++
	}
	return i
}

// First returns the index of the first point at or after pos, wrapping.
func (r *Ring) First(pos uint32) int {
	j, _ := slices.BinarySearchFunc(r.Pts, pos, func(p placer.Point, t uint32) int { return cmpU32(p.Pos, t) })
	if j == len(r.Pts) {
		j = 0
	}
	return j
}

func (r *Ring) Probe(key string, R int) (uint64, []timeline.NodeID) {
	pos := r.kc.Hash.Sum32([]byte(key))
	return uint64(pos), r.walk(r.First(pos), R, nil)
}

// Geometry returns the points alone: the arcs follow from them and the
// step's live members (placer.RingArcs, through Result.Arcs), and a hundred
// steps of 16,000 points would otherwise keep 13 MB of arcs per rule
// until the figures are drawn.
func (r *Ring) Geometry() ([]placer.Arc, []placer.Point) { return nil, r.Pts }

func (r *Ring) Order() []uint32 {
	_, rank := r.kc.Order()
	return rank
}
