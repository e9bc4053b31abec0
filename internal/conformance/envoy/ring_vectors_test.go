// Package envoy_test checks internal/profile/envoy against Envoy's own
// expectations. Envoy and gRPC C-core are not in Debian, so the reference is
// Envoy's unit tests, whose expected rings, tables and lookups are pinned
// here as vectors (ring_vectors_test.go, maglev_vectors_test.go), and the
// real hash code Envoy links: libstdc++'s std::_Hash_bytes (murmur_hash_2)
// and the xxHash library, compiled against with g++ (hashes_test.go); and
// Envoy's weight arithmetic replayed in C++ doubles by g++ over random
// memberships (arith_test.go). stories_test.go replays membership changes
// and checks the documented effects.
package envoy_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/envoy"
)

// Source of the ring vectors: envoyproxy/envoy
// test/extensions/load_balancing_policies/ring_hash/ring_hash_lb_test.cc at
// commit 39a8cf0ebd17c3055298d5686aa1fdf7aa070a4f on main. Host
// indexes below are positions in the test's host list.
const ringTestSource = "envoy ring_hash_lb_test.cc @ 39a8cf0ebd17c3055298d5686aa1fdf7aa070a4f"

// ports returns servers named 127.0.0.1:<port> for each port, weight 1.
func ports(ps ...int) []profile.Server {
	s := make([]profile.Server, len(ps))
	for i, p := range ps {
		s[i] = profile.Server{Name: fmt.Sprintf("127.0.0.1:%d", p), Weight: 1}
	}
	return s
}

// portRange returns ports lo..hi.
func portRange(lo, hi int) []profile.Server {
	var ps []int
	for p := lo; p <= hi; p++ {
		ps = append(ps, p)
	}
	return ports(ps...)
}

// named returns servers with the given names, weight 1.
func named(names ...string) []profile.Server {
	s := make([]profile.Server, len(names))
	for i, n := range names {
		s[i] = profile.Server{Name: n, Weight: 1}
	}
	return s
}

// withWeights sets the servers' weights in order.
func withWeights(s []profile.Server, w ...int) []profile.Server {
	for i := range s {
		s[i].Weight = w[i]
	}
	return s
}

// allDown marks every server Down.
func allDown(s []profile.Server) []profile.Server {
	out := append([]profile.Server(nil), s...)
	for i := range out {
		out[i].Down = true
	}
	return out
}

// buildRing builds a ring placement or fails the test.
func buildRing(t *testing.T, o envoy.RingOptions, servers []profile.Server) *envoy.RingPlacement {
	t.Helper()
	rule, err := envoy.NewRing(o)
	if err != nil {
		t.Fatalf("NewRing(%+v): %v", o, err)
	}
	p, err := rule.Build(servers, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p.(*envoy.RingPlacement)
}

// owner returns the primary owner of h, or -1.
func owner(p profile.Placement, h uint64) int {
	o := p.Owners(h, 1, nil)
	if len(o) == 0 {
		return -1
	}
	return o[0]
}

// ringPoint is one expected ring point: the test's host index and hash.
type ringPoint struct {
	host int
	hash uint64
}

// checkPoints compares the ring's points with the expected ones in order.
func checkPoints(t *testing.T, p *envoy.RingPlacement, want []ringPoint) {
	t.Helper()
	got, bits := p.Points()
	if bits != 64 {
		t.Errorf("Points bits = %d, want 64", bits)
	}
	if len(got) != len(want) {
		t.Fatalf("ring has %d points, want %d", len(got), len(want))
	}
	for i, w := range want {
		if got[i].Server != w.host || got[i].Pos != w.hash {
			t.Errorf("point %d = host %d hash %d, want host %d hash %d (%s)", i, got[i].Server, got[i].Pos, w.host, w.hash, ringTestSource)
		}
	}
}

// checkStats compares the ring_hash_lb.size, min_hashes_per_host and
// max_hashes_per_host gauges.
func checkStats(t *testing.T, p *envoy.RingPlacement, size, lo, hi uint64) {
	t.Helper()
	gl, gh := p.HashesPerHost()
	if p.Size() != size || gl != lo || gh != hi {
		t.Errorf("size %d, hashes per host %d–%d; want %d, %d–%d (%s)", p.Size(), gl, gh, size, lo, hi, ringTestSource)
	}
}

// checkLookups compares primary owners for the given hashes.
func checkLookups(t *testing.T, p profile.Placement, want map[uint64]int) {
	t.Helper()
	for h, w := range want {
		if g := owner(p, h); g != w {
			t.Errorf("chooseHost(%d) = host %d, want %d (%s)", h, g, w, ringTestSource)
		}
	}
}

// histogram counts the primary owners of i·(2⁶⁴−1)/n for i < n, as the
// *LargeRing and *FractionalScale tests do.
func histogram(p profile.Placement, hosts, n int) []int {
	counts := make([]int, hosts)
	step := uint64(math.MaxUint64) / uint64(n)
	for i := 0; i < n; i++ {
		counts[owner(p, uint64(i)*step)]++
	}
	return counts
}

// basicRing is the ring of the Basic test: hosts :90–:95, ring size 12.
var basicRing = []ringPoint{
	{4, 833437586790550860}, {2, 928266305478181108}, {0, 1033482794131418490},
	{5, 3551244743356806947}, {3, 3851675632748031481}, {1, 5583722120771150861},
	{1, 6311230543546372928}, {3, 7700377290971790572}, {5, 13144177310400110813},
	{2, 13444792449719432967}, {4, 15516499411664133160}, {0, 16117243373044804889},
}

// TestRingBasic is RingHashLoadBalancerTest.Basic, including its panic
// step: with every host unhealthy Envoy builds the ring from all of them.
func TestRingBasic(t *testing.T) {
	hosts := portRange(90, 95)
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 12}, hosts)
	checkStats(t, p, 12, 2, 2)
	checkPoints(t, p, basicRing)
	checkLookups(t, p, map[uint64]int{
		0: 4, math.MaxUint64: 4, 3551244743356806947: 5, 3551244743356806948: 3,
		16117243373044804880: 0, // the random value of chooseHost(nullptr)
	})
	if p.Panic() {
		t.Error("all hosts healthy, yet panic")
	}
	panicked := buildRing(t, envoy.RingOptions{MinimumRingSize: 12}, allDown(hosts))
	if !panicked.Panic() {
		t.Error("no host healthy, yet no panic (Envoy counts lb_healthy_panic here)")
	}
	checkPoints(t, panicked, basicRing)
	checkLookups(t, panicked, map[uint64]int{0: 4})
}

// TestRingBasicWithMurmur2 is BasicWithMurmur2: hosts :80–:85 hashed with
// MURMUR_HASH_2.
func TestRingBasicWithMurmur2(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 12, HashFunction: "MURMUR_HASH_2"}, portRange(80, 85))
	checkStats(t, p, 12, 2, 2)
	checkPoints(t, p, []ringPoint{
		{5, 1358027074129602068}, {3, 4361834613929391114}, {4, 7224494972555149682},
		{1, 7701421856454313576}, {2, 8649315368077433379}, {4, 8739448859063030639},
		{1, 9887544217113020895}, {2, 10150910876324007731}, {3, 15168472011420622455},
		{0, 15427156902705414897}, {5, 16375050414328759093}, {0, 17613279263364193813},
	})
	checkLookups(t, p, map[uint64]int{
		0: 5, math.MaxUint64: 5, 1358027074129602068: 5, 1358027074129602069: 3,
		10150910876324007730: 2,
	})
}

// hostnameRing is the ring of BasicWithHostname and BasicWithMetadataHashKey:
// hosts hashed by the names "90"–"95".
var hostnameRing = []ringPoint{
	{5, 1975508444536362413}, {5, 2376063919839173711}, {3, 2386806903309390596},
	{4, 6749904478991551885}, {3, 6803900775736438537}, {2, 7225015537174310577},
	{0, 8787465352164086522}, {2, 11282020843382717940}, {1, 13723418369486627818},
	{0, 13776502110861797421}, {1, 14338313586354474791}, {4, 15364271037087512980},
}

// TestRingBasicWithHostname is BasicWithHostname (use_hostname_for_hashing)
// and BasicWithMetadataHashKey (an envoy.lb hash_key), which build the same
// ring: in ringreport both are servers named "90"–"95".
func TestRingBasicWithHostname(t *testing.T) {
	hosts := named("90", "91", "92", "93", "94", "95")
	o := envoy.RingOptions{MinimumRingSize: 12, UseHostnameForHashing: true}
	p := buildRing(t, o, hosts)
	checkStats(t, p, 12, 2, 2)
	checkPoints(t, p, hostnameRing)
	checkLookups(t, p, map[uint64]int{
		0: 5, math.MaxUint64: 5, 7225015537174310577: 2, 6803900775736438537: 3,
	})
	panicked := buildRing(t, o, allDown(hosts))
	checkLookups(t, panicked, map[uint64]int{0: 5})
}

// TestRingBasicWithRetryHostPredicate is BasicWithRetryHostPredicate: attempt
// a reads the point after the chosen one a times over, so a retry that
// rejects the first host gets :92, and the distinct-host order from hash 0
// is the ring order :94 :92 :90 :95 :93 :91.
func TestRingBasicWithRetryHostPredicate(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 12}, portRange(90, 95))
	if got := p.Owners(0, 2, nil); fmt.Sprint(got) != "[4 2]" {
		t.Errorf("Owners(0, 2) = %v, want [4 2]: a retry rejecting :94 picks :92 (%s)", got, ringTestSource)
	}
	if got := p.Owners(0, 6, nil); fmt.Sprint(got) != "[4 2 0 5 3 1]" {
		t.Errorf("Owners(0, 6) = %v, want [4 2 0 5 3 1]", got)
	}
	// Retries wrap around the ring: from the last point (:90) the walk
	// continues at point 0.
	if got := p.Owners(16117243373044804889, 3, nil); fmt.Sprint(got) != "[0 4 2]" {
		t.Errorf("Owners(last point, 3) = %v, want [0 4 2]", got)
	}
}

// TestRingUnevenHosts is UnevenHosts: two hosts and minimum_ring_size 3 give
// two points each; then :80 is replaced by :82.
func TestRingUnevenHosts(t *testing.T) {
	o := envoy.RingOptions{MinimumRingSize: 3}
	p := buildRing(t, o, ports(80, 81))
	checkStats(t, p, 4, 2, 2)
	checkPoints(t, p, []ringPoint{
		{0, 5454692015285649509}, {1, 7859399908942313493},
		{0, 13838424394637650569}, {1, 16064866803292627174},
	})
	checkLookups(t, p, map[uint64]int{0: 0})
	p = buildRing(t, o, ports(81, 82))
	checkPoints(t, p, []ringPoint{
		{0, 7859399908942313493}, {1, 8241336090459785962},
		{1, 12882406409176325258}, {0, 16064866803292627174},
	})
	checkLookups(t, p, map[uint64]int{0: 0})
}

// TestRingHostWeightedTinyRing is HostWeightedTinyRing: weights 1, 2, 3 on
// a ring of exactly 6.
func TestRingHostWeightedTinyRing(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 6, MaximumRingSize: 6}, withWeights(portRange(90, 92), 1, 2, 3))
	checkStats(t, p, 6, 1, 3)
	checkLookups(t, p, map[uint64]int{
		928266305478181108: 2, 4443673547860492590: 2, 5583722120771150861: 1,
		6311230543546372928: 1, 13444792449719432967: 2, 16117243373044804889: 0,
	})
}

// TestRingHostWeightedLargeRing is HostWeightedLargeRing: weights 1, 2, 3,
// minimum_ring_size 6144, and 6000 evenly spaced lookups.
func TestRingHostWeightedLargeRing(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 6144}, withWeights(portRange(90, 92), 1, 2, 3))
	checkStats(t, p, 6144, 1024, 3072)
	if got := histogram(p, 3, 6000); fmt.Sprint(got) != "[987 1932 3081]" {
		t.Errorf("6000 lookups per host = %v, want [987 1932 3081] (%s)", got, ringTestSource)
	}
}

// TestRingSmallFractionalScale is SmallFractionalScale: four hosts on a ring
// of 2, so two hosts get no point and no traffic.
func TestRingSmallFractionalScale(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 2, MaximumRingSize: 2}, portRange(90, 93))
	checkStats(t, p, 2, 0, 1)
	zeroes, sum := 0, 0
	for _, c := range histogram(p, 4, 1024) {
		if c == 0 {
			zeroes++
		}
		sum += c
	}
	if zeroes != 2 || sum != 1024 {
		t.Errorf("%d hosts without traffic and %d lookups; want 2 and 1024", zeroes, sum)
	}
}

// TestRingLargeFractionalScale is LargeFractionalScale: two hosts on a ring
// of 1023 get 512 and 511 points.
func TestRingLargeFractionalScale(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{MinimumRingSize: 1023, MaximumRingSize: 1023}, portRange(90, 91))
	checkStats(t, p, 1023, 511, 512)
	if got := histogram(p, 2, 1023); fmt.Sprint(got) != "[526 497]" {
		t.Errorf("1023 lookups per host = %v, want [526 497] (%s)", got, ringTestSource)
	}
}

// TestRingBadRingSizeBounds is BadRingSizeBounds, and NoHost: no hosts, no
// owner.
func TestRingBadRingSizeBounds(t *testing.T) {
	_, err := envoy.NewRing(envoy.RingOptions{MinimumRingSize: 20, MaximumRingSize: 10})
	if err == nil || !strings.Contains(err.Error(), "minimum_ring_size (20) > maximum_ring_size (10)") {
		t.Errorf("min 20 > max 10: error %v, want Envoy's \"minimum_ring_size (20) > maximum_ring_size (10)\"", err)
	}
	p := buildRing(t, envoy.RingOptions{}, nil)
	if got := p.Owners(0, 1, nil); len(got) != 0 {
		t.Errorf("no hosts: Owners = %v, want none", got)
	}
}

// TestRingGRPCWithinCap checks the gRPC client on Envoy's vectors that fit
// its 4096 cap: the construction is the same (ring_hash.cc).
func TestRingGRPCWithinCap(t *testing.T) {
	p := buildRing(t, envoy.RingOptions{Client: "grpc", MinimumRingSize: 12}, portRange(90, 95))
	checkPoints(t, p, basicRing)
	p = buildRing(t, envoy.RingOptions{Client: "grpc", MinimumRingSize: 1023, MaximumRingSize: 1023}, portRange(90, 91))
	if got := histogram(p, 2, 1023); fmt.Sprint(got) != "[526 497]" {
		t.Errorf("gRPC LargeFractionalScale = %v, want [526 497]", got)
	}
	// Envoy's HostWeightedLargeRing (6144 points) is over gRPC's cap: gRPC
	// builds 4096 points instead.
	p = buildRing(t, envoy.RingOptions{Client: "grpc", MinimumRingSize: 6144, MaximumRingSize: 8192}, withWeights(portRange(90, 92), 1, 2, 3))
	if p.Size() != 4096 {
		t.Errorf("gRPC ring size = %d, want 4096 (the GRPC_ARG_RING_HASH_LB_RING_SIZE_CAP default)", p.Size())
	}
}
