package elasticsearch

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// TestMurmur3HashFunctionVectors checks testKnownValues of elastic/
// elasticsearch server/src/test/java/org/elasticsearch/cluster/routing/
// operation/hash/murmur3/Murmur3HashFunctionTests.java (main, 2025).
func TestMurmur3HashFunctionVectors(t *testing.T) {
	for _, c := range []struct {
		key  string
		want uint32
	}{
		{"hell", 0x5a0cb7c3},
		{"hello", 0xd7c31989},
		{"hello w", 0x22ab2984},
		{"hello wo", 0xdf0ca123},
		{"hello wor", 0xe7744d61},
		{"The quick brown fox jumps over the lazy dog", 0xe07db09c},
		{"The quick brown fox jumps over the lazy cog", 0x4e63d2ad},
	} {
		if got := RoutingHash([]byte(c.key)); got != c.want {
			t.Errorf("hash(%q) = %#x, want %#x", c.key, got, c.want)
		}
	}
}

// TestRoutingHashIsUTF16 compares RoutingHash with Murmur3 over the
// explicit UTF-16LE bytes, for BMP, supplementary and malformed input.
func TestRoutingHashIsUTF16(t *testing.T) {
	for _, c := range []struct {
		key   string
		utf16 []byte
	}{
		{"", nil},
		{"a", []byte{'a', 0}},
		{"é", []byte{0xe9, 0}},
		{"日本", []byte{0xe5, 0x65, 0x2c, 0x67}},
		{"😀", []byte{0x3d, 0xd8, 0x00, 0xde}}, // U+1F600 = D83D DE00
		{"a😀b", []byte{'a', 0, 0x3d, 0xd8, 0x00, 0xde, 'b', 0}},
		{"\xff", []byte{0xfd, 0xff}}, // malformed → U+FFFD
	} {
		if got, want := RoutingHash([]byte(c.key)), Murmur3(c.utf16); got != want {
			t.Errorf("RoutingHash(%q) = %#x, Murmur3(utf16) = %#x", c.key, got, want)
		}
	}
}

// TestCalculateNumRoutingShards checks testCalculateNumRoutingShards of
// server/src/test/java/org/elasticsearch/cluster/metadata/
// MetadataCreateIndexServiceTests.java (main, 2025).
func TestCalculateNumRoutingShards(t *testing.T) {
	for _, c := range [][2]int{{1, 1024}, {2, 1024}, {3, 768}, {9, 576}, {512, 1024}, {1024, 2048}, {2048, 4096}, {5, 640}} {
		if got := CalculateNumRoutingShards(c[0]); got != c[1] {
			t.Errorf("calculateNumRoutingShards(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}

// TestShard: floorMod of the signed hash, then the routing factor.
func TestShard(t *testing.T) {
	r := mustRule(t, Options{Shards: 5})
	h := r.Hash([]byte("user-42"))
	if int32(uint32(h)) != -1591625367 {
		t.Fatalf("hash(user-42) = %d", int32(uint32(h)))
	}
	// floorMod(−1591625367, 640) = 233; 233 / 128 = 1.
	if got := r.Shard(h); got != 1 {
		t.Fatalf("shard of user-42 over 5 = %d, want 1", got)
	}
	if got := Shard(uint64(uint32(0x80000000)), 1, 1024); got != 0 {
		t.Fatalf("MinInt32 → %d", got)
	}
	if got := Shard(uint64(uint32(0xffffffff)), 4, 1024); got != 3 { // −1 mod 1024 = 1023
		t.Fatalf("−1 → %d, want 3", got)
	}
}

// TestSplitKeepsDocumentsInTheirSourceShard: after a split, every key's
// target shard divided by the factor is its source shard (selectSplitShard),
// and after a shrink, its source shard divided by the factor is its target
// (selectShrinkShards).
func TestSplitKeepsDocumentsInTheirSourceShard(t *testing.T) {
	src := Options{Shards: 3}.Effective()
	split, err := Resize(src, 12)
	if err != nil {
		t.Fatal(err)
	}
	shrunk, err := Resize(split, 6)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		h := uint64(RoutingHash(fmt.Appendf(nil, "doc-%d", i)))
		s3 := Shard(h, 3, src.RoutingNumShards)
		s12 := Shard(h, 12, split.RoutingNumShards)
		s6 := Shard(h, 6, shrunk.RoutingNumShards)
		if s12/4 != s3 || s12/2 != s6 {
			t.Fatalf("doc-%d: shards 3:%d 12:%d 6:%d", i, s3, s12, s6)
		}
	}
}

func TestCheckResize(t *testing.T) {
	ok := [][3]int{{1, 7, 1024}, {5, 10, 640}, {5, 640, 640}, {12, 4, 768}, {12, 1, 768}, {6, 6, 768}, {3, 24, 768}}
	for _, c := range ok {
		if err := CheckResize(c[0], c[1], c[2]); err != nil {
			t.Errorf("CheckResize%v: %v", c, err)
		}
	}
	for _, c := range []struct {
		args [3]int
		want string
	}{
		{[3]int{5, 12, 640}, "the number of source shards [5] must be a factor of [12]; allowed: 10, 20, 40, 80, 160, 320, 640"},
		{[3]int{5, 15, 640}, "the number of routing shards [640] must be a multiple of the target shards [15]; allowed: 10, 20"},
		{[3]int{12, 5, 768}, "the number of source shards [12] must be a multiple of [5]; allowed: 1, 2, 3, 4, 6"},
		{[3]int{5, 10, 5}, "allowed: none (routing_num_shards 5 allows no split of 5 shards)"},
		{[3]int{1, 2000, 1024}, "shard counts are 1 to 1024"},
	} {
		err := CheckResize(c.args[0], c.args[1], c.args[2])
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckResize%v = %v, want %q", c.args, err, c.want)
		}
	}
	o, err := Resize(Options{}, 6)
	if err != nil || o.Shards != 6 || o.RoutingNumShards != 768 {
		t.Fatalf("split of a 1-shard index: %+v, %v (the target gets its own default)", o, err)
	}
}

func TestOptions(t *testing.T) {
	e := Options{}.Effective()
	if e.Shards != 1 || e.RoutingNumShards != 1024 || e.RoutingPartitionSize != 1 || *e.Replicas != 1 {
		t.Fatalf("Effective = %+v", e)
	}
	zero := 0
	if e := (Options{Replicas: &zero}).Effective(); *e.Replicas != 0 {
		t.Fatal("explicit 0 replicas lost")
	}
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Shards: 1025}, "shards 1025 is out of range"},
		{Options{Shards: 8, RoutingNumShards: 4}, "index.number_of_routing_shards [4] must be >= index.number_of_shards [8]"},
		{Options{Shards: 2, RoutingNumShards: 3}, "the number of source shards [2] must be a factor of [3]"},
		{Options{RoutingPartitionSize: 2}, "routing_partition_size 2 is not modelled"},
	} {
		if _, err := New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want %q", c.o, err, c.want)
		}
	}
}

func mustRule(t *testing.T, o Options) *Rule {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r.(*Rule)
}

func nodes(names ...string) []profile.Server {
	out := make([]profile.Server, len(names))
	for i, n := range names {
		out[i] = profile.Server{Name: n, Weight: 1}
	}
	return out
}

func layout(p *Placement) string {
	var b strings.Builder
	for s := range p.Shards() {
		fmt.Fprint(&b, p.Copies(s))
	}
	return b.String()
}

func build(t *testing.T, r *Rule, ss []profile.Server, prev profile.Placement) *Placement {
	t.Helper()
	p, err := r.Build(ss, prev)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Placement)
}

func TestAllocation(t *testing.T) {
	r := mustRule(t, Options{Shards: 4})
	p0 := build(t, r, nodes("a", "b", "c"), nil)
	if got, want := layout(p0), "[a b][b c][c a][a b]"; got != want {
		t.Fatalf("initial %s, want %s", got, want)
	}
	// d joins: copies move onto it until counts differ by at most one.
	p1 := build(t, r, nodes("a", "b", "c", "d"), p0)
	counts := map[string]int{}
	for s := range p1.Shards() {
		cs := p1.Copies(s)
		if len(cs) != 2 || cs[0] == cs[1] {
			t.Fatalf("shard %d copies %v", s, cs)
		}
		for _, n := range cs {
			counts[n]++
		}
	}
	if counts["a"] != 2 || counts["b"] != 2 || counts["c"] != 2 || counts["d"] != 2 {
		t.Fatalf("counts after d joins %v (%s)", counts, layout(p1))
	}
	// b fails: its primaries are taken over by their replicas.
	ss := nodes("a", "b", "c", "d")
	ss[1].Down = true
	p2 := build(t, r, ss, p1)
	for s := range p2.Shards() {
		before, after := p1.Copies(s), p2.Copies(s)
		if before[0] == "b" && after[0] != before[1] {
			t.Fatalf("shard %d: %v → %v: the replica must be promoted", s, before, after)
		}
		if slices.Contains(after, "b") {
			t.Fatalf("shard %d on the Down node: %v", s, after)
		}
	}
	// Owners: primary first, never the Down node, and no allocation.
	dst := make([]int, 0, 2)
	for i := range 500 {
		h := r.Hash(fmt.Appendf(nil, "k%d", i))
		got := p2.Owners(h, 2, dst[:0])
		want := p2.Copies(r.Shard(h))
		if len(got) != 2 || ss[got[0]].Name != want[0] || ss[got[1]].Name != want[1] {
			t.Fatalf("Owners = %v, copies %v", got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { dst = p2.Owners(77, 2, dst[:0]) }); n != 0 {
		t.Fatalf("Owners allocates %v times", n)
	}
}

func TestAllocationEdges(t *testing.T) {
	zero := 0
	r := mustRule(t, Options{Shards: 3, Replicas: &zero})
	p := build(t, r, nodes("solo"), nil)
	if got := layout(p); got != "[solo][solo][solo]" {
		t.Fatalf("one node: %s", got)
	}
	three := 3
	r2 := mustRule(t, Options{Shards: 2, Replicas: &three})
	p = build(t, r2, nodes("a", "b"), nil)
	if got := layout(p); got != "[a b][b a]" {
		t.Fatalf("more replicas than nodes: %s", got)
	}
	ss := nodes("a", "b")
	ss[0].Down, ss[1].Down = true, true
	p = build(t, r2, ss, p)
	if got := p.Owners(0, 2, nil); len(got) != 0 {
		t.Fatalf("all down: %v", got)
	}
	if _, err := r2.Build(nodes("a", "a"), nil); err == nil {
		t.Fatal("duplicate names must fail")
	}
}

// TestResizeBuild: a split starts each target shard on its source shard's
// nodes; an invalid resize or a wrong routing_num_shards fails.
func TestResizeBuild(t *testing.T) {
	src := mustRule(t, Options{Shards: 2})
	p0 := build(t, src, nodes("a", "b", "c", "d"), nil)
	o, err := Resize(src.o, 4)
	if err != nil {
		t.Fatal(err)
	}
	dst := mustRule(t, o)
	p1 := build(t, dst, nodes("a", "b", "c", "d"), p0)
	if p1.Shards() != 4 {
		t.Fatalf("shards %d", p1.Shards())
	}
	if _, err := mustRule(t, Options{Shards: 3}).Build(nodes("a", "b"), p0); err == nil {
		t.Fatal("2 → 3 shards must fail")
	}
	if _, err := mustRule(t, Options{Shards: 4, RoutingNumShards: 4}).Build(nodes("a", "b"), p0); err == nil {
		t.Fatal("a routing_num_shards that does not follow from the resize must fail")
	}
}

func TestLongAndEmptyKeys(t *testing.T) {
	r := mustRule(t, Options{Shards: 7})
	for _, k := range []string{"", strings.Repeat("路由🔑", 200), "{user1}.x", "e\u0301", "שלום"} {
		if s := r.Shard(r.Hash([]byte(k))); s < 0 || s >= 7 {
			t.Fatalf("shard of %q = %d", k, s)
		}
	}
}
