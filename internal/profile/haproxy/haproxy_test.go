package haproxy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// bytes0to255 is the input of HAProxy's reg-tests/sample_fetches/hashes.vtc.
func bytes0to255() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// TestHashesVTC reproduces the published values of HAProxy's
// reg-tests/sample_fetches/hashes.vtc (haproxy/haproxy, unchanged from 2.x
// to 3.5-dev): the bytes 0x00…0xFF through each converter, whose argument
// 1 applies full_hash (src/sample.c), as "avalanche" does for balancing.
func TestHashesVTC(t *testing.T) {
	in := bytes0to255()
	for _, c := range []struct {
		name      string
		fn        func([]byte) uint32
		raw, aval uint32
	}{
		{"crc32", CRC32, 688229491, 4230317029},
		{"djb2", DJB2, 2589693061, 600622701},
		{"sdbm", SDBM, 905707648, 3103804144},
		{"wt6", WT6, 4090277559, 1192658767},
	} {
		if got := c.fn(in); got != c.raw {
			t.Errorf("%s = %d, hashes.vtc says %d", c.name, got, c.raw)
		}
		if got := FullHash(c.fn(in)); got != c.aval {
			t.Errorf("%s(1) = %d, hashes.vtc says %d", c.name, got, c.aval)
		}
	}
	if got := XXH32(in, 0); got != 1497633363 {
		t.Errorf("xxh32 = %d, hashes.vtc says 1497633363", got)
	}
	if got := XXH32(in, 1); got != 1070421674 {
		t.Errorf("xxh32(1) = %d, hashes.vtc says 1070421674", got)
	}
	if got := CRC32([]byte("123456789")); got != 0xCBF43926 {
		t.Errorf("crc32(123456789) = %#x, the CRC-32 check value is 0xcbf43926", got)
	}
}

// TestXXH32Vectors checks XXH32 on the vectors of pierrec/lz4 v4.1.33
// internal/xxh32/xxh32zero_test.go (seed 0) and of xxHash's own xxhsum
// sanity check (Cyan4973/xxHash xxhsum.c BMK_sanityCheck, 0.7 series: a
// generated buffer, seeds 0 and 2654435761).
func TestXXH32Vectors(t *testing.T) {
	for _, c := range []struct {
		sum  uint32
		data string
	}{
		{0x02cc5d05, ""}, {0x550d7456, "a"}, {0x4999fc53, "ab"}, {0x32d153ff, "abc"},
		{0xa3643705, "abcd"}, {0x9738f19b, "abcde"}, {0x8b7cd587, "abcdef"},
		{0x9dd093b3, "abcdefg"}, {0x0bb3c6bb, "abcdefgh"}, {0xd03c13fd, "abcdefghi"},
		{0x8b988cfe, "abcdefghij"}, {0x9d2d8b62, "abcdefghijklmnop"},
		{0x42ae804d, "abcdefghijklmnopqrstuvwxyz0123456789"},
	} {
		if got := XXH32([]byte(c.data), 0); got != c.sum {
			t.Errorf("XXH32(%q) = %#x, want %#x", c.data, got, c.sum)
		}
	}
	const prime = 2654435761
	buf := make([]byte, 222)
	gen := uint64(prime)
	for i := range buf {
		buf[i] = byte(gen >> 56)
		gen *= 11400714785074694797
	}
	for _, c := range []struct {
		n    int
		seed uint32
		sum  uint32
	}{
		{0, 0, 0x02CC5D05}, {0, prime, 0x36B78AE7}, {1, 0, 0xCF65B03E}, {1, prime, 0xB4545AA4},
		{14, 0, 0x1208E7E2}, {14, prime, 0x6AF1D1FE}, {222, 0, 0x5BD11DBD}, {222, prime, 0x58803C5F},
	} {
		if got := XXH32(buf[:c.n], c.seed); got != c.sum {
			t.Errorf("XXH32(sanity[:%d], %d) = %#x, want %#x", c.n, c.seed, got, c.sum)
		}
	}
}

// TestFullHashBijective checks on a window of inputs that FullHash never
// maps two inputs to one key, which the package doc relies on.
func TestFullHashBijective(t *testing.T) {
	out := make([]uint32, 0, 1<<18)
	for _, base := range []uint32{0, 4096 * 1000, 0xfffc0000} {
		out = out[:0]
		for i := range uint32(1 << 16) {
			out = append(out, FullHash(base+i))
		}
		slices.Sort(out)
		if len(slices.Compact(out)) != 1<<16 {
			t.Errorf("FullHash collides on [%#x, %#x+2^16)", base, base)
		}
	}
}

// mustRule returns the rule for o or fails the test.
func mustRule(t *testing.T, o Options) profile.Rule {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// mustBuild builds servers under o or fails the test.
func mustBuild(t *testing.T, o Options, servers []profile.Server) (profile.Rule, *Placement) {
	t.Helper()
	r := mustRule(t, o)
	p, err := r.Build(servers, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r, p.(*Placement)
}

// owner1 returns the single owner of key under r and p, or -1.
func owner1(r profile.Rule, p profile.Placement, key string) int {
	o := p.Owners(r.Hash([]byte(key)), 1, nil)
	if len(o) == 0 {
		return -1
	}
	return o[0]
}

// autoServers returns n servers of automatic ids with the given weights.
func autoServers(weights ...int) []profile.Server {
	s := make([]profile.Server, len(weights))
	for i, w := range weights {
		s[i] = profile.Server{Name: fmt.Sprintf("s%d", i), Weight: w}
	}
	return s
}

// TestBalanceHashMaxconnVTC reproduces HAProxy's
// reg-tests/balance/balance-hash-maxconn.vtc: "balance uri" with
// "hash-type consistent" over two servers of automatic ids sends
// "/test-url" to srv0 since 03e9a5a1 (which changed that expectation), to
// srv1 before it (the test as of 8ed1e91ef, 3.2-dev9, and
// balance-hash-maxqueue.vtc, which 03e9a5a1 left unchanged); the second
// choice, taken when the first is saturated, is the other server.
func TestBalanceHashMaxconnVTC(t *testing.T) {
	for _, c := range []struct {
		version string
		first   int
	}{{"2", 0}, {"3.0", 1}, {"3.1", 1}, {"3.2", 1}, {"3.2.6", 1}, {"3.2.7", 0}, {"3.0.13", 0}, {"3.3", 0}, {"3.4", 0}} {
		r, p := mustBuild(t, Options{Version: c.version}, autoServers(1, 1))
		got := p.Owners(r.Hash([]byte("/test-url")), 2, nil)
		if want := []int{c.first, 1 - c.first}; !slices.Equal(got, want) {
			t.Errorf("version %s: /test-url owners %v, the vtc says %v", c.version, got, want)
		}
	}
}

// Derived vectors: computed by hand from production-rules.md §5 with an
// independent Python transcription of the formulas (full_hash, sdbm,
// XXH32, node key = full_hash(server key + i), nearest node with ties to
// the previous one). They are NOT product output: no HAProxy 3.x binary
// was available. The 2.x rows are also confirmed by the conformance test.

// TestDerivedServerKeys pins server keys per hash-key and branch.
func TestDerivedServerKeys(t *testing.T) {
	for _, c := range []struct {
		o    Options
		s    profile.Server
		puid int
		want uint32
	}{
		{Options{}, profile.Server{Name: "a"}, 1, 4096},
		{Options{Version: "3.3"}, profile.Server{Name: "a"}, 1, 4096},
		{Options{Version: "3.0"}, profile.Server{Name: "a"}, 1, 881230262},
		{Options{Version: "3.2"}, profile.Server{Name: "a"}, 2, 3798448204},
		{Options{Version: "3.1"}, profile.Server{Name: "a"}, 3, 1332612764},
		{Options{Version: "3.4", HashKey: "id32"}, profile.Server{Name: "a"}, 1, 3959731533},
		{Options{Version: "3.4", HashKey: "id32"}, profile.Server{Name: "a"}, 7, 2056672031},
		{Options{Version: "3.0", HashKey: "addr"}, profile.Server{Name: "10.0.0.1:80"}, 1, 1842195262},
		{Options{Version: "3.0", HashKey: "addr"}, profile.Server{Name: "10.0.0.1"}, 9, 1842195262},
		{Options{Version: "3.3", HashKey: "addr-port"}, profile.Server{Name: "10.0.0.1:80"}, 1, 875046897},
		{Options{Version: "3.3", HashKey: "addr"}, profile.Server{Name: "[2001:db8::1]:443"}, 1, 172839367},
		{Options{Version: "3.3", HashKey: "addr-port"}, profile.Server{Name: "[2001:db8::1]:443"}, 1, 242257302},
	} {
		r := mustRule(t, c.o).(*rule)
		got, err := r.serverKey(c.s, c.puid)
		if err != nil || got != c.want {
			t.Errorf("%+v %q puid %d: server key %d (%v), derived %d", c.o, c.s.Name, c.puid, got, err, c.want)
		}
	}
	// First node keys: full_hash(key + 0), full_hash(key + 1), ...
	for _, c := range []struct {
		version string
		want    []uint32
	}{{"2", []uint32{1237450891, 2761370759, 3040967754}}, {"3.0", []uint32{399300999, 1765433384, 979858930}}} {
		_, p := mustBuild(t, Options{Version: c.version}, autoServers(1))
		for _, k := range c.want {
			if !slices.Contains(p.keys, k) {
				t.Errorf("version %s: node key %d missing", c.version, k)
			}
		}
	}
}

// TestDerivedOwners pins owners of k0…k11 over three servers per branch
// and hash-key (weights 1, 2, 1 for id; 1, 1, 1 otherwise).
func TestDerivedOwners(t *testing.T) {
	addrs := []profile.Server{{Name: "10.0.0.1:80", Weight: 1}, {Name: "10.0.0.2:80", Weight: 1}, {Name: "[2001:db8::1]:443", Weight: 1}}
	for _, c := range []struct {
		o       Options
		servers []profile.Server
		want    []int
	}{
		{Options{}, autoServers(1, 2, 1), []int{0, 1, 1, 2, 0, 1, 0, 1, 0, 1, 2, 0}},
		{Options{Version: "3.3"}, autoServers(1, 2, 1), []int{0, 1, 1, 2, 0, 1, 0, 1, 0, 1, 2, 0}},
		{Options{Version: "3.0"}, autoServers(1, 2, 1), []int{0, 0, 1, 1, 2, 0, 1, 0, 2, 1, 0, 0}},
		{Options{Version: "3.2", HashKey: "addr"}, addrs, []int{2, 0, 2, 2, 1, 1, 0, 1, 1, 2, 2, 1}},
		{Options{Version: "3.3", HashKey: "addr-port"}, addrs, []int{2, 1, 1, 2, 2, 2, 2, 1, 2, 1, 1, 1}},
		{Options{Version: "3.4", HashKey: "id32"}, autoServers(1, 1, 1), []int{0, 1, 1, 0, 2, 2, 0, 1, 2, 1, 2, 1}},
	} {
		r, p := mustBuild(t, c.o, c.servers)
		got := make([]int, 12)
		for i := range got {
			got[i] = owner1(r, p, fmt.Sprintf("k%d", i))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v: owners %v, derived %v", c.o, got, c.want)
		}
	}
}

// TestDerivedRequestHashes pins default request hashes (sdbm then
// full_hash) of empty, long and non-ASCII keys.
func TestDerivedRequestHashes(t *testing.T) {
	r := mustRule(t, Options{})
	for key, want := range map[string]uint64{
		"/test-url": 620454955, "": 2874071335, "user:1": 3430292263,
		"東京": 1859005570, "🔑": 4106839575, strings.Repeat("x", 200): 749991854,
	} {
		if got := r.Hash([]byte(key)); got != want {
			t.Errorf("Hash(%.20q) = %d, derived %d", key, got, want)
		}
	}
}

// TestAvalancheDefault checks HAProxy's parsing of "hash-type consistent
// [<function> [avalanche]]" (cfgparse-listen.c): avalanche comes with the
// default function only.
func TestAvalancheDefault(t *testing.T) {
	key := []byte("some key")
	yes, no := true, false
	for _, c := range []struct {
		o         Options
		want      uint64
		directive string
	}{
		{Options{}, uint64(FullHash(SDBM(key))), "hash-type consistent"},
		{Options{HashFunction: "sdbm"}, uint64(SDBM(key)), "hash-type consistent sdbm"},
		{Options{HashFunction: "sdbm", Avalanche: &yes}, uint64(FullHash(SDBM(key))), "hash-type consistent sdbm avalanche"},
		{Options{Avalanche: &no}, uint64(SDBM(key)), "hash-type consistent sdbm"},
		{Options{HashFunction: "djb2"}, uint64(DJB2(key)), "hash-type consistent djb2"},
		{Options{HashFunction: "wt6", Avalanche: &yes}, uint64(FullHash(WT6(key))), "hash-type consistent wt6 avalanche"},
		{Options{HashFunction: "crc32"}, uint64(CRC32(key)), "hash-type consistent crc32"},
	} {
		if got := mustRule(t, c.o).Hash(key); got != c.want {
			t.Errorf("%+v: Hash = %d, want %d", c.o, got, c.want)
		}
		if got := c.o.Directive(); got != c.directive {
			t.Errorf("%+v: Directive %q, want %q", c.o, got, c.directive)
		}
	}
}

// TestEffective checks the defaults and that filling them is idempotent.
func TestEffective(t *testing.T) {
	e := Options{}.Effective()
	if e.Version != "2" || e.HashKey != "id" || e.HashFunction != "sdbm" || e.Avalanche == nil || !*e.Avalanche {
		t.Errorf("Effective() = %+v", e)
	}
	if ee := e.Effective(); ee.Version != e.Version || ee.HashFunction != e.HashFunction || *ee.Avalanche != *e.Avalanche {
		t.Errorf("Effective is not idempotent: %+v then %+v", e, ee)
	}
	if f := (Options{HashFunction: "djb2"}).Effective(); *f.Avalanche {
		t.Error("a named function must default to no avalanche")
	}
}

// TestOptionErrors checks that bad options are refused with a message
// saying what would be right.
func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{HashFunction: "sbdm"}, `hash_function "sbdm" is not one of sdbm, djb2, wt6, crc32`},
		{Options{Version: "1.8"}, `version "1.8" is not one of 2, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, or a point release such as 2.6.12 or 3.2.7`},
		{Options{Version: "3.6"}, `version "3.6" is not one of`},
		{Options{Version: "3.2.7.1"}, `version "3.2.7.1" is not one of`},
		{Options{Version: "v3.2"}, `version "v3.2" is not one of`},
		{Options{Version: "3"}, `version "3" is not one of`},
		{Options{Version: "2.10"}, `version "2.10" is not one of`},
		{Options{Version: "3.03"}, `version "3.03" is not one of`},
		{Options{HashKey: "addr"}, `hash_key "addr" needs version 3.0 or later; version "2" has no hash-key addr`},
		{Options{Version: "2.6", HashKey: "addr-port"}, `hash_key "addr-port" needs version 3.0 or later`},
		{Options{Version: "3.3", HashKey: "id32"}, `hash_key "id32" needs version 3.4 or later`},
		{Options{Version: "3.3", HashKey: "guid"}, `hash_key "guid" is not one of id, addr, addr-port, id32`},
	} {
		_, err := New(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", c.o, err, c.want)
		}
	}
	for v, want := range map[string]branch{
		"2": branch2, "2.0": branch2, "2.6": branch2, "2.6.12": branch2, "2.9": branch2,
		"3.0": branchBug, "3.0.0": branchBug, "3.0.12": branchBug, "3.0.13": branchFixed, "3.0.27": branchFixed,
		"3.1": branchBug, "3.1.9": branchBug, "3.1.10": branchFixed,
		"3.2": branchBug, "3.2.6": branchBug, "3.2.7": branchFixed, "3.2.19": branchFixed,
		"3.3": branchFixed, "3.3.0": branchFixed, "3.4": branchID32, "3.4.2": branchID32, "3.5": branchID32,
	} {
		if got, err := parseVersion(v); err != nil || got != want {
			t.Errorf("version %q: branch %d, %v; want %d", v, got, err, want)
		}
	}
}

// TestBuildErrors checks the configurations HAProxy refuses.
func TestBuildErrors(t *testing.T) {
	addr := Options{Version: "3.0", HashKey: "addr"}
	for _, c := range []struct {
		o       Options
		servers []profile.Server
		want    string
	}{
		{Options{}, []profile.Server{{Name: "a", Weight: 257}}, "weight 257 is outside HAProxy's 0..256"},
		{Options{}, []profile.Server{{Name: "a", Weight: -1}}, "weight -1"},
		{Options{}, []profile.Server{{Name: "a", Weight: 1, ID: 5}, {Name: "b", Weight: 1, ID: 5}}, `id 5 is already used by server 1 ("a")`},
		{Options{}, []profile.Server{{Name: "a", Weight: 1, ID: -3}}, "id -3 is outside"},
		{Options{}, []profile.Server{{Name: "a", Weight: 1, ID: 1 << 31}}, "is outside HAProxy's 1..2147483647"},
		{Options{}, []profile.Server{{Name: "a", Weight: 1}, {Name: "a", Weight: 1}}, `name "a" is also server 1's`},
		{addr, []profile.Server{{Name: "cache1:80", Weight: 1}}, `need the server name to be an IP address`},
		{addr, []profile.Server{{Name: "::1", Weight: 1}}, `need the server name to be an IP address`},
		{addr, []profile.Server{{Name: "10.0.0.1:http", Weight: 1}}, `port "http" is not a number`},
		{addr, []profile.Server{{Name: "10.0.0.1:+80", Weight: 1}}, `port ranges and +/- offsets are not modelled`},
		{addr, []profile.Server{{Name: "10.0.0.1:", Weight: 1}}, `empty port`},
		{addr, []profile.Server{{Name: "[fe80::1%eth0]:80", Weight: 1}}, `need the server name to be an IP address`},
	} {
		_, err := mustRule(t, c.o).Build(c.servers, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build(%v) = %v, want an error containing %q", c.servers, err, c.want)
		}
	}
	// Same names are fine when ids tell the servers apart.
	if _, err := mustRule(t, Options{}).Build([]profile.Server{{Name: "a", Weight: 1, ID: 1}, {Name: "a", Weight: 1, ID: 2}}, nil); err != nil {
		t.Error(err)
	}
}

// TestPUIDs checks HAProxy's automatic numbering: first free id from the
// server's position on, explicit ids being taken.
func TestPUIDs(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want []int
	}{
		{[]int{0, 0, 0}, []int{1, 2, 3}},
		{[]int{0, 1, 0, 7, 0, 0}, []int{2, 1, 4, 7, 6, 8}},
		{[]int{3, 0, 0, 0}, []int{3, 2, 4, 5}},
		{[]int{0, 2, 3, 0}, []int{1, 2, 3, 4}},
		{[]int{0, 0, 2}, []int{1, 3, 2}},
	} {
		servers := make([]profile.Server, len(c.ids))
		for i, id := range c.ids {
			servers[i] = profile.Server{Name: fmt.Sprint(i), Weight: 1, ID: id}
		}
		got, err := PUIDs(servers)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("PUIDs(%v) = %v, %v; want %v", c.ids, got, err, c.want)
		}
	}
}

// TestNodes checks node counts (16 per weight unit), weight 0, Down, and
// Points' order.
func TestNodes(t *testing.T) {
	servers := autoServers(2, 1, 3, 0, 256)
	servers[1].Down = true
	_, p := mustBuild(t, Options{}, servers)
	pts, bits := p.Points()
	if bits != 32 {
		t.Errorf("bits = %d", bits)
	}
	count := make([]int, len(servers))
	for i, pt := range pts {
		count[pt.Server]++
		if i > 0 && pts[i-1].Pos > pt.Pos {
			t.Fatalf("points out of order at %d", i)
		}
	}
	if want := []int{32, 0, 48, 0, 4096}; !slices.Equal(count, want) {
		t.Errorf("nodes per server %v, want %v", count, want)
	}
}

// TestDownKeepsOthers checks that a Down server's keys move and no other
// key does, because it keeps its id.
func TestDownKeepsOthers(t *testing.T) {
	servers := autoServers(2, 1, 3, 1)
	r, before := mustBuild(t, Options{}, servers)
	servers[2].Down = true
	_, after := mustBuild(t, Options{}, servers)
	moved := 0
	for i := range 5000 {
		key := fmt.Sprintf("key%d", i)
		a, b := owner1(r, before, key), owner1(r, after, key)
		if b == 2 {
			t.Fatalf("%s: Down server chosen", key)
		}
		if a != b {
			moved++
			if a != 2 {
				t.Fatalf("%s moved from %d to %d though only 2 went down", key, a, b)
			}
		}
	}
	if moved == 0 {
		t.Error("no key moved off the Down server")
	}
}

// TestLookupNearest checks the nearest-node rule on exact positions: the
// midpoint between two nodes goes to the lower one, one above it to the
// upper one, a node's own key to that node, and wrapping at both ends.
func TestLookupNearest(t *testing.T) {
	p := &Placement{keys: []uint32{100, 200, 0xffffff00}, srv: []int32{0, 1, 2}, live: 3}
	for _, c := range []struct {
		h    uint32
		want int
	}{
		{150, 0}, {151, 1}, {149, 0}, {100, 0}, {200, 1}, {99, 0},
		{0x7fffffe4, 1}, {0x7fffffe5, 2}, // 200 + (0xffffff00−200)/2 is the midpoint
		{0xffffff00, 2},
		{0xffffffb2, 2}, {0xffffffb3, 0}, // 0xffffff00 + 356/2: the midpoint across the wrap
		{0xffffffff, 0}, {0, 0},
	} {
		if got := p.Owners(uint64(c.h), 1, nil); len(got) != 1 || got[0] != c.want {
			t.Errorf("Owners(%#x) = %v, want [%d]", c.h, got, c.want)
		}
	}
}

// TestDuplicateKeys checks colliding ids (1 and 2²⁰+1 give the same node
// keys): in a group of equal keys the first inserted is found from below
// and the last inserted from above, as eb32_lookup_ge and eb32_prev do.
func TestDuplicateKeys(t *testing.T) {
	servers := []profile.Server{{Name: "a", Weight: 1, ID: 1}, {Name: "b", Weight: 1, ID: 1<<20 + 1}}
	_, p := mustBuild(t, Options{}, servers)
	if len(p.keys) != 32 {
		t.Fatalf("%d nodes", len(p.keys))
	}
	for i := 0; i < 32; i += 2 {
		if p.keys[i] != p.keys[i+1] || p.srv[i] != 0 || p.srv[i+1] != 1 {
			t.Fatalf("node pair %d: keys %d %d servers %d %d", i, p.keys[i], p.keys[i+1], p.srv[i], p.srv[i+1])
		}
	}
	k := p.keys[10]
	if got := p.Owners(uint64(k-1), 1, nil); got[0] != 0 {
		t.Errorf("just below a duplicate group: %v, want the first inserted", got)
	}
	if got := p.Owners(uint64(k+1), 1, nil); got[0] != 1 {
		t.Errorf("just above a duplicate group: %v, want the last inserted", got)
	}
	if got := p.Owners(uint64(k), 2, nil); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("on a duplicate group: %v, want [0 1]", got)
	}
}

// TestOwnersWalk checks r > 1: distinct servers, primary first, the walk
// up the tree, never a Down server, fewer than r when fewer are up.
func TestOwnersWalk(t *testing.T) {
	servers := autoServers(2, 1, 3, 1, 2)
	servers[3].Down = true
	r, p := mustBuild(t, Options{}, servers)
	for i := range 2000 {
		h := r.Hash(fmt.Appendf(nil, "k%d", i))
		all := p.Owners(h, 10, nil)
		if len(all) != 4 || slices.Contains(all, 3) {
			t.Fatalf("Owners(r=10) = %v", all)
		}
		if one := p.Owners(h, 1, nil); one[0] != all[0] {
			t.Fatalf("primary %v vs %v", one, all)
		}
		// The walk: servers in the order first met going up from the
		// primary's node.
		x := uint32(h)
		i := lowerBound(p.keys, x) % len(p.keys)
		j := (i + len(p.keys) - 1) % len(p.keys)
		if x-p.keys[j] <= p.keys[i]-x {
			i = j
		}
		var walk []int
		for k := range len(p.keys) {
			if s := int(p.srv[(i+k)%len(p.keys)]); !slices.Contains(walk, s) {
				walk = append(walk, s)
			}
		}
		if !slices.Equal(walk, all) {
			t.Fatalf("Owners %v, walk %v", all, walk)
		}
		if two := p.Owners(h, 2, []int{99}); !slices.Equal(two, append([]int{99}, all[:2]...)) {
			t.Fatalf("appending: %v", two)
		}
	}
}

// TestEdgeMemberships checks empty, single-server and all-Down trees.
func TestEdgeMemberships(t *testing.T) {
	r, p := mustBuild(t, Options{}, nil)
	if got := p.Owners(r.Hash([]byte("k")), 3, nil); len(got) != 0 {
		t.Errorf("no servers: %v", got)
	}
	r, p = mustBuild(t, Options{}, autoServers(1))
	for _, key := range []string{"", "a", "東京", strings.Repeat("é", 100)} {
		if got := p.Owners(r.Hash([]byte(key)), 3, nil); !slices.Equal(got, []int{0}) {
			t.Errorf("one server, %q: %v", key, got)
		}
	}
	servers := autoServers(1, 2)
	servers[0].Down, servers[1].Down = true, true
	r, p = mustBuild(t, Options{}, servers)
	if got := p.Owners(r.Hash([]byte("k")), 1, nil); len(got) != 0 {
		t.Errorf("all down: %v", got)
	}
	if got := p.Owners(r.Hash([]byte("k")), 0, nil); len(got) != 0 {
		t.Errorf("r = 0: %v", got)
	}
}

// TestOwnersNoAlloc checks that Owners allocates nothing when dst has room.
func TestOwnersNoAlloc(t *testing.T) {
	r, p := mustBuild(t, Options{}, autoServers(3, 1, 4, 1, 5, 9, 2, 6))
	dst := make([]int, 0, 8)
	h := r.Hash([]byte("key"))
	if n := testing.AllocsPerRun(100, func() { dst = p.Owners(h, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %v times", n)
	}
}

// TestAddrParse checks how server names are read for hash-key addr.
func TestAddrParse(t *testing.T) {
	for _, c := range []struct {
		name string
		v4   bool
		port uint32
	}{
		{"10.0.0.1", true, 0}, {"10.0.0.1:80", true, 80}, {"[2001:db8::1]", false, 0},
		{"[2001:db8::1]:443", false, 443}, {"[::ffff:10.0.0.1]:80", false, 80}, {"127.0.0.1:65535", true, 65535},
	} {
		a, err := parseAddr(c.name)
		if err != nil || a.v4 != c.v4 || a.port != c.port {
			t.Errorf("parseAddr(%q) = %+v, %v", c.name, a, err)
		}
	}
	if a, _ := parseAddr("10.0.0.1"); a.sAddr != 0x0100000a {
		t.Errorf("s_addr of 10.0.0.1 = %#x, want 0x0100000a (network order loaded little-endian)", a.sAddr)
	}
}

// BenchmarkOwners measures one lookup over 100 servers of weight 1.
func BenchmarkOwners(b *testing.B) {
	weights := make([]int, 100)
	for i := range weights {
		weights[i] = 1
	}
	r, _ := New(Options{})
	p, _ := r.Build(autoServers(weights...), nil)
	dst := make([]int, 0, 3)
	for i := 0; b.Loop(); i++ {
		dst = p.Owners(uint64(FullHash(uint32(i))), 1, dst[:0])
	}
}
