package envoy_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/envoy"
)

// Sources of the maglev vectors: envoyproxy/envoy
// test/extensions/load_balancing_policies/maglev/maglev_lb_test.cc at commit
// e7495d2690fac1d2c4041b7945959abbcb4f9eaa on main (hosts sorted by key,
// v1.27.0 and later), the same expectations in the pre-1.27
// test/common/upstream/maglev_lb_test.cc at commit
// 04a3ccb0eb5db73ba77f9ade5f009b8ebeedfda2 (host-set order; the tests list
// hosts already sorted, so both orders agree on them), and the Maglev section
// of docs/root/intro/arch_overview/upstream/load_balancing/load_balancers.rst
// (weights 1 and 2 → 21,846 and 43,691 of 65,537 entries).
const maglevTestSource = "envoy maglev_lb_test.cc @ e7495d2690fac1d2c4041b7945959abbcb4f9eaa"

// buildMaglev builds a maglev placement or fails the test.
func buildMaglev(t *testing.T, o envoy.MaglevOptions, servers []profile.Server) *envoy.MaglevPlacement {
	t.Helper()
	rule, err := envoy.NewMaglev(o)
	if err != nil {
		t.Fatalf("NewMaglev(%+v): %v", o, err)
	}
	p, err := rule.Build(servers, nil)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p.(*envoy.MaglevPlacement)
}

// checkTable compares the table and, as Envoy's tests do, the owners of
// hashes 0 … 3m−1.
func checkTable(t *testing.T, p *envoy.MaglevPlacement, want []int) {
	t.Helper()
	if got := p.Table(nil); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("table = %v, want %v (%s)", got, want, maglevTestSource)
	}
	for i := 0; i < 3*len(want); i++ {
		if g := owner(p, uint64(i)); g != want[i%len(want)] {
			t.Errorf("chooseHost(%d) = %d, want %d", i, g, want[i%len(want)])
		}
	}
}

// checkEntries compares the min_entries_per_host and max_entries_per_host
// gauges.
func checkEntries(t *testing.T, p *envoy.MaglevPlacement, lo, hi uint64) {
	t.Helper()
	if gl, gh := p.EntriesPerHost(); gl != lo || gh != hi {
		t.Errorf("entries per host %d–%d, want %d–%d (%s)", gl, gh, lo, hi, maglevTestSource)
	}
}

// sortedOpts returns options for table size m in the given host order mode.
func sortedOpts(m uint64, sorted bool) envoy.MaglevOptions {
	return envoy.MaglevOptions{TableSize: m, Sorted: &sorted}
}

// TestMaglevBasic is MaglevLoadBalancerTest.Basic, in both host orders.
func TestMaglevBasic(t *testing.T) {
	for _, sorted := range []bool{true, false} {
		p := buildMaglev(t, sortedOpts(7, sorted), portRange(90, 95))
		checkEntries(t, p, 1, 2)
		checkTable(t, p, []int{2, 4, 0, 1, 5, 0, 3})
	}
}

// TestMaglevBasicWithHostName is BasicWithHostName and
// BasicWithMetadataHashKey: hosts hashed by the names "90"–"95".
func TestMaglevBasicWithHostName(t *testing.T) {
	o := envoy.MaglevOptions{TableSize: 7, UseHostnameForHashing: true}
	p := buildMaglev(t, o, named("90", "91", "92", "93", "94", "95"))
	checkEntries(t, p, 1, 2)
	checkTable(t, p, []int{2, 5, 0, 3, 4, 1, 0})
}

// TestMaglevBasicWithRetryHostPredicate is BasicWithRetryHostPredicate:
// hash 10 picks entry 3 (:91); the retry that rejects it flips the hash to
// entry 5 (:90); a third attempt reaches entry 4 (:95).
func TestMaglevBasicWithRetryHostPredicate(t *testing.T) {
	p := buildMaglev(t, envoy.MaglevOptions{TableSize: 7}, portRange(90, 95))
	if got := p.Owners(10, 3, nil); fmt.Sprint(got) != "[1 0 5]" {
		t.Errorf("Owners(10, 3) = %v, want [1 0 5] (%s)", got, maglevTestSource)
	}
	if got := p.Owners(10, 6, nil); len(got) != 6 {
		t.Errorf("Owners(10, 6) = %v, want all six hosts", got)
	}
}

// TestMaglevBasicStability is BasicStability: with hosts sorted by key, any
// host-set order gives the same table (issue #20703, fixed in v1.27.0);
// in the host-set order of older versions it need not.
func TestMaglevBasicStability(t *testing.T) {
	base := portRange(90, 95)
	want := []int{2, 4, 0, 1, 5, 0, 3}
	orders := [][]int{{5, 4, 3, 2, 1, 0}, {3, 0, 5, 1, 4, 2}, {1, 2, 0, 5, 3, 4}}
	for _, order := range orders {
		hosts := make([]profile.Server, len(order))
		for i, j := range order {
			hosts[i] = base[j]
		}
		got := buildMaglev(t, sortedOpts(7, true), hosts).Table(nil)
		for i := range got {
			got[i] = order[got[i]] // back to the test's host indexes
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("order %v: table %v, want %v", order, got, want)
		}
	}
	// Before v1.27 the order mattered: some reordering of 60 hosts changes
	// a table of 65537 entries.
	hosts := portRange(1000, 1059)
	reversed := make([]profile.Server, len(hosts))
	for i := range hosts {
		reversed[i] = hosts[len(hosts)-1-i]
	}
	a := buildMaglev(t, sortedOpts(0, false), hosts).Table(nil)
	b := buildMaglev(t, sortedOpts(0, false), reversed).Table(nil)
	differ := 0
	for i := range a {
		if a[i] != len(hosts)-1-b[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Error("host-set order (sorted: false) gave the same table for reversed hosts; issue #20703 says it should not")
	}
	t.Logf("sorted: false, 60 hosts reversed: %d of %d entries change owner", differ, len(a))
}

// TestMaglevWeighted is Weighted: :90 weight 1 and :91 weight 2 in 17
// entries; and the docs' 21,846 / 43,691 split of 65,537.
func TestMaglevWeighted(t *testing.T) {
	p := buildMaglev(t, envoy.MaglevOptions{TableSize: 17}, withWeights(portRange(90, 91), 1, 2))
	checkEntries(t, p, 6, 11)
	checkTable(t, p, []int{1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1})
	p = buildMaglev(t, envoy.MaglevOptions{}, withWeights(named("A", "B"), 1, 2))
	if lo, hi := p.EntriesPerHost(); lo != 21846 || hi != 43691 {
		t.Errorf("weights 1 and 2 in 65537 entries: %d and %d, want 21846 and 43691 (load_balancers.rst)", lo, hi)
	}
}

// TestMaglevTableSizes is NoPrimeNumber, DefaultMaglevTableSize and NoHost.
func TestMaglevTableSizes(t *testing.T) {
	_, err := envoy.NewMaglev(envoy.MaglevOptions{TableSize: 8})
	if err == nil || !strings.Contains(err.Error(), "not a prime") {
		t.Errorf("table_size 8: error %v, want Envoy's \"must be prime number\"", err)
	}
	p := buildMaglev(t, envoy.MaglevOptions{}, portRange(90, 91))
	if p.TableSize() != 65537 {
		t.Errorf("default table size %d, want 65537", p.TableSize())
	}
	p = buildMaglev(t, envoy.MaglevOptions{TableSize: 7}, nil)
	if got := p.Owners(0, 1, nil); len(got) != 0 {
		t.Errorf("no hosts: Owners = %v, want none", got)
	}
}

// TestMaglevPanic is the panic behaviour the thread-aware base gives maglev
// (LocalityWeightedGlobalPanic without localities): with no host healthy
// the table is built from all of them, so it equals the healthy table.
func TestMaglevPanic(t *testing.T) {
	hosts := portRange(90, 95)
	p := buildMaglev(t, envoy.MaglevOptions{TableSize: 7}, allDown(hosts))
	if !p.Panic() {
		t.Error("no host healthy, yet no panic")
	}
	checkTable(t, p, []int{2, 4, 0, 1, 5, 0, 3})
}
