package nginx

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// servers returns servers named 127.0.0.1:port for the given ports, with
// the given weights (1 where weights is shorter).
func servers(ports []int, weights ...int) []profile.Server {
	out := make([]profile.Server, len(ports))
	for i, p := range ports {
		w := 1
		if i < len(weights) {
			w = weights[i]
		}
		out[i] = profile.Server{Name: fmt.Sprintf("127.0.0.1:%d", p), Weight: w}
	}
	return out
}

func mustRing(t *testing.T, s []profile.Server) *Ring {
	t.Helper()
	r, err := NewRing(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustPlain(t *testing.T, s []profile.Server) *Plain {
	t.Helper()
	p, err := NewPlain(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testKeys returns n deterministic keys of mixed shapes.
func testKeys(n int) [][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := []string{"user:%d", "{user%d}.x", "キー%d", "🔑%d", "e\u0301%d", "שלום%d", "%d"}
	keys := make([][]byte, 0, n)
	for i := range n {
		k := fmt.Sprintf(shapes[i%len(shapes)], i)
		if i%11 == 0 {
			k += strings.Repeat("x", rng.IntN(200))
		}
		keys = append(keys, []byte(k))
	}
	return keys
}

// The CRC-32 check value: CRC-32/ISO-HDLC of "123456789" is 0xcbf43926
// (Greg Cook's catalogue of parametrised CRC algorithms; the same CRC as
// nginx's src/core/ngx_crc32.c, whose table starts 0x00000000, 0x77073096).
func TestKeyHashCheckValue(t *testing.T) {
	if got := KeyHash([]byte("123456789")); got != 0xcbf43926 {
		t.Fatalf("KeyHash(123456789) = %#x, want 0xcbf43926", got)
	}
	if got := KeyHash(nil); got != 0 {
		t.Fatalf("KeyHash(empty) = %#x, want 0", got)
	}
}

// The host/port split of ngx_http_upstream_init_chash (release-1.22.1).
func TestSplitServer(t *testing.T) {
	for _, c := range []struct{ in, host, port string }{
		{"10.0.0.1:11211", "10.0.0.1", "11211"},
		{"cache1.example.com:8080", "cache1.example.com", "8080"},
		{"cache1.example.com", "cache1.example.com", ""}, // nginx connects to 80, hashes no port
		{"127.0.0.1", "127.0.0.1", ""},
		{"unix:/tmp/sock", "/tmp/sock", ""},
		{"UNIX:/tmp/sock", "/tmp/sock", ""},
		{"unix:/tmp/sock:80", "/tmp/sock:80", ""},
		{"unix:", "", ""},
		{"unix", "unix", ""},
		{"[::1]:8080", "[::1]", "8080"},
		{"[::1]", "[::1]", ""},
		{"a:", "a", ""},
		{":80", "", "80"},
		{"host:08001", "host", "08001"},
		{"node-7", "node-7", ""},
		{"a:b:7", "a:b", "7"},
		{"a:7b", "a:7b", ""},
		{"12345", "12345", ""},
		{"", "", ""},
	} {
		h, p := SplitServer(c.in)
		if h != c.host || p != c.port {
			t.Errorf("SplitServer(%q) = %q, %q; want %q, %q", c.in, h, p, c.host, c.port)
		}
	}
}

// Each point is CRC-32(host ‖ 0 ‖ port ‖ LE32(previous)), the first with 0.
func TestServerPointsChain(t *testing.T) {
	pts := ServerPoints("10.0.0.1:11211", 2, nil)
	if len(pts) != 320 {
		t.Fatalf("%d points for weight 2, want 320", len(pts))
	}
	prev := uint32(0)
	for i, got := range pts {
		b := append([]byte("10.0.0.1\x0011211"), binary.LittleEndian.AppendUint32(nil, prev)...)
		if want := crc32.ChecksumIEEE(b); got != want {
			t.Fatalf("point %d = %#x, want %#x", i, got, want)
		}
		prev = got
	}
	// no port: the port is empty, not "80"
	b := []byte("cache1\x00\x00\x00\x00\x00")
	if got, want := ServerPoints("cache1", 1, nil)[0], crc32.ChecksumIEEE(b); got != want {
		t.Fatalf("first point of cache1 = %#x, want %#x", got, want)
	}
}

// CRC-32(decimal(n) ‖ key) derived from CRC-32(key) and len(key) must be
// the CRC of the concatenation.
func TestPrefixDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		key := make([]byte, rng.IntN(300))
		for j := range key {
			key[j] = byte(rng.Uint32())
		}
		n := i % 130
		want := crc32.ChecksumIEEE(append([]byte(strconv.Itoa(n)), key...))
		if got := prefixDigits(crc32.ChecksumIEEE(key), len(key), n); got != want {
			t.Fatalf("len %d, n %d: %#x, want %#x", len(key), n, got, want)
		}
	}
	if got, want := digitsCRC(1234567), crc32.ChecksumIEEE([]byte("1234567")); got != want {
		t.Fatalf("digitsCRC = %#x, want %#x", got, want)
	}
}

func TestTryHash(t *testing.T) {
	key := []byte("somekey")
	pos := PlainPosition(key)
	if pos>>32 != 7 || uint32(pos) != crc32.ChecksumIEEE(key) {
		t.Fatalf("PlainPosition = %#x", pos)
	}
	for try := range 25 {
		s := string(key)
		if try > 0 {
			s = strconv.Itoa(try) + s
		}
		if got, want := TryHash(pos, try), crc32.ChecksumIEEE([]byte(s))>>16&0x7fff; got != want {
			t.Fatalf("try %d: %#x, want %#x", try, got, want)
		}
	}
}

// From /work/shared/research/production-rules.md §4, measured against
// Debian's nginx 1.22.1: with `hash $http_x_key consistent` over
// 127.0.0.1:8001 … 8004, keys "123456789" and "somekey" go to 8003.
func TestRingResearchVector(t *testing.T) {
	r := mustRing(t, servers([]int{8001, 8002, 8003, 8004}))
	for _, k := range []string{"123456789", "somekey"} {
		if got := r.Owners(uint64(KeyHash([]byte(k))), 1, nil); !slices.Equal(got, []int{2}) {
			t.Errorf("%q → %v, want [2] (127.0.0.1:8003)", k, got)
		}
	}
}

// linearOwner is the first point ≥ h by linear scan, wrapping.
func linearOwner(pts []profile.Point, h uint32) int {
	for _, p := range pts {
		if p.Pos >= uint64(h) {
			return p.Server
		}
	}
	return pts[0].Server
}

func TestRingPointsAndLookup(t *testing.T) {
	r := mustRing(t, servers([]int{1, 2, 3, 4}, 2, 1, 3, 1))
	pts, bits := r.Points()
	if bits != 32 {
		t.Fatalf("bits %d", bits)
	}
	if len(pts) > 7*160 || len(pts) < 7*160-2 {
		t.Fatalf("%d points, want about %d", len(pts), 7*160)
	}
	count := make([]int, 4)
	for i, p := range pts {
		if i > 0 && p.Pos <= pts[i-1].Pos {
			t.Fatalf("points not strictly ascending at %d", i)
		}
		count[p.Server]++
	}
	for s, w := range []int{2, 1, 3, 1} {
		if d := w*160 - count[s]; d < 0 || d > 2 {
			t.Errorf("server %d owns %d points, want %d", s, count[s], w*160)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	hs := []uint32{0, 1, uint32(pts[0].Pos), uint32(pts[0].Pos) + 1, uint32(pts[len(pts)-1].Pos),
		uint32(pts[len(pts)-1].Pos) + 1, ^uint32(0)}
	for range 5000 {
		hs = append(hs, rng.Uint32())
	}
	for _, h := range hs {
		if got, want := r.Owners(uint64(h), 1, nil)[0], linearOwner(pts, h); got != want {
			t.Fatalf("h %#x: owner %d, want %d", h, got, want)
		}
	}
}

// Owners for r > 1 lists distinct servers in walk order; down servers are
// skipped and keep their points.
func TestRingReplicasAndDown(t *testing.T) {
	s := servers([]int{1, 2, 3, 4, 5}, 2, 1, 3, 1, 2)
	r := mustRing(t, s)
	pts, _ := r.Points()
	s[2].Down = true
	rd := mustRing(t, s)
	if ptsD, _ := rd.Points(); !slices.Equal(pts, ptsD) {
		t.Fatal("a down server changed the continuum")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 3000 {
		h := uint64(rng.Uint32())
		all := r.Owners(h, 5, nil)
		if len(all) != 5 {
			t.Fatalf("Owners(r=5) = %v", all)
		}
		var want []int
		for _, o := range all {
			if o != 2 {
				want = append(want, o)
			}
		}
		if got := rd.Owners(h, 5, nil); !slices.Equal(got, want) {
			t.Fatalf("with 2 down: %v, want %v (all %v)", got, want, all)
		}
		if got := rd.Owners(h, 2, nil); !slices.Equal(got, want[:2]) {
			t.Fatalf("r=2 with 2 down: %v, want %v", got, want[:2])
		}
	}
}

// Two texts that split alike hash alike: the first listed keeps every
// point, as nginx's stable sort and keep-first dedupe do.
func TestRingTieGoesToFirstListed(t *testing.T) {
	for _, pair := range [][2]string{{"unix:/s", "/s"}, {"/s", "UNIX:/s"}, {"a:", "a"}, {"a", "a:"}} {
		r := mustRing(t, []profile.Server{{Name: pair[0], Weight: 1}, {Name: pair[1], Weight: 1}})
		pts, _ := r.Points()
		for _, p := range pts {
			if p.Server != 0 {
				t.Fatalf("%q then %q: a point went to the second", pair[0], pair[1])
			}
		}
		if len(pts) != 160 {
			t.Fatalf("%q then %q: %d points, want 160", pair[0], pair[1], len(pts))
		}
		if got := r.Owners(12345, 2, nil); !slices.Equal(got, []int{0}) {
			t.Fatalf("Owners = %v, want [0]", got)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	for _, rule := range []profile.Rule{consistentRule{}, plainRule{}} {
		if _, err := rule.Build(nil, nil); err == nil || !strings.Contains(err.Error(), "no servers") {
			t.Errorf("%T: empty: %v", rule, err)
		}
		if _, err := rule.Build([]profile.Server{{Name: "a", Weight: 0}}, nil); err == nil || !strings.Contains(err.Error(), "≥ 1") {
			t.Errorf("%T: weight 0: %v", rule, err)
		}
		if _, err := rule.Build([]profile.Server{{Name: "a", Weight: 1 << 30}}, nil); err == nil {
			t.Errorf("%T: huge weight accepted", rule)
		}
	}
	dup := []profile.Server{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "a", Weight: 2}}
	if _, err := NewRing(dup); err == nil || !strings.Contains(err.Error(), `servers 1 and 3 are both "a"`) {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := NewPlain(dup); err != nil {
		t.Errorf("plain refuses duplicate names, which it does not hash: %v", err)
	}
}

func TestNewOptions(t *testing.T) {
	if (Options{}).Effective() != (Options{}) {
		t.Fatal("Effective changed the zero Options")
	}
	r, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(plainRule); !ok {
		t.Fatalf("default rule %T, want plain hash", r)
	}
	r, err = New(Options{Consistent: true})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := r.Build(servers([]int{1, 2}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pl.(profile.Continuum); !ok {
		t.Fatalf("consistent placement %T is not a Continuum", pl)
	}
	if got := r.Hash([]byte("123456789")); got != 0xcbf43926 {
		t.Fatalf("Hash = %#x", got)
	}
}

// One server: nginx round-robins a single peer, which is that server, or
// nothing when it is down.
func TestSingleAndAllDown(t *testing.T) {
	for _, rule := range []profile.Rule{consistentRule{}, plainRule{}} {
		one := servers([]int{1})
		pl, _ := rule.Build(one, nil)
		for _, k := range testKeys(200) {
			if got := pl.Owners(rule.Hash(k), 3, nil); !slices.Equal(got, []int{0}) {
				t.Fatalf("%T one server: %v", rule, got)
			}
		}
		one[0].Down = true
		pl, _ = rule.Build(one, nil)
		if got := pl.Owners(rule.Hash([]byte("k")), 1, nil); len(got) != 0 {
			t.Fatalf("%T one down server: %v", rule, got)
		}
		all := servers([]int{1, 2, 3}, 1, 2, 3)
		for i := range all {
			all[i].Down = true
		}
		pl, _ = rule.Build(all, nil)
		for _, k := range testKeys(50) {
			if got := pl.Owners(rule.Hash(k), 2, []int{9}); !slices.Equal(got, []int{9}) {
				t.Fatalf("%T all down: %v", rule, got)
			}
		}
	}
}

// Keys are hashed as raw bytes: long, non-ASCII, invalid UTF-8 and empty.
func TestKeyShapes(t *testing.T) {
	r := mustRing(t, servers([]int{1, 2, 3}))
	keys := [][]byte{nil, []byte("キー"), []byte("🔑"), []byte("e\u0301"), {0xff, 0xfe}, []byte(strings.Repeat("long", 5000))}
	for _, k := range keys {
		h := consistentRule{}.Hash(k)
		if h != uint64(crc32.ChecksumIEEE(k)) {
			t.Fatalf("Hash(%q) = %#x", k, h)
		}
		pts, _ := r.Points()
		if got := r.Owners(h, 1, nil)[0]; got != linearOwner(pts, uint32(h)) {
			t.Fatalf("%q: %d", k, got)
		}
		if p := (plainRule{}).Hash(k); p>>32 != uint64(len(k)) {
			t.Fatalf("plain position of %d bytes: %#x", len(k), p)
		}
	}
}

// Weights: the share of keys follows the weights under both rules.
func TestWeightsShare(t *testing.T) {
	s := servers([]int{1, 2}, 1, 3)
	for _, rule := range []profile.Rule{consistentRule{}, plainRule{}} {
		pl, _ := rule.Build(s, nil)
		n := 0
		keys := testKeys(20000)
		for _, k := range keys {
			if pl.Owners(rule.Hash(k), 1, nil)[0] == 0 {
				n++
			}
		}
		if f := float64(n) / float64(len(keys)); f < 0.2 || f > 0.3 {
			t.Errorf("%T: weight 1 of 4 got %.3f of the keys", rule, f)
		}
	}
}

// plainReference is nginx's plain-hash loop written from the source's
// formula with string concatenation, independent of the CRC arithmetic:
// it returns the picks (distinct live servers) and whether the 20-try
// limit was hit first.
func plainReference(key []byte, s []profile.Server, want int) ([]int, bool) {
	total := 0
	for _, x := range s {
		total += x.Weight
	}
	var picks []int
	var sum uint32
	tries := 0
	for rehash := 0; len(picks) < want; rehash++ {
		b := key
		if rehash > 0 {
			b = append([]byte(strconv.Itoa(rehash)), key...)
		}
		sum += crc32.ChecksumIEEE(b) >> 16 & 0x7fff
		w := int(sum % uint32(total))
		p := 0
		for w >= s[p].Weight {
			w -= s[p].Weight
			p++
		}
		if s[p].Down || slices.Contains(picks, p) {
			if tries++; tries > 20 {
				return picks, true
			}
			continue
		}
		picks = append(picks, p)
	}
	return picks, false
}

func TestPlainMatchesReference(t *testing.T) {
	s := servers([]int{1, 2, 3, 4, 5}, 2, 1, 3, 1, 2)
	s[1].Down = true
	p := mustPlain(t, s)
	for _, k := range testKeys(3000) {
		pos := PlainPosition(k)
		for want := 1; want <= 4; want++ {
			ref, gaveUp := plainReference(k, s, want)
			got := p.Owners(pos, want, nil)
			if !gaveUp && !slices.Equal(got, ref) {
				t.Fatalf("%q r=%d: %v, want %v", k, want, got, ref)
			}
			if gaveUp && !slices.Equal(got[:len(ref)], ref) {
				t.Fatalf("%q r=%d: %v, want prefix %v", k, want, got, ref)
			}
			if p.Fallback(pos, want) != gaveUp {
				t.Fatalf("%q r=%d: Fallback %v, reference %v", k, want, !gaveUp, gaveUp)
			}
		}
	}
}

// When nginx would give up, Plain still answers, with the live servers in
// configuration order after the hashed picks.
func TestPlainFallback(t *testing.T) {
	s := servers([]int{1, 2, 3, 4}, 50, 50, 1, 50)
	s[0].Down, s[1].Down, s[3].Down = true, true, true
	p := mustPlain(t, s)
	fell := 0
	for _, k := range testKeys(500) {
		pos := PlainPosition(k)
		if got := p.Owners(pos, 2, nil); !slices.Equal(got, []int{2}) {
			t.Fatalf("%q: %v, want [2]", k, got)
		}
		if p.Fallback(pos, 1) {
			fell++
		}
	}
	// a 1-in-151 server is found within 21 tries for about 13% of keys
	if fell < 300 {
		t.Fatalf("only %d of 500 keys fell back", fell)
	}
}

// Ring.Fallback counts nginx's moves: past 20, round robin.
func TestRingFallback(t *testing.T) {
	s := servers([]int{1, 2}, 100, 1)
	s[0].Down = true
	r := mustRing(t, s)
	fell := 0
	for _, k := range testKeys(500) {
		h := uint64(KeyHash(k))
		if got := r.Owners(h, 1, nil); !slices.Equal(got, []int{1}) {
			t.Fatalf("%q: %v", k, got)
		}
		// reference: count down points walked from the start
		pts, _ := r.Points()
		i := slices.IndexFunc(pts, func(p profile.Point) bool { return p.Pos >= h })
		if i < 0 {
			i = 0
		}
		moves := 0
		for pts[(i+moves)%len(pts)].Server == 0 {
			moves++
		}
		if want := moves > 20; r.Fallback(h, 1) != want {
			t.Fatalf("%q: Fallback %v, %d moves", k, !want, moves)
		}
		if moves > 20 {
			fell++
		}
	}
	if fell < 400 {
		t.Fatalf("only %d of 500 keys fell back", fell)
	}
	// all live: r = 2 needs one move (back onto the first pick's point) at least
	r = mustRing(t, servers([]int{1, 2, 3}))
	for _, k := range testKeys(200) {
		h := uint64(KeyHash(k))
		if r.Fallback(h, 1) {
			t.Fatalf("%q falls back with every server live", k)
		}
		if r.Fallback(h, 23) != false { // capped at 3 live servers
			t.Fatalf("%q: r above the live count", k)
		}
	}
}

func TestOwnersAllocFree(t *testing.T) {
	s := servers([]int{1, 2, 3, 4, 5, 6}, 2, 1, 3, 1, 2, 1)
	s[3].Down = true
	keys := testKeys(100)
	for _, rule := range []profile.Rule{consistentRule{}, plainRule{}} {
		pl, _ := rule.Build(s, nil)
		hs := make([]uint64, len(keys))
		for i, k := range keys {
			hs[i] = rule.Hash(k)
		}
		dst := make([]int, 0, 8)
		allocs := testing.AllocsPerRun(20, func() {
			for _, h := range hs {
				dst = pl.Owners(h, 3, dst[:0])
			}
		})
		if allocs != 0 {
			t.Errorf("%T: %v allocations per run", rule, allocs)
		}
	}
}

// BenchmarkOwners: one lookup of r = 1 and of r = 3 over 16 servers.
func BenchmarkOwners(b *testing.B) {
	s := servers([]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	s[5].Down = true
	keys := testKeys(1024)
	for _, rule := range []profile.Rule{consistentRule{}, plainRule{}} {
		pl, _ := rule.Build(s, nil)
		hs := make([]uint64, len(keys))
		for i, k := range keys {
			hs[i] = rule.Hash(k)
		}
		for _, r := range []int{1, 3} {
			b.Run(fmt.Sprintf("%T/r%d", rule, r), func(b *testing.B) {
				dst := make([]int, 0, 4)
				for i := 0; b.Loop(); i++ {
					dst = pl.Owners(hs[i&1023], r, dst[:0])
				}
			})
		}
	}
}
