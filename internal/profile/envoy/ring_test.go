package envoy

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// Source of the locality vectors: envoyproxy/envoy
// test/extensions/load_balancing_policies/ring_hash/ring_hash_lb_test.cc at
// commit 39a8cf0ebd17c3055298d5686aa1fdf7aa070a4f. ringreport's Options
// cannot express locality weights, so these drive the ring builder directly
// with weights normalised as normalizeLocalityWeights does.

// locHost is one host of a locality test: its port and weight.
type locHost struct{ port, weight int }

// localityBuildSet normalises hosts per locality as thread_aware_lb_impl.cc
// does: weight · (locality weight / Σ locality weights) / Σ weights in the
// locality, skipping localities of weight 0. server is the position in the
// flattened host list.
func localityBuildSet(localities [][]locHost, lw []int) (hw []hostWeight, minW, maxW float64) {
	minW, maxW = 1.0, 0.0
	sum := 0
	for _, w := range lw {
		sum += w
	}
	server := 0
	for i, hosts := range localities {
		hsum := 0
		for _, h := range hosts {
			hsum += h.weight
		}
		for _, h := range hosts {
			if lw[i] != 0 && sum != 0 {
				nlw := float64(lw[i]) / float64(sum)
				w := float64(h.weight) * nlw / float64(hsum)
				hw = append(hw, hostWeight{server: server, key: fmt.Sprintf("127.0.0.1:%d", h.port), weight: w})
				minW, maxW = min(minW, w), max(maxW, w)
			}
			server++
		}
	}
	return hw, minW, maxW
}

// histogramOf counts owners of i·(2⁶⁴−1)/n, i < n.
func histogramOf(p profile.Placement, hosts, n int) []int {
	counts := make([]int, hosts)
	step := uint64(math.MaxUint64) / uint64(n)
	for i := 0; i < n; i++ {
		counts[p.Owners(uint64(i)*step, 1, nil)[0]]++
	}
	return counts
}

// checkRingLookups compares primary owners.
func checkRingLookups(t *testing.T, p *RingPlacement, want map[uint64]int) {
	t.Helper()
	for h, w := range want {
		if got := p.Owners(h, 1, nil); len(got) != 1 || got[0] != w {
			t.Errorf("chooseHost(%d) = %v, want %d", h, got, w)
		}
	}
}

// checkRingStats compares size and hashes per host.
func checkRingStats(t *testing.T, p *RingPlacement, size, lo, hi uint64) {
	t.Helper()
	gl, gh := p.HashesPerHost()
	if p.Size() != size || gl != lo || gh != hi {
		t.Errorf("size %d, hashes per host %d–%d; want %d, %d–%d", p.Size(), gl, gh, size, lo, hi)
	}
}

// ringOf builds a locality ring and counts its available servers.
func ringOf(hw []hostWeight, minW float64, minRing, maxRing uint64, n int) *RingPlacement {
	p := buildRing(hw, minW, minRing, maxRing, false)
	p.countAvailable(n)
	return p
}

// TestRingLocalityVectors are LocalityWeightedTinyRing,
// LocalityWeightedLargeRing, HostAndLocalityWeightedTinyRing,
// HostAndLocalityWeightedLargeRing, LopsidedWeightSmallScale and
// ZeroLocalityWeights.
func TestRingLocalityVectors(t *testing.T) {
	four := [][]locHost{{{90, 1}}, {{91, 1}}, {{92, 1}}, {{93, 1}}}
	hw, minW, _ := localityBuildSet(four, []int{1, 2, 3, 0})
	p := ringOf(hw, minW, 6, 6, 4)
	checkRingStats(t, p, 6, 1, 3)
	checkRingLookups(t, p, map[uint64]int{
		928266305478181108: 2, 4443673547860492590: 2, 5583722120771150861: 1,
		6311230543546372928: 1, 13444792449719432967: 2, 16117243373044804889: 0,
	})
	p = ringOf(hw, minW, 6144, DefaultMaximumRingSize, 4)
	checkRingStats(t, p, 6144, 1024, 3072)
	if got := histogramOf(p, 4, 6000); fmt.Sprint(got) != "[987 1932 3081 0]" {
		t.Errorf("LocalityWeightedLargeRing counts %v, want [987 1932 3081 0]", got)
	}

	two := [][]locHost{{{90, 1}, {91, 2}}, {{92, 1}, {93, 2}}}
	hw, minW, _ = localityBuildSet(two, []int{1, 2})
	p = ringOf(hw, minW, 9, 9, 4)
	checkRingStats(t, p, 9, 1, 4)
	checkRingLookups(t, p, map[uint64]int{
		928266305478181108: 2, 3851675632748031481: 3, 5583722120771150861: 1,
		6311230543546372928: 1, 7700377290971790572: 3, 12559126875973811811: 3,
		13444792449719432967: 2, 13784988426630141778: 3, 16117243373044804889: 0,
	})
	p = ringOf(hw, minW, 9216, DefaultMaximumRingSize, 4)
	checkRingStats(t, p, 9216, 1024, 4096)
	if got := histogramOf(p, 4, 9000); fmt.Sprint(got) != "[924 2009 2053 4014]" {
		t.Errorf("HostAndLocalityWeightedLargeRing counts %v, want [924 2009 2053 4014]", got)
	}

	heavy := []locHost{{0, 1}}
	var light []locHost
	for i := 1; i < 1024; i++ {
		light = append(light, locHost{i, 1})
	}
	hw, minW, _ = localityBuildSet([][]locHost{heavy, light}, []int{127, 1})
	p = ringOf(hw, minW, 1024, 1024, 1024)
	checkRingStats(t, p, 1024, 0, 1016)
	checkRingLookups(t, p, map[uint64]int{
		11664790346325243808: 1, 15894554872961148518: 128, 13958138884277627155: 256,
		15803774069438192949: 384, 3829253010855396576: 512, 17918147347826565154: 640,
		6442769608292299103: 768, 5881074926069334434: 896,
	})

	hw, minW, _ = localityBuildSet([][]locHost{{{90, 1}}, {{91, 1}}}, []int{0, 0})
	if p = ringOf(hw, minW, 1024, DefaultMaximumRingSize, 2); len(p.Owners(0, 1, nil)) != 0 {
		t.Error("ZeroLocalityWeights: a host was chosen")
	}
}

// ketama is the lookup of ring_hash_lb.cc's chooseHost, written from its
// description (signed bounds, highp starting at the ring size), to check
// that RingPlacement.index, a lower bound, agrees with it.
func ketama(ring []uint64, h uint64) int {
	lowp, highp := int64(0), int64(len(ring))
	for {
		midp := (lowp + highp) / 2
		if midp == int64(len(ring)) {
			return 0
		}
		midval := ring[midp]
		midval1 := uint64(0)
		if midp > 0 {
			midval1 = ring[midp-1]
		}
		if h <= midval && h > midval1 {
			return int(midp)
		}
		if midval < h {
			lowp = midp + 1
		} else {
			highp = midp - 1
		}
		if lowp > highp {
			return 0
		}
	}
}

// TestRingIndexIsKetama compares the lookup with Envoy's ketama search on
// random rings with repeated hashes, a point at 0 and at 2⁶⁴−1.
func TestRingIndexIsKetama(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(40)
		hashes := make([]uint64, n)
		for i := range hashes {
			switch rng.IntN(6) {
			case 0:
				hashes[i] = 0
			case 1:
				hashes[i] = math.MaxUint64
			case 2:
				hashes[i] = uint64(rng.IntN(8)) // collisions
			default:
				hashes[i] = rng.Uint64()
			}
		}
		slicesSort(hashes)
		p := &RingPlacement{hashes: hashes, servers: make([]int32, n)}
		probes := []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1}
		for _, h := range hashes {
			probes = append(probes, h, h-1, h+1)
		}
		for i := 0; i < 20; i++ {
			probes = append(probes, rng.Uint64())
		}
		for _, h := range probes {
			if got, want := p.index(h), ketama(hashes, h); got != want {
				t.Fatalf("ring %v, h %d: index %d, ketama %d", hashes, h, got, want)
			}
		}
	}
}

// slicesSort sorts ascending (a tiny insertion sort keeps the test free of
// the code under test).
func slicesSort(a []uint64) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// servers returns n servers named 10.0.0.i:80, weight 1.
func servers(n int) []profile.Server {
	s := make([]profile.Server, n)
	for i := range s {
		s[i] = profile.Server{Name: fmt.Sprintf("10.0.0.%d:80", i+1), Weight: 1}
	}
	return s
}

// mustRing builds a ring or fails.
func mustRing(t *testing.T, o RingOptions, s []profile.Server) *RingPlacement {
	t.Helper()
	r, err := NewRing(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*RingPlacement)
}

// TestRingEdgeCases covers one server, every server down, r larger than the
// membership, long and non-ASCII names and the empty key.
func TestRingEdgeCases(t *testing.T) {
	one := mustRing(t, RingOptions{}, servers(1))
	checkRingStats(t, one, 1024, 1024, 1024)
	for _, key := range []string{"", "a", strings.Repeat("κλειδί", 40)} {
		if got := one.Owners(KeyHash([]byte(key)), 3, nil); fmt.Sprint(got) != "[0]" {
			t.Errorf("one server, key %q: owners %v, want [0]", key, got)
		}
	}

	s := servers(3)
	for i := range s {
		s[i].Down = true
	}
	all := mustRing(t, RingOptions{}, s)
	if !all.Panic() || len(all.Owners(7, 3, nil)) != 3 {
		t.Errorf("all down: panic %v, owners %v; Envoy panics and routes to all 3", all.Panic(), all.Owners(7, 3, nil))
	}
	none := mustRing(t, RingOptions{HealthyPanicThreshold: intPtr(0)}, s)
	if none.Panic() || len(none.Owners(7, 3, nil)) != 0 {
		t.Errorf("all down, threshold 0: panic %v, owners %v; want none", none.Panic(), none.Owners(7, 3, nil))
	}

	odd := []profile.Server{
		{Name: "用户-服务器-1", Weight: 1},
		{Name: "مستخدم:443", Weight: 2},
		{Name: strings.Repeat("very-long-hostname.", 20) + "example", Weight: 3},
		{Name: "🔑\u0301", Weight: 1},
	}
	p := mustRing(t, RingOptions{}, odd)
	pts, _ := p.Points()
	found := false
	for _, pt := range pts {
		if pt.Pos == XXH64([]byte("用户-服务器-1_0"), 0) && pt.Server == 0 {
			found = true
		}
	}
	if !found {
		t.Error(`no point xxHash64("用户-服务器-1_0") for server 0`)
	}
	if got := p.Owners(KeyHash(nil), 10, nil); len(got) != 4 {
		t.Errorf("r = 10 over 4 servers: owners %v, want all 4 once", got)
	}
	for i := 1; i < len(pts); i++ {
		if pts[i-1].Pos > pts[i].Pos {
			t.Fatalf("points out of order at %d", i)
		}
	}
}

// TestRingTies checks equal hashes keep creation order, the one order
// ringreport can promise where Envoy's std::sort promises none: two hosts
// with the same key put equal points on the ring, and the first host's
// come first.
func TestRingTies(t *testing.T) {
	hw := []hostWeight{{server: 0, key: "same", weight: 0.5}, {server: 1, key: "same", weight: 0.5}}
	p := ringOf(hw, 0.5, 4, 4, 2)
	pts, _ := p.Points()
	for i := 0; i < len(pts); i += 2 {
		if pts[i].Pos != pts[i+1].Pos || pts[i].Server != 0 || pts[i+1].Server != 1 {
			t.Fatalf("points %v: want pairs of equal hashes, server 0 first", pts)
		}
	}
	if got := p.Owners(pts[0].Pos, 2, nil); fmt.Sprint(got) != "[0 1]" {
		t.Errorf("tie: owners %v, want [0 1]", got)
	}
}

// TestRingOwnersAllocs checks Owners allocates nothing once dst has room.
func TestRingOwnersAllocs(t *testing.T) {
	p := mustRing(t, RingOptions{}, servers(10))
	dst := make([]int, 0, 8)
	h := uint64(12345)
	if n := testing.AllocsPerRun(200, func() { h += 0x9e3779b97f4a7c15; dst = p.Owners(h, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %v times", n)
	}
}

// TestRingOptions checks defaults, spellings and every validation error.
func TestRingOptions(t *testing.T) {
	e := RingOptions{}.Effective()
	if e.Client != "envoy" || e.MinimumRingSize != 1024 || e.MaximumRingSize != 8388608 || e.HashFunction != "xx_hash" ||
		*e.HealthyPanicThreshold != 50 || e.OverprovisioningFactor != 140 || e.RingSizeCap != 0 {
		t.Errorf("Envoy defaults: %+v", e)
	}
	g := RingOptions{Client: "gRPC"}.Effective()
	if g.Client != "grpc" || g.MinimumRingSize != 1024 || g.MaximumRingSize != 4096 || g.RingSizeCap != 4096 || g.HealthyPanicThreshold != nil {
		t.Errorf("gRPC defaults: %+v", g)
	}
	if m := (RingOptions{HashFunction: "MURMUR_HASH_2"}).Effective(); m.HashFunction != "murmur_hash_2" {
		t.Errorf("MURMUR_HASH_2 → %q", m.HashFunction)
	}
	for _, c := range []struct {
		o    RingOptions
		want string
	}{
		{RingOptions{Client: "nginx"}, `client "nginx" is not one of envoy, grpc`},
		{RingOptions{HashFunction: "md5"}, `hash_function "md5" is not one of xx_hash, murmur_hash_2`},
		{RingOptions{MinimumRingSize: 8388609}, "minimum_ring_size 8388609 is over the limit"},
		{RingOptions{MaximumRingSize: 1 << 24}, "maximum_ring_size 16777216 is over the limit"},
		{RingOptions{MinimumRingSize: 2048, MaximumRingSize: 1024}, "minimum_ring_size (2048) > maximum_ring_size (1024)"},
		{RingOptions{Client: "grpc", HashFunction: "murmur_hash_2"}, "gRPC's ring_hash always uses xx_hash"},
		{RingOptions{Client: "grpc", HealthyPanicThreshold: intPtr(10)}, "no panic mode"},
		{RingOptions{Client: "grpc", OverprovisioningFactor: 100}, "no panic mode"},
		{RingOptions{RingSizeCap: 100}, "ring_size_cap is gRPC's only"},
		{RingOptions{HealthyPanicThreshold: intPtr(101)}, "healthy_panic_threshold 101 is not a percentage"},
		{RingOptions{OverprovisioningFactor: -1}, "overprovisioning_factor -1 is negative"},
	} {
		_, err := NewRing(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewRing(%+v): error %v, want %q", c.o, err, c.want)
		}
	}
}

// TestRingServerErrors checks what Build refuses for Envoy.
func TestRingServerErrors(t *testing.T) {
	r, _ := NewRing(RingOptions{})
	for _, c := range []struct {
		s    []profile.Server
		want string
	}{
		{[]profile.Server{{Name: "", Weight: 1}}, "empty name"},
		{[]profile.Server{{Name: "a", Weight: 0}}, "weight 0"},
		{[]profile.Server{{Name: "a", Weight: 1}, {Name: "a", Weight: 1}}, `both named "a"`},
		{[]profile.Server{{Name: "a", Weight: math.MaxUint32}, {Name: "b", Weight: 1}}, "sum of the weights"},
	} {
		if _, err := r.Build(c.s, nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Build(%v): error %v, want %q", c.s, err, c.want)
		}
	}
}

// TestRingGRPCMergeAndWeights checks gRPC merges duplicate endpoints into
// the first, adding weights, and counts a weight ≤ 0 as 1.
func TestRingGRPCMergeAndWeights(t *testing.T) {
	o := RingOptions{Client: "grpc"}
	dup := []profile.Server{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "a", Weight: 2}}
	merged := []profile.Server{{Name: "a", Weight: 3}, {Name: "b", Weight: 1}}
	p, q := mustRing(t, o, dup), mustRing(t, o, merged)
	pp, _ := p.Points()
	qp, _ := q.Points()
	if fmt.Sprint(pp) != fmt.Sprint(qp) {
		t.Error("gRPC: a, b, a(2) is not the ring of a(3), b")
	}
	zero := mustRing(t, o, []profile.Server{{Name: "a", Weight: 0}, {Name: "b", Weight: -5}})
	ones := mustRing(t, o, []profile.Server{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}})
	zp, _ := zero.Points()
	op, _ := ones.Points()
	if fmt.Sprint(zp) != fmt.Sprint(op) {
		t.Error("gRPC: weights 0 and −5 do not count as 1")
	}
	s := servers(3)
	for i := range s {
		s[i].Down = true
	}
	if got := mustRing(t, o, s).Owners(1, 1, nil); len(got) != 0 {
		t.Errorf("gRPC, all down: owners %v, want none", got)
	}
}

// TestInPanic checks the panic decision against hand-computed cases of
// load_balancer_impl.cc's arithmetic.
func TestInPanic(t *testing.T) {
	for _, c := range []struct {
		total, healthy, threshold, over int
		want                            bool
	}{
		{6, 6, 50, 140, false},
		{6, 3, 50, 140, false}, // 50.0 < 50 is false
		{6, 2, 50, 140, true},  // health 46, 33.3 % < 50
		{6, 0, 50, 140, true},
		{6, 0, 0, 140, false},   // threshold 0: never
		{4, 3, 100, 140, false}, // health min(100, 105) = 100: never
		{6, 4, 80, 140, true},   // health 93, 66.7 % < 80
		{6, 5, 80, 140, false},  // health 116 → 100
		{6, 5, 90, 100, true},   // health 83, 83.3 % < 90
		{0, 0, 50, 140, false},
	} {
		if got := inPanic(c.total, c.healthy, c.threshold, c.over); got != c.want {
			t.Errorf("inPanic(total %d, healthy %d, threshold %d, factor %d) = %v, want %v", c.total, c.healthy, c.threshold, c.over, got, c.want)
		}
	}
}
