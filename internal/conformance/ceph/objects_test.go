package ceph_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/ceph"
)

// keys returns 1,200 object names: plain, hash-tagged, CJK, emoji,
// combining marks, right-to-left scripts, invalid UTF-8, RBD-style and 1-
// to 200-byte names. Ceph refuses an empty name and argv cannot carry
// NUL, so neither is among them.
func keys() []string {
	kinds := []func(i int) string{
		func(i int) string { return fmt.Sprintf("user:%d", i) },
		func(i int) string { return fmt.Sprintf("{user%d}.x%d", i%37, i) },
		func(i int) string { return fmt.Sprintf("用户-%d-数据", i) },
		func(i int) string { return fmt.Sprintf("🔑%d🚀", i) },
		func(i int) string { return fmt.Sprintf("cafe\u0301-%d", i) },
		func(i int) string { return fmt.Sprintf("مستخدم-%d", i) },
		func(i int) string { return fmt.Sprintf("שלום\u200f%d", i) },
		func(i int) string { return fmt.Sprintf("\xff\xfe%d\x80", i) },
		func(i int) string { return fmt.Sprintf("rbd_data.1f2a3b.%016x", i) },
		func(i int) string {
			n := 1 + (i*37)%200
			return strings.Repeat(strconv.FormatInt(int64(i), 36)+"-", 200)[:n]
		},
	}
	if len(kinds) != nameKinds {
		panic("keys: nameKinds is not the number of kinds")
	}
	ks := make([]string, 0, 1200)
	for i := 0; len(ks) < cap(ks); i++ {
		ks = append(ks, kinds[i%len(kinds)](i))
	}
	return ks
}

// nameKinds is how many kinds of name keys cycles through: names i and
// i+nameKinds are of the same kind.
const nameKinds = 10

// storyServers is the story's first membership: 2 zones × 2 racks × 2
// hosts × 2 OSDs, weights 1–4.
func storyServers() []profile.Server {
	var ss []profile.Server
	for i := range 16 {
		zone := fmt.Sprintf("z%c", 'a'+i/8)
		rack := fmt.Sprintf("%s-r%d", zone, 1+i/4%2)
		ss = append(ss, profile.Server{
			Name:   fmt.Sprintf("h%d/osd.%d", 1+i/2, i),
			Weight: 1 + i*5%4,
			Zone:   zone,
			Rack:   rack,
		})
	}
	return ss
}

// pgDumpRE matches a line of `osdmaptool --test-map-pgs-dump`.
var pgDumpRE = regexp.MustCompile(`^(\d+)\.([0-9a-f]+)\s+\[([0-9,]*)\]\s+(-?\d+)`)

// pgDump imports the compiled CRUSH map crush into the OSD map om and
// returns every PG's acting set from osdmaptool, checking that the
// primary column is the first OSD (no primary affinity). One process does
// both, and writes om back with the new map and every OSD up and in (out
// marked out): callers pass each step its own copy of the map (stepMap).
func pgDump(t *testing.T, osdmaptool, om, crush string, pgs int, out int) [][]int32 {
	t.Helper()
	args := []string{om, "--import-crush", crush, "--mark-up-in"}
	if out >= 0 {
		args = append(args, "--mark-out", strconv.Itoa(out))
	}
	args = append(args, "--test-map-pgs-dump", "--pool", "1")
	acting := make([][]int32, pgs)
	seen := 0
	for _, line := range strings.Split(lab.Run(t, osdmaptool, args...), "\n") {
		m := pgDumpRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		seed, _ := strconv.ParseInt(m[2], 16, 32)
		l := parseList(t, m[3])
		primary, _ := strconv.Atoi(m[4])
		if len(l) > 0 && int32(primary) != l[0] {
			t.Fatalf("PG %s.%s: primary %d is not the first of %v", m[1], m[2], primary, l)
		}
		acting[seed] = l
		seen++
	}
	if seen != pgs {
		t.Fatalf("osdmaptool dumped %d PGs, want %d", seen, pgs)
	}
	return acting
}

// newOSDMap makes an OSD map of 32 OSDs and pool 1 'rbd' (replicated,
// size 3, hashpspool) with pg_num 32<<pgBits and pgp_num 32<<pgpBits.
func newOSDMap(t *testing.T, osdmaptool, dir string, pgBits, pgpBits int) string {
	t.Helper()
	om := filepath.Join(dir, fmt.Sprintf("osdmap-%d-%d.bin", pgBits, pgpBits))
	pr := lab.Run(t, osdmaptool, "--createsimple", "32", "--with-default-pool", "--pg-bits", strconv.Itoa(pgBits),
		"--pgp-bits", strconv.Itoa(pgpBits), "--clobber", om, "--print")
	want := fmt.Sprintf("pg_num %d pgp_num %d", 32<<pgBits, 32<<pgpBits)
	if !strings.Contains(pr, want) || !strings.Contains(pr, "hashpspool") {
		t.Fatalf("osdmaptool made no pool with %s and hashpspool:\n%s", want, pr)
	}
	return om
}

// stepMap copies the OSD map om to a file of step's own in dir, for
// pgDump to change.
func stepMap(t *testing.T, om, dir string, step int) string {
	t.Helper()
	b, err := os.ReadFile(om)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, fmt.Sprintf("osdmap-step%d.bin", step))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// objectRE matches `osdmaptool --test-map-object`'s answer.
var objectRE = regexp.MustCompile(` -> (\d+\.[0-9a-f]+) -> \[([0-9,]*)\]\s*$`)

// mapObjects asks osdmaptool for the PG and acting set of each name, two
// at a time.
func mapObjects(t *testing.T, osdmaptool, om string, out int, names []string) (pgs []string, acting [][]int32) {
	t.Helper()
	pgs, acting = make([]string, len(names)), make([][]int32, len(names))
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	for range 2 {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(names) {
					return
				}
				args := []string{om, "--mark-up-in"}
				if out >= 0 {
					args = append(args, "--mark-out", strconv.Itoa(out))
				}
				res := lab.Run(t, osdmaptool, append(args, "--test-map-object", names[i], "--pool", "1")...)
				m := objectRE.FindStringSubmatch(strings.TrimSpace(res))
				if m == nil {
					t.Errorf("osdmaptool --test-map-object %q printed %q", names[i], res)
					continue
				}
				pgs[i], acting[i] = m[1], parseList(t, m[2])
			}
		})
	}
	wg.Wait()
	return pgs, acting
}

// TestObjectVectors checks the object → PG vectors of
// production-rules.md §10 (Debian 16.2.15 osdmaptool, pool 1 'rbd' with
// pg_num = pgp_num = 48): 'foo' → 1.6, 'bar' → 1.b, 'key1' → 1.2a, both
// against the package and against osdmaptool itself.
func TestObjectVectors(t *testing.T) {
	t.Parallel()
	_, osdmaptool := tools(t)
	om := filepath.Join(t.TempDir(), "om48.bin")
	lab.Run(t, osdmaptool, "--createsimple", "6", "--with-default-pool", "--pg-bits", "3", "--pgp-bits", "3", om)
	r, err := ceph.New(ceph.Options{PGNum: 48})
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build([]profile.Server{{Name: "osd.0", Weight: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"foo", "bar", "key1"}
	pgs, _ := mapObjects(t, osdmaptool, om, -1, names)
	for i, want := range []string{"1.6", "1.b", "1.2a"} {
		pool, seed := p.(*ceph.Placement).PG(r.Hash([]byte(names[i])))
		if got := ceph.FormatPG(pool, seed); got != want || pgs[i] != want {
			t.Errorf("%q: package %s, osdmaptool %s, want %s", names[i], got, pgs[i], want)
		}
	}
}

// A storyStep is one membership change of TestObjects.
type storyStep struct {
	note   string
	change func(ss []profile.Server) []profile.Server
}

// TestObjects is story (e): object names → PG → OSDs against osdmaptool,
// over a membership that grows, changes weights, loses a host and an
// OSD and marks an OSD down (out). Every step compares all 128 PGs of
// pool 1 and the acting set of each of 1,200 names; the first and the
// last step also ask osdmaptool for the PG and acting set of one name of
// each kind directly, the first step the first name of each kind, the
// last step the second (TestNameHashes checks every name's hash).
func TestObjects(t *testing.T) {
	t.Parallel()
	crushtool, osdmaptool := tools(t)
	dir := t.TempDir()
	om := newOSDMap(t, osdmaptool, dir, 2, 2)
	ks := keys()
	steps := []storyStep{
		{"16 OSDs in 8 hosts, 4 racks, 2 zones", func(ss []profile.Server) []profile.Server { return storyServers() }},
		{"add osd.16 to h8 and a host h9 of two unnumbered OSDs", func(ss []profile.Server) []profile.Server {
			return append(ss, profile.Server{Name: "h8/osd.16", Weight: 2, Zone: "zb", Rack: "zb-r2"},
				profile.Server{Name: "h9/disk-a", Weight: 3, Zone: "zb", Rack: "zb-r2"},
				profile.Server{Name: "h9/disk-b", Weight: 1, Zone: "zb", Rack: "zb-r2"})
		}},
		{"weights: osd.3 to 1, osd.9 to 6", func(ss []profile.Server) []profile.Server {
			ss[3].Weight, ss[9].Weight = 1, 6
			return ss
		}},
		{"remove host h3 (osd.4, osd.5) and add h10/new-disk, which takes id 4", func(ss []profile.Server) []profile.Server {
			ss = append(ss[:4:4], ss[6:]...)
			return append(ss, profile.Server{Name: "h10/new-disk", Weight: 2, Zone: "za", Rack: "za-r1"})
		}},
		{"osd.10 down (out)", func(ss []profile.Server) []profile.Server {
			ss[8].Down = true // osd.10, after the removal of osd.4 and osd.5
			return ss
		}},
	}
	var ss []profile.Server
	var shipped, product, prev *ceph.Placement
	var prevActing [][]int32
	for i, st := range steps {
		ss = st.change(append([]profile.Server(nil), ss...))
		prev = shipped
		shipped = build(t, ceph.Options{}, nil, ss, shipped)
		product = build(t, ceph.Options{}, productLn(t), ss, product)
		checkIDs(t, i, ss, shipped)
		out := -1
		for j, s := range ss {
			if s.Down {
				out = shipped.OSD(j)
			}
		}
		label := fmt.Sprintf("(e) step %d, %s", i, st.note)
		bin, compiled := compile(t, crushtool, dir, fmt.Sprintf("step%d", i), shipped.CrushText())
		sameMap(t, shipped.Map(), compiled)
		som := stepMap(t, om, dir, i)
		acting := pgDump(t, osdmaptool, som, bin, ceph.DefaultPGNum, out)
		agreement(t, label+": PGs", acting, func(ln *ceph.LnTable, seed int) []int32 {
			return pick(shipped, product, ln).Acting(seed, 3, nil)
		})
		want := make([][]int32, len(ks))
		for k, key := range ks {
			want[k] = acting[shipped.Seed(uint64(ceph.StrHash([]byte(key))))]
		}
		agreement(t, label+": objects", want, func(ln *ceph.LnTable, k int) []int32 {
			return ownerOSDs(pick(shipped, product, ln), ks[k])
		})
		if i == 0 || i == len(steps)-1 {
			sample := ks[:nameKinds] // one name of each kind
			if i > 0 {
				sample = ks[nameKinds : 2*nameKinds]
			}
			checkObjects(t, osdmaptool, som, out, shipped, sample)
		}
		if prev != nil {
			checkDiff(t, label, prev, shipped, prevActing, acting)
		}
		prevActing = acting
	}
}

// checkIDs checks the ids the story's steps promise: unnumbered OSDs get
// the lowest free id, and a bucket keeps its id while it exists.
func checkIDs(t *testing.T, step int, ss []profile.Server, p *ceph.Placement) {
	t.Helper()
	want := map[string]int{"h9/disk-a": 17, "h9/disk-b": 18, "h10/new-disk": 4}
	for i, s := range ss {
		if id, ok := want[s.Name]; ok && p.OSD(i) != id {
			t.Errorf("step %d: %s is osd.%d, want osd.%d", step, s.Name, p.OSD(i), id)
		}
		if s.Down && s.Name != "h6/osd.10" {
			t.Errorf("step %d: %s is down; the story downs h6/osd.10", step, s.Name)
		}
	}
	ids := map[string]int32{}
	for _, b := range p.Map().Buckets {
		if b != nil {
			ids[b.Name] = b.ID
		}
	}
	// Buckets come into being bottom-up in server order: h1 -2, za-r1 -3,
	// za -4, h2 -5, h3 -6, za-r2 -7, …; h9 is new in step 1 and keeps -16
	// when h3 goes in step 3; h10 then takes the lowest free id, h3's -6.
	checks := map[string]int32{"default": -1, "h1": -2, "za-r1": -3, "za": -4, "h2": -5}
	if step >= 1 {
		checks["h9"] = -16
	}
	if step >= 3 {
		checks["h10"] = -6
	}
	for name, id := range checks {
		if ids[name] != id {
			t.Errorf("step %d: bucket %s has id %d, want %d", step, name, ids[name], id)
		}
	}
}

// checkDiff counts, from osdmaptool's dumps, the PGs a step remapped,
// re-primaried only, or reordered only, and compares with ceph.Diff.
func checkDiff(t *testing.T, label string, a, b *ceph.Placement, before, after [][]int32) {
	t.Helper()
	got, err := ceph.Diff(a, b, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := ceph.PGDiff{PGs: len(before)}
	for pg := range before {
		x, y := before[pg], after[pg]
		switch {
		case !sameSet(x, y):
			want.Remapped++
		case len(x) > 0 && x[0] != y[0]:
			want.PrimaryOnly++
		case !eq(x, y):
			want.Reordered++
		}
	}
	if got != want {
		t.Errorf("%s: ceph.Diff %+v, osdmaptool's dumps %+v", label, got, want)
	}
	t.Logf("%s: %d/%d PGs remapped, %d primary only, %d reordered", label, got.Remapped, got.PGs, got.PrimaryOnly, got.Reordered)
}

// sameSet reports whether two OSD lists hold the same OSDs.
func sameSet(x, y []int32) bool {
	a, b := slices.Clone(x), slices.Clone(y)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// ownerOSDs returns the OSD ids of an object's owners for a pool of size
// 3: StrHash (what Rule.Hash returns), then Owners.
func ownerOSDs(p *ceph.Placement, name string) []int32 {
	osds := []int32{}
	for _, s := range p.Owners(uint64(ceph.StrHash([]byte(name))), 3, nil) {
		osds = append(osds, int32(p.OSD(s)))
	}
	return osds
}

// pick returns the placement computed with ln: the product's tables or
// the shipped ones.
func pick(shipped, product *ceph.Placement, ln *ceph.LnTable) *ceph.Placement {
	if ln != nil {
		return product
	}
	return shipped
}

// checkObjects asks osdmaptool for the PG and acting set of each of names
// (a sample of one name of each kind: keys cycles through its kinds) and
// compares both with the package's: this checks, end to end through
// osdmaptool, the name hash and the PG reduction that the bulk comparison
// computes with the package. TestNameHashes checks the hash of every
// name, in one process; osdmaptool takes one name per process (about 15
// CPU-ms each, most of it loading libceph-common), so this is kept to a
// sample that covers every kind at each of the two steps, and 20 names
// over both: the kind decides the bytes argv carries to the hash; with
// pg_num 128 every hash takes the same reduction (a mask), and the
// acting sets of all 1,200 names are compared at every step.
func checkObjects(t *testing.T, osdmaptool, om string, out int, p *ceph.Placement, names []string) {
	t.Helper()
	pgs, acting := mapObjects(t, osdmaptool, om, out, names)
	bad := 0
	for i, name := range names {
		pg := ceph.FormatPG(p.PG(uint64(ceph.StrHash([]byte(name)))))
		osds := ownerOSDs(p, name)
		if pg != pgs[i] || !eq(osds, acting[i]) {
			bad++
			if bad <= 5 {
				t.Errorf("object %q: package %s %v, osdmaptool %s %v", name, pg, osds, pgs[i], acting[i])
			}
		}
	}
	t.Logf("osdmaptool --test-map-object: %d/%d names (one of each of %d kinds) agree on PG and acting set", len(names)-bad, len(names), nameKinds)
}

// TestNameHashes checks ceph.StrHash against Ceph's own
// ceph_str_hash_rjenkins, called in the libceph-common.so.2 that
// osdmaptool links by testdata/strhash.c, for every name of keys.
func TestNameHashes(t *testing.T) {
	t.Parallel()
	ks := keys()
	got := productStrHashes(t, ks)
	bad := 0
	for i, k := range ks {
		if want := ceph.StrHash([]byte(k)); got[i] != want {
			if bad++; bad <= 5 {
				t.Errorf("name %q: StrHash %d, ceph_str_hash_rjenkins %d", k, want, got[i])
			}
		}
	}
	t.Logf("ceph_str_hash_rjenkins: %d/%d names agree", len(ks)-bad, len(ks))
}

// TestPGPNum: pool 1 with pg_num 128 but pgp_num 64, so that PGs 1.x and
// 1.(x+64) share a placement seed; every PG and every name against
// osdmaptool.
func TestPGPNum(t *testing.T) {
	t.Parallel()
	crushtool, osdmaptool := tools(t)
	dir := t.TempDir()
	om := newOSDMap(t, osdmaptool, dir, 2, 1)
	o := ceph.Options{PGPNum: 64}
	ss := storyServers()
	shipped, product := build(t, o, nil, ss, nil), build(t, o, productLn(t), ss, nil)
	bin, compiled := compile(t, crushtool, dir, "pgp", shipped.CrushText())
	sameMap(t, shipped.Map(), compiled)
	acting := pgDump(t, osdmaptool, om, bin, ceph.DefaultPGNum, -1)
	agreement(t, "pgp_num 64: PGs", acting, func(ln *ceph.LnTable, seed int) []int32 {
		return pick(shipped, product, ln).Acting(seed, 3, nil)
	})
	for seed := range 64 {
		if !eq(acting[seed], acting[seed+64]) {
			t.Errorf("PGs 1.%x and 1.%x differ (%v, %v) with pgp_num 64", seed, seed+64, acting[seed], acting[seed+64])
		}
	}
	ks := keys()
	want := make([][]int32, len(ks))
	for k, key := range ks {
		want[k] = acting[shipped.Seed(uint64(ceph.StrHash([]byte(key))))]
	}
	agreement(t, "pgp_num 64: objects", want, func(ln *ceph.LnTable, k int) []int32 {
		return ownerOSDs(pick(shipped, product, ln), ks[k])
	})
}
