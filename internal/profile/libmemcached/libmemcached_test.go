package libmemcached

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// fixturePool is the pool of libmemcached 1.1.4's
// test/tests/memcached/ketama.cpp: "10.0.1.1:11211 600,…,10.0.1.8:11211 100".
var fixturePool = []profile.Server{
	{Name: "10.0.1.1:11211", Weight: 600}, {Name: "10.0.1.2:11211", Weight: 300},
	{Name: "10.0.1.3:11211", Weight: 200}, {Name: "10.0.1.4:11211", Weight: 350},
	{Name: "10.0.1.5:11211", Weight: 1000}, {Name: "10.0.1.6:11211", Weight: 800},
	{Name: "10.0.1.7:11211", Weight: 950}, {Name: "10.0.1.8:11211", Weight: 100},
}

func build(t *testing.T, o Options, servers []profile.Server) (profile.Rule, *placement) {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build(servers, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r, p.(*placement)
}

func owner(r profile.Rule, p profile.Placement, key string) int {
	o := p.Owners(r.Hash([]byte(key)), 1, nil)
	if len(o) == 0 {
		return -1
	}
	return o[0]
}

// TestHashkitVectors checks every libhashkit function against
// test/fixtures/hashes.hpp of libmemcached 1.1.4.
func TestHashkitVectors(t *testing.T) {
	for _, name := range hashNames {
		f, _ := HashByName(name)
		want := hashOutputs[name]
		for i, in := range hashInputs {
			if got := f([]byte(in)); got != want[i] {
				t.Errorf("%s(%q) = %d, want %d", name, in, got, want[i])
			}
		}
	}
}

// TestKetamaFixture reproduces libmemcached 1.1.4's own ketama test
// (test/tests/memcached/ketama.cpp with test/fixtures/ketama.hpp): 99 keys
// over the 8-server weighted pool, key hash and owner, and the key
// "VDEAAAAA", whose hash 0xfffcd1b5 lies past the last point and wraps.
func TestKetamaFixture(t *testing.T) {
	for _, tc := range []struct {
		mode  string
		cases []ketamaCase
	}{{ModeWeighted, ketamaCases}, {ModeSpy, ketamaCasesSpy}} {
		r, p := build(t, Options{Mode: tc.mode}, fixturePool)
		for _, c := range tc.cases {
			if h := r.Hash([]byte(c.key)); h != uint64(c.hash1) {
				t.Errorf("%s: hash(%q) = %d, want %d", tc.mode, c.key, h, c.hash1)
			}
			got := fixturePool[owner(r, p, c.key)].Name
			if got != c.server+":11211" {
				t.Errorf("%s: %q → %s, want %s", tc.mode, c.key, got, c.server)
			}
		}
		if h := r.Hash([]byte("VDEAAAAA")); h != 0xfffcd1b5 {
			t.Errorf("hash(VDEAAAAA) = %#x", h)
		}
		if got, want := owner(r, p, "VDEAAAAA"), int(p.idx[0]); got != want || p.vals[len(p.vals)-1] >= 0xfffcd1b5 {
			t.Errorf("%s: VDEAAAAA → %d, want the first point's server %d", tc.mode, got, want)
		}
	}
}

// TestFixturePointValues checks the weighted fixture's hash2 column, the
// continuum value each key lands on (the spy table repeats it unchanged,
// so it is not the spy continuum's).
func TestFixturePointValues(t *testing.T) {
	r, p := build(t, Options{}, fixturePool)
	for _, c := range ketamaCases {
		h := r.Hash([]byte(c.key))
		i := 0
		for i < len(p.vals) && uint64(p.vals[i]) < h {
			i++
		}
		if p.vals[i%len(p.vals)] != c.hash2 {
			t.Errorf("%q lands on point %d, want %d", c.key, p.vals[i%len(p.vals)], c.hash2)
		}
	}
}

// TestWeightedHashes checks the single-precision point count: 40 digests
// per equal server except where float rounding gives 39.
func TestWeightedHashes(t *testing.T) {
	for _, n := range []int{1, 2, 4, 24, 25, 47, 50, 55, 61, 71, 94, 100} {
		want := 40
		if n >= 25 {
			want = 39
		}
		if got := WeightedHashes(1, uint64(n), n); got != want {
			t.Errorf("n = %d: %d hashes, want %d", n, got, want)
		}
	}
	// 4 servers of weights 2,1,3,1: 45, 22, 68, 22 digests.
	for i, w := range []uint64{2, 1, 3, 1} {
		if got, want := WeightedHashes(w, 7, 4), []int{45, 22, 68, 22}[i]; got != want {
			t.Errorf("weight %d of 7, 4 servers: %d, want %d", w, got, want)
		}
	}
	if got := WeightedHashes(1, 1001, 2); got != 0 {
		t.Errorf("weight 1 of 1001: %d digests, want 0", got)
	}
}

func TestPointStrings(t *testing.T) {
	for _, c := range []struct {
		host string
		port int
		spy  bool
		want string
	}{
		{"10.0.0.1", 11211, false, "10.0.0.1-7"},
		{"10.0.0.1", 11212, false, "10.0.0.1:11212-7"},
		{"10.0.0.1", 11211, true, "/10.0.0.1:11211-7"},
		{"::1", 11300, false, "::1:11300-7"},
	} {
		if got := string(AppendPointString(nil, c.host, c.port, c.spy, 7)); got != c.want {
			t.Errorf("%s %d spy=%v: %q, want %q", c.host, c.port, c.spy, got, c.want)
		}
	}
}

func TestParseName(t *testing.T) {
	for _, c := range []struct {
		name, host string
		port       int
	}{
		{"10.0.0.1", "10.0.0.1", 11211}, {"10.0.0.1:11211", "10.0.0.1", 11211},
		{"cache-a:11212", "cache-a", 11212}, {"[::1]:11300", "::1", 11300},
		{"::1", "::1", 11211}, {"[fe80::1]", "fe80::1", 11211}, {"h:0", "h", 11211},
	} {
		h, p, err := ParseName(c.name)
		if err != nil || h != c.host || p != c.port {
			t.Errorf("ParseName(%q) = %q, %d, %v; want %q, %d", c.name, h, p, err, c.host, c.port)
		}
	}
	for _, bad := range []string{"", ":11211", "h:", "h:x", "h:65536", "[::1", "[::1]x", strings.Repeat("h", 1025)} {
		if _, _, err := ParseName(bad); err == nil {
			t.Errorf("ParseName(%.20q) succeeded", bad)
		}
	}
}

// TestDefaultPortDropped: "host" and "host:11211" are one server string.
func TestDefaultPortDropped(t *testing.T) {
	_, a := build(t, Options{}, []profile.Server{{Name: "a", Weight: 1}, {Name: "b:11212", Weight: 1}})
	_, b := build(t, Options{}, []profile.Server{{Name: "a:11211", Weight: 1}, {Name: "b:11212", Weight: 1}})
	pa, _ := a.Points()
	pb, _ := b.Points()
	if fmt.Sprint(pa) != fmt.Sprint(pb) {
		t.Error("a and a:11211 build different continuums")
	}
}

func TestOptions(t *testing.T) {
	if e := (Options{}).Effective(); e.Mode != ModeWeighted || e.Hash != "md5" {
		t.Errorf("defaults: %+v", e)
	}
	if e := (Options{Mode: ModeKetama}).Effective(); e.Hash != "one-at-a-time" {
		t.Errorf("ketama default hash: %+v", e)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Mode: "ketma"}, `mode "ketma" is not one of weighted, ketama, spy`},
		{Options{Hash: "md4"}, `hash "md4" is not one of one-at-a-time, md5,`},
		{Options{Hash: "hsieh"}, "not built into Debian's libhashkit"},
		{Options{Namespace: strings.Repeat("n", 128)}, "at most 127"},
		{Options{Namespace: "a\x00b"}, "NUL"},
	} {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	r, _ := New(Options{})
	many := make([]profile.Server, 101)
	for i := range many {
		many[i] = profile.Server{Name: fmt.Sprintf("h%d", i), Weight: 1}
	}
	for _, c := range []struct {
		s    []profile.Server
		want string
	}{
		{[]profile.Server{{Name: "a", Weight: 0}}, "weight 0"},
		{[]profile.Server{{Name: "a:x", Weight: 1}}, "port"},
		{many, "aborts"},
	} {
		if _, err := r.Build(c.s, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build: %v, want %q", err, c.want)
		}
	}
	rs, _ := New(Options{SortHosts: true})
	if _, err := rs.Build([]profile.Server{{Name: "a", Weight: 1}, {Name: "a:11211", Weight: 1}}, nil); err == nil {
		t.Error("sort_hosts with a duplicate host:port built")
	}
}

// TestEdges: one server, all down, empty and long and non-ASCII keys.
func TestEdges(t *testing.T) {
	r, p := build(t, Options{}, []profile.Server{{Name: "only", Weight: 3}})
	for _, k := range []string{"", "a", strings.Repeat("κλειδί", 40), "\xff\x00\x80"} {
		if o := p.Owners(r.Hash([]byte(k)), 3, nil); len(o) != 1 || o[0] != 0 {
			t.Errorf("one server: %q → %v", k, o)
		}
	}
	if n := len(p.vals); n != 160 {
		t.Errorf("one server: %d points, want 160", n)
	}
	_, p = build(t, Options{}, []profile.Server{{Name: "a", Weight: 1, Down: true}, {Name: "b", Weight: 1, Down: true}})
	if o := p.Owners(12345, 2, nil); len(o) != 0 {
		t.Errorf("all down: %v", o)
	}
	if pts, bits := p.Points(); len(pts) != 0 || bits != 32 {
		t.Errorf("all down: %d points, %d bits", len(pts), bits)
	}
	// One-at-a-time reads bytes as signed chars: "\x80" differs from
	// the unsigned reading.
	if got := OneAtATime([]byte{0x80}); got == oatUnsigned([]byte{0x80}) {
		t.Errorf("one-at-a-time(0x80) = %d, the unsigned-char value", got)
	}
	// Empty key under every hash is the function's value of nothing.
	if MD5(nil) != 0xd98c1dd4 || Jenkins(nil) != 0xdeadbeef+13 {
		t.Errorf("empty key: md5 %#x, jenkins %#x", MD5(nil), Jenkins(nil))
	}
}

func oatUnsigned(key []byte) uint32 {
	var v uint32
	for _, b := range key {
		v += uint32(b)
		v += v << 10
		v ^= v >> 6
	}
	v += v << 3
	v ^= v >> 11
	v += v << 15
	return v
}

// TestTiesByListPosition: two servers of the same host:port make equal
// points; continuum_item_cmp puts the one listed first first, so it owns
// every key, and sort_hosts changes which that is.
func TestTiesByListPosition(t *testing.T) {
	servers := []profile.Server{{Name: "b", Weight: 1}, {Name: "a", Weight: 1}, {Name: "b:11211", Weight: 1}}
	r, p := build(t, Options{}, servers)
	for i := range 200 {
		if o := owner(r, p, fmt.Sprint("k", i)); o == 2 {
			t.Fatalf("key k%d went to the second copy of b", i)
		}
	}
	pts, _ := p.Points()
	for i := 1; i < len(pts); i++ {
		if pts[i].Pos == pts[i-1].Pos && pts[i-1].Server != 0 {
			t.Fatalf("tie at %d ordered %d before %d", pts[i].Pos, pts[i-1].Server, pts[i].Server)
		}
	}
}

// TestKetamaMode: 100 points per server hashed with the key hash; a weight
// above 1 switches to the weighted continuum but keeps the key hash.
func TestKetamaMode(t *testing.T) {
	eq := []profile.Server{{Name: "a", Weight: 1}, {Name: "b:11212", Weight: 1}}
	_, p := build(t, Options{Mode: ModeKetama}, eq)
	if len(p.vals) != 200 {
		t.Fatalf("%d points, want 200", len(p.vals))
	}
	want := map[uint32]bool{OneAtATime([]byte("a-0")): true, OneAtATime([]byte("b:11212-99")): true}
	for _, v := range p.vals {
		delete(want, v)
	}
	if len(want) != 0 {
		t.Errorf("points a-0 / b:11212-99 missing: %v", want)
	}
	r, p := build(t, Options{Mode: ModeKetama}, []profile.Server{{Name: "a", Weight: 2}, {Name: "b:11212", Weight: 1}})
	if len(p.vals) != 4*(WeightedHashes(2, 3, 2)+WeightedHashes(1, 3, 2)) {
		t.Errorf("weights 2,1 in ketama mode: %d points, want the weighted count", len(p.vals))
	}
	if r.Hash([]byte("x")) != uint64(OneAtATime([]byte("x"))) {
		t.Error("ketama mode's key hash is not one-at-a-time")
	}
}

// TestDownRebuild: a Down server leaves the continuum, which is built as
// if only the live servers were configured (n and Σw count live servers),
// with the original indexes.
func TestDownRebuild(t *testing.T) {
	all := []profile.Server{{Name: "a", Weight: 2}, {Name: "b", Weight: 1}, {Name: "c", Weight: 3}}
	with := append([]profile.Server(nil), all...)
	with[1].Down = true
	r, p := build(t, Options{}, with)
	_, q := build(t, Options{}, []profile.Server{all[0], all[2]})
	for i := range 2000 {
		k := []byte(fmt.Sprint("key", i))
		got, want := p.Owners(r.Hash(k), 1, nil)[0], []int{0, 2}[q.Owners(r.Hash(k), 1, nil)[0]]
		if got != want {
			t.Fatalf("%s: down-b placement %d, fresh client without b %d", k, got, want)
		}
	}
}

// TestReplicaOrder: NUMBER_OF_REPLICAS' window of list successors, a
// Down one left out, sorted order with sort_hosts.
func TestReplicaOrder(t *testing.T) {
	servers := []profile.Server{{Name: "d", Weight: 1}, {Name: "a", Weight: 1}, {Name: "c", Weight: 1, Down: true}, {Name: "b", Weight: 1}}
	r, p := build(t, Options{}, servers)
	rs, ps := build(t, Options{SortHosts: true}, servers)
	for i := range 500 {
		k := []byte(fmt.Sprint("key", i))
		o := p.Owners(r.Hash(k), 3, nil)
		// list d(0) a(1) c(2, down) b(3): windows of 3 from the primary
		next := map[int][]int{0: {0, 1}, 1: {1, 3}, 3: {3, 0, 1}}[o[0]]
		if fmt.Sprint(o) != fmt.Sprint(next) {
			t.Fatalf("list order: %s → %v, want %v", k, o, next)
		}
		if o = p.Owners(r.Hash(k), 9, o[:0]); len(o) != 3 {
			t.Fatalf("r = 9 over 3 live servers: %v", o)
		}
		o = ps.Owners(rs.Hash(k), 2, o[:0])
		// sorted: a(1) b(3) c(2, down) d(0)
		if want := map[int][]int{1: {1, 3}, 3: {3}, 0: {0, 1}}[o[0]]; fmt.Sprint(o) != fmt.Sprint(want) {
			t.Fatalf("sorted order: %s → %v, want %v", k, o, want)
		}
	}
}

// TestNamespace: HASH_WITH_PREFIX_KEY hashes namespace ‖ key, zeroes a
// key's bytes after a NUL (strncpy), and hashes a key too long to 0.
func TestNamespace(t *testing.T) {
	r, _ := New(Options{Namespace: "ns:"})
	if got, want := r.Hash([]byte("key")), uint64(MD5([]byte("ns:key"))); got != want {
		t.Errorf("namespaced hash %d, want %d", got, want)
	}
	if got, want := r.Hash([]byte("a\x00bc")), uint64(MD5([]byte("ns:a\x00\x00\x00"))); got != want {
		t.Errorf("NUL key: %d, want %d", got, want)
	}
	if got := r.Hash([]byte(strings.Repeat("k", 248))); got != 0 {
		t.Errorf("251-byte namespaced key hashes to %d, want 0", got)
	}
	if got := r.Hash([]byte(strings.Repeat("k", 247))); got == 0 {
		t.Error("250-byte namespaced key hashes to 0")
	}
}

func TestOwnersNoAlloc(t *testing.T) {
	r, p := build(t, Options{}, fixturePool)
	dst := make([]int, 0, 4)
	h := r.Hash([]byte("some key"))
	if n := testing.AllocsPerRun(100, func() { dst = p.Owners(h, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %.0f times", n)
	}
	var _ profile.Continuum = p
}
