package twemproxy

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/libmemcached"
)

// TestHashVectors: twemproxy 0.5.0 src/test_all.c test_hash_algorithms,
// every hash of "apple".
func TestHashVectors(t *testing.T) {
	want := map[string]uint32{
		"one_at_a_time": 2297466611, "md5": 3195025439, "crc16": 3662830516,
		"crc32": 10542, "crc32a": 2838417488, "fnv1_32": 67176023,
		"fnv1a_32": 280767167, "fnv1_64": 473199127, "fnv1a_64": 1488911807,
		"hsieh": 3738850110, "jenkins": 1442444624, "murmur": 4142305122,
	}
	for _, name := range hashNames {
		f, _ := HashByName(name)
		if got := f([]byte("apple")); got != want[name] {
			t.Errorf("%s(apple) = %d, want %d", name, got, want[name])
		}
	}
}

// TestHsiehVectors: twemproxy's hsieh is libmemcached's hashkit_hsieh, so
// libmemcached 1.1.4's test/fixtures/hashes.hpp hsieh row applies.
func TestHsiehVectors(t *testing.T) {
	in := []string{"apple", "beat", "carrot", "daikon", "eggplant", "flower", "green", "hide", "ick",
		"jack", "kick", "lime", "mushrooms", "nectarine", "orange", "peach", "quant", "ripen",
		"strawberry", "tang", "up", "volumne", "when", "yellow", "zip", "The quick brown fox jumps over the lazy dog"}
	want := []uint32{3738850110, 3636226060, 3821074029, 3489929160, 3485772682, 80540287, 1805464076,
		1895033657, 409795758, 979934958, 3634096985, 1284445480, 2265380744, 707972988,
		353823508, 1549198350, 1327930172, 9304163, 4220749037, 2493964934, 2777873870,
		2057831732, 1510213931, 2027828987, 3395453351, 471461527}
	for i, s := range in {
		if got := Hsieh([]byte(s)); got != want[i] {
			t.Errorf("hsieh(%q) = %d, want %d", s, got, want[i])
		}
	}
}

// TestKetamaHash: src/test_all.c's ketama_hash vectors, the first and last
// point of the string "server1-8".
func TestKetamaHash(t *testing.T) {
	d := md5.Sum([]byte("server1-8"))
	if a, b := binary.LittleEndian.Uint32(d[0:]), binary.LittleEndian.Uint32(d[12:]); a != 3853726576 || b != 2667054752 {
		t.Errorf("ketama_hash(server1-8) = %d, %d; want 3853726576, 2667054752", a, b)
	}
}

func TestCRC16Table(t *testing.T) {
	// The first entries of nc_crc16.c's crc16tab.
	for i, w := range []uint16{0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7, 0x8108} {
		if crc16tab[i] != w {
			t.Errorf("crc16tab[%d] = %#x, want %#x", i, crc16tab[i], w)
		}
	}
	// The low 16 bits are CRC-16/XMODEM: "123456789" → 0x31c3.
	if got := CRC16([]byte("123456789")) & 0xffff; got != 0x31c3 {
		t.Errorf("crc16(123456789) low bits %#x, want 0x31c3", got)
	}
}

// TestHashesEqualLibmemcached: twemproxy adds 1e-10 in double where
// libmemcached adds 1e-10F in float; for every count that changes nothing.
func TestHashesEqualLibmemcached(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 1; n <= 300; n++ {
		if a, b := Hashes(1, uint32(n), n), libmemcached.WeightedHashes(1, uint64(n), n); a != b {
			t.Fatalf("n = %d equal: twemproxy %d, libmemcached %d", n, a, b)
		}
		for range 20 {
			w, rest := 1+rng.Uint32N(1000), uint32(0)
			for range n - 1 {
				rest += 1 + rng.Uint32N(1000)
			}
			total := w + rest
			if a, b := Hashes(w, total, n), libmemcached.WeightedHashes(uint64(w), uint64(total), n); a != b {
				t.Fatalf("w %d of %d, n %d: twemproxy %d, libmemcached %d", w, total, n, a, b)
			}
		}
	}
	if Hashes(1, 25, 25) != 39 || Hashes(1, 24, 24) != 40 {
		t.Error("equal-weight counts at 24 and 25 servers are not 40 and 39")
	}
}

func TestIdentity(t *testing.T) {
	for _, c := range []struct {
		name  string
		named bool
		want  string
	}{
		{"10.0.0.1:11211", false, "10.0.0.1"}, {"10.0.0.1:11212", false, "10.0.0.1:11212"},
		{"10.0.0.1:011212", false, "10.0.0.1:011212"}, {"cache-a", false, "cache-a"},
		{"/var/run/mc.sock", false, "/var/run/mc.sock:"}, {"10.0.0.1:11211", true, "10.0.0.1:11211"},
		{"server1", true, "server1"},
	} {
		if got, err := Identity(c.name, c.named); err != nil || got != c.want {
			t.Errorf("Identity(%q, %v) = %q, %v; want %q", c.name, c.named, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "h:", "h:x", "h:0", "h:70000", ":11211", "h:+5"} {
		if _, err := Identity(bad, false); err == nil {
			t.Errorf("Identity(%q) succeeded", bad)
		}
	}
}

func TestTagPart(t *testing.T) {
	for _, c := range []struct{ key, tag, want string }{
		{"{user1}.x", "{}", "user1"}, {"a{b}c{d}", "{}", "b"}, {"{}x", "{}", "{}x"},
		{"x{y", "{}", "x{y"}, {"x}y{z}", "{}", "z"}, {"$ab$cd", "$$", "ab"}, {"plain", "", "plain"},
	} {
		if got := string(TagPart([]byte(c.key), c.tag)); got != c.want {
			t.Errorf("TagPart(%q, %q) = %q, want %q", c.key, c.tag, got, c.want)
		}
	}
}

func TestOptions(t *testing.T) {
	if e := (Options{}).Effective(); e.Hash != "fnv1a_64" || e.Distribution != "ketama" {
		t.Errorf("defaults %+v", e)
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Hash: "fnv1a-64"}, `hash "fnv1a-64" is not one of one_at_a_time,`},
		{Options{Distribution: "modula"}, "not modelled"},
		{Options{Distribution: "ketma"}, "not one of ketama, modula, random"},
		{Options{HashTag: "{"}, "exactly two"},
	} {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

func mustBuild(t *testing.T, o Options, s []profile.Server) (profile.Rule, *placement) {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r, p.(*placement)
}

// TestSameContinuumAsLibmemcached: unnamed servers give libmemcached's
// weighted continuum point for point, so the libmemcached conformance test
// vouches for it (ties aside, which both order by server).
func TestSameContinuumAsLibmemcached(t *testing.T) {
	servers := []profile.Server{{Name: "10.0.0.1:11211", Weight: 2}, {Name: "10.0.0.2:11211", Weight: 1, Down: true},
		{Name: "10.0.0.3:11212", Weight: 3}, {Name: "cache-d:11211", Weight: 1}, {Name: "cache-e:11300", Weight: 5}}
	_, tw := mustBuild(t, Options{}, servers)
	lr, _ := libmemcached.New(libmemcached.Options{})
	lp, err := lr.Build(servers, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := tw.Points()
	b, _ := lp.(profile.Continuum).Points()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("twemproxy and libmemcached weighted continuums differ (%d vs %d points)", len(a), len(b))
	}
}

// TestNamedServers: a named server hashes its name, port and all.
func TestNamedServers(t *testing.T) {
	_, p := mustBuild(t, Options{NamedServers: true}, []profile.Server{{Name: "10.0.0.1:11211", Weight: 1}})
	d := md5.Sum([]byte("10.0.0.1:11211-0"))
	if !containsVal(p.vals, binary.LittleEndian.Uint32(d[:])) || len(p.vals) != 160 {
		t.Errorf("named server: %d points, 10.0.0.1:11211-0 missing", len(p.vals))
	}
}

func containsVal(vals []uint32, v uint32) bool {
	for _, x := range vals {
		if x == v {
			return true
		}
	}
	return false
}

// TestLongNameTruncated: a point string of 273 bytes or more is cut to
// 272, so a very long name's strings can coincide.
func TestLongNameTruncated(t *testing.T) {
	name := strings.Repeat("n", 300)
	_, p := mustBuild(t, Options{NamedServers: true}, []profile.Server{{Name: name, Weight: 1}, {Name: "b", Weight: 1}})
	d := md5.Sum([]byte(name[:272]))
	count := 0
	for i, v := range p.vals {
		if v == binary.LittleEndian.Uint32(d[:]) && p.idx[i] == 0 {
			count++
		}
	}
	if count != 40 {
		t.Errorf("the cut string's first point appears %d times, want 40 (one per digest)", count)
	}
}

// TestEdges: the empty key hashes to 0, hash tags pick the hashed part,
// all-down has no owner, Owners walks to distinct servers without
// allocating.
func TestEdges(t *testing.T) {
	r, p := mustBuild(t, Options{HashTag: "{}"}, []profile.Server{{Name: "a:11211", Weight: 1}, {Name: "b:11211", Weight: 1}, {Name: "c:11211", Weight: 2}})
	if r.Hash(nil) != 0 || r.Hash([]byte("{}")) == 0 {
		t.Error("empty key must hash to 0, and \"{}\" as itself")
	}
	if r.Hash([]byte("{user1}.x")) != r.Hash([]byte("user1")) || r.Hash([]byte("x{user1}")) != uint64(libmemcached.FNV1a64([]byte("user1"))) {
		t.Error("hash tag not applied")
	}
	if got := p.Owners(r.Hash([]byte("ключ")), 5, nil); len(got) != 3 || got[0] == got[1] || got[1] == got[2] || got[0] == got[2] {
		t.Errorf("Owners r=5 of 3: %v", got)
	}
	dst := make([]int, 0, 3)
	if n := testing.AllocsPerRun(100, func() { dst = p.Owners(12345, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %.0f times", n)
	}
	_, p = mustBuild(t, Options{}, []profile.Server{{Name: "a:1", Weight: 1, Down: true}})
	if got := p.Owners(1, 1, nil); len(got) != 0 {
		t.Errorf("all down: %v", got)
	}
	_, p = mustBuild(t, Options{}, []profile.Server{{Name: "only:11211", Weight: 3}})
	if got := p.Owners(0xffffffff, 2, nil); len(got) != 1 || got[0] != 0 || len(p.vals) != 160 {
		t.Errorf("one server: %v, %d points", got, len(p.vals))
	}
	var _ profile.Continuum = p
}

// TestDown: a Down server is left out and the others' shares recomputed.
func TestDown(t *testing.T) {
	s := []profile.Server{{Name: "a:11211", Weight: 2}, {Name: "b:11211", Weight: 1, Down: true}, {Name: "c:11211", Weight: 3}}
	_, p := mustBuild(t, Options{}, s)
	if want := 4 * (Hashes(2, 5, 2) + Hashes(3, 5, 2)); len(p.vals) != want {
		t.Errorf("%d points, want %d", len(p.vals), want)
	}
	for _, i := range p.idx {
		if i == 1 {
			t.Fatal("the Down server has points")
		}
	}
}
