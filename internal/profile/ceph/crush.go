package ceph

import (
	"fmt"
	"math"
)

// Ceph's default CRUSH type ids (CrushWrapper's default type map in
// 16.2.15: osd 0, host 1, chassis 2, rack 3, row 4, pdu 5, pod 6, room 7,
// datacenter 8, zone 9, region 10, root 11). Only equality of types
// matters to CRUSH; these are the ids a real cluster's map carries.
const (
	TypeOSD  = 0
	TypeHost = 1
	TypeRack = 3
	TypeZone = 9
	TypeRoot = 11
)

// The optimal tunables of Ceph 16.2.15 (crushtool --build and every new
// cluster): the only ones this package implements. ChooseTotalTries counts
// descents the way the map stores it; CRUSH makes one more attempt than
// that (crush_do_rule's "off by one" fix).
const (
	ChooseTotalTries      = 50
	ChooseLocalTries      = 0
	ChooseLocalFallback   = 0
	ChooseleafDescendOnce = 1
	ChooseleafVaryR       = 1
	ChooseleafStable      = 1
)

// WeightOne is CRUSH weight 1.0 in its 16.16 fixed point; it is also the
// reweight of an OSD that is fully in.
const WeightOne = 0x10000

// A Bucket is one straw2 bucket (alg straw2, hash rjenkins1, the only
// kind this package implements).
type Bucket struct {
	// ID is the bucket's id, negative: bucket -1-i is Map.Buckets[i].
	ID int32
	// Name is the bucket's name in the map, e.g. "host0".
	Name string
	// Type is the bucket's type id (TypeHost, TypeRack, …).
	Type int32
	// Items are the ids of the bucket's children in the bucket's order
	// (devices ≥ 0, buckets < 0); a tie between straws goes to the first.
	Items []int32
	// Weights are the children's CRUSH weights in 16.16 fixed point, in
	// Items order; a bucket child's weight is the sum of its own.
	Weights []uint32
}

// Weight returns the bucket's weight, the sum of its items' weights.
func (b *Bucket) Weight() uint32 {
	var s uint32
	for _, w := range b.Weights {
		s += w
	}
	return s
}

// straw2 is bucket_straw2_choose: every item with a non-zero weight draws
// ln(hash(x, id, r) & 0xffff) / weight, the highest draw wins, and the
// first of equal draws wins.
func (b *Bucket) straw2(ln *[1 << 16]int64, x uint32, r int) int32 {
	high := 0
	var highDraw int64
	for i, id := range b.Items {
		draw := int64(math.MinInt64)
		if w := b.Weights[i]; w != 0 {
			u := Hash32x3(x, uint32(id), uint32(r)) & 0xffff
			draw = ln[u] / int64(w) // div64_s64: truncates toward zero
		}
		if i == 0 || draw > highDraw {
			high, highDraw = i, draw
		}
	}
	return b.Items[high]
}

// A Map is a CRUSH map of straw2 buckets with the optimal tunables.
type Map struct {
	// Buckets holds bucket -1-i at index i; nil marks an unused id.
	Buckets []*Bucket
	// MaxDevices is one more than the highest device id the map may hold.
	MaxDevices int32
	// Ln is the crush_ln the straw2 draws use; nil means CephLn().
	Ln *LnTable
}

// draws returns the straw2 numerators of the map's crush_ln.
func (m *Map) draws() *[1 << 16]int64 {
	if m.Ln != nil {
		return &m.Ln.draws
	}
	return &CephLn().draws
}

// bucket returns the bucket of a negative id, or nil.
func (m *Map) bucket(id int32) *Bucket {
	i := -1 - int(id)
	if id >= 0 || i >= len(m.Buckets) {
		return nil
	}
	return m.Buckets[i]
}

// Check reports the first inconsistency that would make Map unusable: an
// item that is neither a device below MaxDevices nor a bucket of the map,
// mismatched Items and Weights, a bucket at the wrong index.
func (m *Map) Check() error {
	for i, b := range m.Buckets {
		if b == nil {
			continue
		}
		if b.ID != int32(-1-i) {
			return fmt.Errorf("bucket %q has id %d but sits at index %d (want id %d)", b.Name, b.ID, i, -1-i)
		}
		if len(b.Items) != len(b.Weights) {
			return fmt.Errorf("bucket %q has %d items but %d weights", b.Name, len(b.Items), len(b.Weights))
		}
		for _, it := range b.Items {
			if it >= m.MaxDevices || (it < 0 && m.bucket(it) == nil) {
				return fmt.Errorf("bucket %q holds item %d, which is no device or bucket of the map", b.Name, it)
			}
		}
	}
	return nil
}

// isOut is CRUSH's is_out: a device beyond the reweight vector, or of
// reweight 0, is out; one of reweight ≥ 1.0 is in; in between, input x
// keeps it with probability reweight/0x10000, decided by hash(x, osd).
func isOut(reweight []uint32, item int32, x uint32) bool {
	if int(item) >= len(reweight) {
		return true
	}
	w := reweight[item]
	switch {
	case w >= WeightOne:
		return false
	case w == 0:
		return true
	}
	return Hash32x2(x, uint32(item))&0xffff >= w
}

// ChooseLeaf runs the rule
//
//	step take <take>
//	step chooseleaf firstn 0 type <leafType>
//	step emit
//
// for CRUSH input x and numrep results (the pool size; "firstn 0" means as
// many as the caller asks for), with the optimal tunables, and appends the
// chosen devices to out, primary first. reweight is the OSD reweight
// vector indexed by device id (WeightOne in, 0 out). Fewer than numrep
// devices come back when CRUSH gives up on a replica after its tries.
//
// This is crush_do_rule restricted to that rule shape. It allocates
// nothing when numrep ≤ 16 and out has capacity.
func (m *Map) ChooseLeaf(take int32, leafType int32, x uint32, numrep int, reweight []uint32, out []int32) []int32 {
	var reps [16]int32
	rs := reps[:0]
	if numrep > len(reps) {
		rs = make([]int32, 0, numrep)
	}
	rs = m.chooseLeafReps(take, leafType, x, numrep, reweight, rs[:numrep])
	for _, d := range rs {
		if d != none {
			out = append(out, d)
		}
	}
	return out
}

// none marks a replica position CRUSH skipped (CRUSH_ITEM_NONE).
const none int32 = 0x7fffffff

// chooseLeafReps fills reps[i] with the device replica i lands on, or none
// when CRUSH gave up on it; reps has length numrep. Position i of a result
// does not depend on numrep as long as numrep > i, which is what lets a
// placement cache one result and serve every smaller pool size.
func (m *Map) chooseLeafReps(take int32, leafType int32, x uint32, numrep int, reweight []uint32, reps []int32) []int32 {
	for i := range reps {
		reps[i] = none
	}
	root := m.bucket(take)
	if root == nil || numrep <= 0 {
		return reps
	}
	var outer, leaves [16]int32
	o, l := outer[:], leaves[:]
	if numrep > len(outer) {
		o, l = make([]int32, numrep), make([]int32, numrep)
	}
	c := chooser{m: m, ln: m.draws(), w: reweight, x: x, reps: reps}
	// choose_total_tries + 1 descents per replica; chooseleaf_descend_once
	// gives the nested leaf search a single attempt.
	const leafTries = 1
	c.firstN(root, numrep, leafType, o, 0, numrep, ChooseTotalTries+1, leafTries, true, l, 0)
	return reps
}

// chooser carries what every level of one crush_choose_firstn recursion
// shares.
type chooser struct {
	m    *Map
	ln   *[1 << 16]int64
	w    []uint32
	x    uint32
	reps []int32 // the top level records each replica's device here
}

// firstN is crush_choose_firstn with the optimal tunables (no local
// retries, no fallback permutation; vary_r 1 and stable 1, so that a
// nested leaf search always runs one replica with r of its parent). It
// chooses up to numrep distinct items of type typ below b into out from
// position outpos, and, with leaf set, one device below each into out2.
// It returns the new outpos.
func (c *chooser) firstN(b *Bucket, numrep int, typ int32, out []int32, outpos, count, tries, leafTries int, leaf bool, out2 []int32, parentR int) int {
	for rep := 0; rep < numrep && count > 0; rep++ {
		item, ok := c.oneRep(b, rep, typ, out, outpos, count, tries, leafTries, leaf, out2, parentR)
		if !ok {
			continue
		}
		out[outpos] = item
		if leaf && c.reps != nil {
			c.reps[rep] = out2[outpos]
		}
		outpos++
		count--
	}
	return outpos
}

// oneRep makes the attempts of one replica rep: it descends from b with
// r = rep + parentR + ftotal, retrying from b after each rejection
// (collision, out device, or no leaf below) until tries attempts are
// spent. It returns the item chosen, or false when the replica is skipped.
func (c *chooser) oneRep(b *Bucket, rep int, typ int32, out []int32, outpos, count, tries, leafTries int, leaf bool, out2 []int32, parentR int) (int32, bool) {
	for ftotal := 0; ; {
		r := rep + parentR + ftotal
		item, ok, bad := c.descend(b, typ, r)
		if bad {
			return 0, false
		}
		if ok {
			ok = c.accept(item, typ, r, out, outpos, count, leafTries, leaf, out2)
		}
		if ok {
			return item, true
		}
		ftotal++
		if ftotal >= tries {
			return 0, false
		}
	}
}

// descend walks from b down through buckets of other types until it
// reaches an item of type typ, choosing with (x, r) at each level. ok is
// false when it met an empty bucket (a rejection, retried); bad is true
// when the walk hit a device or an unknown id before type typ (the replica
// is skipped without retry, as CRUSH does).
func (c *chooser) descend(b *Bucket, typ int32, r int) (item int32, ok, bad bool) {
	in := b
	for {
		if len(in.Items) == 0 {
			return 0, false, false
		}
		item = in.straw2(c.ln, c.x, r)
		if item >= c.m.MaxDevices {
			return 0, false, true
		}
		if item >= 0 {
			if typ == TypeOSD {
				return item, true, false
			}
			return 0, false, true
		}
		child := c.m.bucket(item)
		if child == nil {
			return 0, false, true
		}
		if child.Type == typ {
			return item, true, false
		}
		in = child
	}
}

// accept decides whether a candidate item of the wanted type is kept: it
// must not collide with an item already chosen at this level, a chooseleaf
// must find a device below it in one nested attempt, and a device must not
// be out.
func (c *chooser) accept(item, typ int32, r int, out []int32, outpos, count, leafTries int, leaf bool, out2 []int32) bool {
	for _, o := range out[:outpos] {
		if o == item {
			return false
		}
	}
	if leaf {
		if item < 0 {
			// chooseleaf_stable: one replica, rep 0; vary_r 1: its r is
			// the parent's r (r >> (vary_r-1)).
			sub := chooser{m: c.m, ln: c.ln, w: c.w, x: c.x}
			if sub.firstN(c.m.bucket(item), 1, TypeOSD, out2, outpos, count, leafTries, 0, false, nil, r) <= outpos {
				return false
			}
		} else {
			out2[outpos] = item
		}
	}
	if typ == TypeOSD {
		return !isOut(c.w, item, c.x)
	}
	return true
}
