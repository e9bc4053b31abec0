package envoy

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// Source of the maglev locality vectors: envoyproxy/envoy
// test/extensions/load_balancing_policies/maglev/maglev_lb_test.cc at commit
// e7495d2690fac1d2c4041b7945959abbcb4f9eaa, driving the table builder
// directly with locality-normalised weights (see ring_test.go).

// sortedFill sorts the build set by key, as Build does, and fills m entries.
func sortedFill(hw []hostWeight, maxW float64, m uint64) *MaglevPlacement {
	slices.SortFunc(hw, func(a, b hostWeight) int { return strings.Compare(a.key, b.key) })
	return fillMaglev(hw, maxW, m)
}

// checkMaglev compares a table and its entry gauges.
func checkMaglev(t *testing.T, name string, p *MaglevPlacement, want []int, lo, hi uint64) {
	t.Helper()
	if got := p.Table(nil); want != nil && fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: table %v, want %v", name, got, want)
	}
	if gl, gh := p.EntriesPerHost(); gl != lo || gh != hi {
		t.Errorf("%s: entries per host %d–%d, want %d–%d", name, gl, gh, lo, hi)
	}
}

// TestMaglevLocalityVectors are LocalityWeightedSameLocalityWeights,
// LocalityWeightedDifferentLocalityWeights, LocalityWeightedGlobalPanic,
// LocalityWeightedAllZeroLocalityWeights and LocalityWeightedLopsided.
func TestMaglevLocalityVectors(t *testing.T) {
	same := []int{1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1}
	hw, _, maxW := localityBuildSet([][]locHost{{{90, 1}}, {{91, 2}}}, []int{1, 1})
	checkMaglev(t, "LocalityWeightedSameLocalityWeights", sortedFill(hw, maxW, 17), same, 8, 9)
	// GlobalPanic builds the same table from the unhealthy hosts.
	checkMaglev(t, "LocalityWeightedGlobalPanic", sortedFill(hw, maxW, 17), same, 8, 9)

	// Hosts :90 (A), :91 (C), :92 (B); localities listed A, B, C with
	// weights 8, 0, 2; servers numbered in host order.
	hw, _, maxW = localityBuildSet([][]locHost{{{90, 1}}, {{92, 3}}, {{91, 2}}}, []int{8, 0, 2})
	for i := range hw {
		hw[i].server = map[string]int{"127.0.0.1:90": 0, "127.0.0.1:91": 1, "127.0.0.1:92": 2}[hw[i].key]
	}
	checkMaglev(t, "LocalityWeightedDifferentLocalityWeights", sortedFill(hw, maxW, 17),
		[]int{1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0}, 4, 13)

	hw, _, maxW = localityBuildSet([][]locHost{{{90, 1}}}, []int{0})
	if p := sortedFill(hw, maxW, 17); len(p.Owners(0, 1, nil)) != 0 {
		t.Error("LocalityWeightedAllZeroLocalityWeights: a host was chosen")
	}

	heavy := []locHost{{0, 1}}
	var light []locHost
	for i := 1; i < 1024; i++ {
		light = append(light, locHost{i, 1})
	}
	hw, _, maxW = localityBuildSet([][]locHost{heavy, light}, []int{127, 1})
	p := sortedFill(hw, maxW, DefaultTableSize)
	checkMaglev(t, "LocalityWeightedLopsided", p, nil, 1, DefaultTableSize-1023)
	counts := make([]int, 1024)
	for _, s := range p.Table(nil) {
		counts[s]++
	}
	for i := 1; i < 1024; i++ {
		if counts[i] != 1 {
			t.Fatalf("LocalityWeightedLopsided: light host %d has %d entries, want 1", i, counts[i])
		}
	}
}

// mustMaglev builds a maglev table or fails.
func mustMaglev(t *testing.T, o MaglevOptions, s []profile.Server) *MaglevPlacement {
	t.Helper()
	r, err := NewMaglev(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*MaglevPlacement)
}

// TestMaglevRetryReachesEveryHost checks Owners lists every host with an
// entry, even one with a single entry among 65537, because attempts 1 …
// 2^17 flip the hash over every residue.
func TestMaglevRetryReachesEveryHost(t *testing.T) {
	s := servers(40)
	s[0].Weight = 100000 // every other host gets few entries
	p := mustMaglev(t, MaglevOptions{}, s)
	for _, h := range []uint64{0, 1, 1 << 63, ^uint64(0), 0x1234567890abcdef} {
		got := p.Owners(h, 40, nil)
		if len(got) != 40 {
			t.Errorf("Owners(%d, 40) found %d hosts", h, len(got))
		}
		seen := map[int]bool{}
		for _, x := range got {
			if seen[x] {
				t.Fatalf("Owners(%d) repeats %d", h, x)
			}
			seen[x] = true
		}
	}
	// The first attempts are Envoy's: h mod m, then (h ^ (2⁶⁴ − a)) mod m.
	table := p.Table(nil)
	h := uint64(987654321)
	want := []int{table[h%DefaultTableSize]}
	for a := uint64(1); len(want) < 3; a++ {
		x := table[(h^(-a))%DefaultTableSize]
		if !slices.Contains(want, x) {
			want = append(want, x)
		}
	}
	if got := p.Owners(h, 3, nil); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Owners(%d, 3) = %v, want %v", h, got, want)
	}
}

// TestMaglevEdgeCases covers tiny prime tables, more hosts than entries,
// one host, all hosts down with and without panic, and options.
func TestMaglevEdgeCases(t *testing.T) {
	for _, m := range []uint64{2, 3, 5} {
		p := mustMaglev(t, MaglevOptions{TableSize: m}, servers(3))
		if got := p.Table(nil); len(got) != int(m) {
			t.Errorf("m = %d: table %v", m, got)
		}
	}
	p := mustMaglev(t, MaglevOptions{TableSize: 7}, servers(10))
	if lo, hi := p.EntriesPerHost(); lo != 0 || hi != 1 {
		t.Errorf("10 hosts in 7 entries: %d–%d entries, want 0–1", lo, hi)
	}
	if got := p.Owners(3, 10, nil); len(got) != 7 {
		t.Errorf("10 hosts in 7 entries: Owners lists %v, want the 7 with an entry", got)
	}
	one := mustMaglev(t, MaglevOptions{TableSize: 7}, servers(1))
	if got := one.Owners(KeyHash([]byte("")), 2, nil); fmt.Sprint(got) != "[0]" {
		t.Errorf("one host: %v", got)
	}
	s := servers(4)
	s[0].Down, s[1].Down, s[2].Down = true, true, true
	if p := mustMaglev(t, MaglevOptions{TableSize: 7}, s); !p.Panic() || len(p.Owners(0, 4, nil)) != 4 {
		t.Error("3 of 4 down: want panic over all 4")
	}
	if p := mustMaglev(t, MaglevOptions{TableSize: 7, HealthyPanicThreshold: intPtr(0)}, s); p.Panic() || fmt.Sprint(p.Table(nil)) != "[3 3 3 3 3 3 3]" {
		t.Errorf("3 of 4 down, threshold 0: table %v, want all the healthy host's", p.Table(nil))
	}
	dst := make([]int, 0, 4)
	if n := testing.AllocsPerRun(200, func() { dst = p.Owners(42, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %v times", n)
	}
}

// TestMaglevOptions checks defaults and validation errors.
func TestMaglevOptions(t *testing.T) {
	e := MaglevOptions{}.Effective()
	if e.TableSize != 65537 || !*e.Sorted || *e.HealthyPanicThreshold != 50 || e.OverprovisioningFactor != 140 {
		t.Errorf("defaults: %+v", e)
	}
	for _, c := range []struct {
		o    MaglevOptions
		want string
	}{
		{MaglevOptions{TableSize: 8}, "table_size 8 is not a prime number; Envoy requires a prime (default 65537), e.g. 7 or 11"},
		{MaglevOptions{TableSize: 1}, "table_size 1 is not a prime"},
		{MaglevOptions{TableSize: 5000012}, "over Envoy's limit of 5000011"},
		{MaglevOptions{HealthyPanicThreshold: intPtr(-1)}, "not a percentage"},
	} {
		_, err := NewMaglev(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewMaglev(%+v): error %v, want %q", c.o, err, c.want)
		}
	}
	if _, err := NewMaglev(MaglevOptions{TableSize: MaxTableSize}); err != nil {
		t.Errorf("table_size 5000011: %v", err)
	}
	r, _ := NewMaglev(MaglevOptions{})
	if _, err := r.Build([]profile.Server{{Name: "a", Weight: 1}, {Name: "a", Weight: 1}}, nil); err == nil {
		t.Error("duplicate names accepted")
	}
}
