package ceph_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/ceph"
)

// cluster returns 3 zones × 2 racks × 2 hosts × 2 OSDs with unequal
// weights 1–5, OSD ids 0–23 in server order.
func cluster() []profile.Server {
	var ss []profile.Server
	for z := range 3 {
		for r := range 2 {
			for h := range 2 {
				for o := range 2 {
					i := len(ss)
					zone, rack := fmt.Sprintf("z%c", 'a'+z), fmt.Sprintf("r%d", r+1)
					ss = append(ss, profile.Server{
						Name:   fmt.Sprintf("%s-%s-h%d/osd.%d", zone, rack, h+1, i),
						Weight: 1 + (i*7+o)%5,
						Zone:   zone,
						Rack:   zone + "-" + rack,
					})
				}
			}
		}
	}
	return ss
}

// build builds a placement of the package's own rule type.
func build(t *testing.T, o ceph.Options, ln *ceph.LnTable, ss []profile.Server, prev *ceph.Placement) *ceph.Placement {
	t.Helper()
	r, err := ceph.NewWithLn(o, ln)
	if err != nil {
		t.Fatal(err)
	}
	var pp profile.Placement
	if prev != nil {
		pp = prev
	}
	p, err := r.Build(ss, pp)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*ceph.Placement)
}

// sameMap fails the test unless crushtool compiled the package's map
// text into the package's map: ids, types, items in order and weights.
func sameMap(t *testing.T, mine, theirs *ceph.Map) {
	t.Helper()
	if mine.MaxDevices != theirs.MaxDevices || len(mine.Buckets) != len(theirs.Buckets) {
		t.Fatalf("map sizes: package %d devices %d buckets, crushtool %d, %d",
			mine.MaxDevices, len(mine.Buckets), theirs.MaxDevices, len(theirs.Buckets))
	}
	for i, a := range mine.Buckets {
		b := theirs.Buckets[i]
		if (a == nil) != (b == nil) {
			t.Fatalf("bucket %d exists in one map only", -1-i)
		}
		if a != nil && (a.ID != b.ID || a.Type != b.Type || !slices.Equal(a.Items, b.Items) || !slices.Equal(a.Weights, b.Weights)) {
			t.Fatalf("bucket %d: package %+v, crushtool %+v", -1-i, *a, *b)
		}
	}
}

// TestHierarchy is story (d): root → zone → rack → host → osd, unequal
// weights, rules with chooseleaf type host, rack and zone, all OSDs in
// and then two out; 1,024 CRUSH inputs each, and the placement seeds of
// every PG of pool 1 (crushtool --pool-id hashes x with the pool as
// hashpspool does).
func TestHierarchy(t *testing.T) {
	t.Parallel()
	crushtool, _ := tools(t)
	dir := t.TempDir()
	const n = 1024
	for _, fd := range []string{"host", "rack", "zone"} {
		ss := cluster()
		o := ceph.Options{FailureDomain: fd}
		p := build(t, o, nil, ss, nil)
		bin, compiled := compile(t, crushtool, dir, fd, p.CrushText())
		sameMap(t, p.Map(), compiled)
		down := slices.Clone(ss)
		down[5].Down, down[17].Down = true, true
		pd := build(t, o, nil, down, p)
		out := []string{"--weight", "5", "0", "--weight", "17", "0"}
		for _, c := range []struct {
			label string
			ss    []profile.Server
			p     *ceph.Placement
			extra []string
		}{{fd, ss, p, nil}, {fd + ", osd.5 and osd.17 out", down, pd, out}} {
			want := mappings(t, crushtool, bin, 3, n, c.extra...)
			agreement(t, "(d) chooseleaf type "+c.label, want, func(ln *ceph.LnTable, x int) []int32 {
				return withLn(c.p.Map(), ln).ChooseLeaf(-1, c.p.LeafType(), uint32(x), 3, c.p.Reweight(), nil)
			})
			pgs := ceph.DefaultPGNum
			want = mappings(t, crushtool, bin, 3, pgs, append([]string{"--pool-id", "1"}, c.extra...)...)
			pl := build(t, o, productLn(t), c.ss, nil)
			agreement(t, "(d) PGs of pool 1, "+c.label, want, func(ln *ceph.LnTable, seed int) []int32 {
				if ln != nil {
					return pl.Acting(seed, 3, nil)
				}
				return c.p.Acting(seed, 3, nil)
			})
		}
	}
}
