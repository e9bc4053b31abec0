package envoy_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/envoy"
)

// storyKeys are the positions of the keys the stories replay.
func storyKeys(n int) []uint64 {
	keys := variedKeys(n)
	hs := make([]uint64, len(keys))
	for i, k := range keys {
		hs[i] = envoy.KeyHash(k)
	}
	return hs
}

// hostNames returns n servers named like Envoy addresses.
func hostNames(n int) []profile.Server {
	s := make([]profile.Server, n)
	for i := range s {
		s[i] = profile.Server{Name: fmt.Sprintf("10.0.0.%d:8080", i+1), Weight: 1}
	}
	return s
}

// pointsByHost returns, per server name, the set of its ring positions.
func pointsByHost(p *envoy.RingPlacement, servers []profile.Server) map[string]map[uint64]bool {
	pts, _ := p.Points()
	out := map[string]map[uint64]bool{}
	for _, pt := range pts {
		name := servers[pt.Server].Name
		if out[name] == nil {
			out[name] = map[uint64]bool{}
		}
		out[name][pt.Pos] = true
	}
	return out
}

// owners returns the owner's name of every key.
func owners(p profile.Placement, servers []profile.Server, hs []uint64) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		if o := owner(p, h); o >= 0 {
			out[i] = servers[o].Name
		}
	}
	return out
}

// without returns servers less the one named name.
func without(servers []profile.Server, name string) []profile.Server {
	var out []profile.Server
	for _, s := range servers {
		if s.Name != name {
			out = append(out, s)
		}
	}
	return out
}

// sameRing reports whether two rings have the same points owned by the same
// names.
func sameRing(a *envoy.RingPlacement, as []profile.Server, b *envoy.RingPlacement, bs []profile.Server) bool {
	pa, _ := a.Points()
	pb, _ := b.Points()
	if len(pa) != len(pb) {
		return false
	}
	for i := range pa {
		if pa[i].Pos != pb[i].Pos || as[pa[i].Server].Name != bs[pb[i].Server].Name {
			return false
		}
	}
	return true
}

// TestStoryRingFiveSixFive replays 5 → 6 → 5 equal hosts under the default
// ring (minimum_ring_size 1024): 5 hosts get 205 points each, 6 get 171, and
// removing one of 6 gives every survivor 34 more points, so keys move
// between hosts that did not change (envoy#22558).
func TestStoryRingFiveSixFive(t *testing.T) {
	hs := storyKeys(20000)
	five := hostNames(5)
	six := hostNames(6)
	p5 := buildRing(t, envoy.RingOptions{}, five)
	p6 := buildRing(t, envoy.RingOptions{}, six)
	back := buildRing(t, envoy.RingOptions{}, five)
	checkStats(t, p5, 1025, 205, 205)
	checkStats(t, p6, 1026, 171, 171)
	if !sameRing(p5, five, back, five) {
		t.Error("5 → 6 → 5: the ring differs from the first 5-host ring")
	}
	removed := six[2].Name
	rest := without(six, removed)
	p5b := buildRing(t, envoy.RingOptions{}, rest)
	checkStats(t, p5b, 1025, 205, 205)
	before, after := pointsByHost(p6, six), pointsByHost(p5b, rest)
	for _, s := range rest {
		for pos := range before[s.Name] {
			if !after[s.Name][pos] {
				t.Errorf("%s lost point %d when %s left; its points should only grow", s.Name, pos, removed)
			}
		}
		if got := len(after[s.Name]) - len(before[s.Name]); got != 34 {
			t.Errorf("%s gained %d points when %s left, want 34", s.Name, got, removed)
		}
	}
	o6, o5 := owners(p6, six, hs), owners(p5b, rest, hs)
	fromRemoved, between := 0, 0
	for i := range hs {
		switch {
		case o6[i] == removed:
			fromRemoved++
		case o6[i] != o5[i]:
			between++
		}
	}
	t.Logf("remove 1 of 6: %d keys left the removed host, %d of %d moved between survivors", fromRemoved, between, len(hs))
	if between == 0 {
		t.Error("no key moved between survivors; envoy#22558 says the rescaled ring moves some")
	}
	// Adding a sixth host likewise moves keys between the first five.
	o5a := owners(p5, five, hs)
	between = 0
	for i := range hs {
		if o6[i] != six[5].Name && o6[i] != o5a[i] {
			between++
		}
	}
	t.Logf("add a 6th: %d keys moved between the first five", between)
	if between == 0 {
		t.Error("adding a host moved no key between the others")
	}
}

// TestStoryRingWeights replays weight changes: every host gets its share
// scale·w/Σw within one point (the running sums carry the fractions), the
// ring has ceil(scale) points, and a host's points at a lower weight are a
// subset of those at a higher one only when scale is unchanged.
func TestStoryRingWeights(t *testing.T) {
	steps := [][]int{{1, 1, 1}, {1, 1, 2}, {1, 2, 3}, {1, 1, 1}, {5, 1, 1}}
	hosts := hostNames(3)
	var first *envoy.RingPlacement
	for i, ws := range steps {
		servers := withWeights(append([]profile.Server(nil), hosts...), ws...)
		p := buildRing(t, envoy.RingOptions{}, servers)
		sum, minW := 0, math.MaxInt
		for _, w := range ws {
			sum += w
			minW = min(minW, w)
		}
		minNorm := float64(minW) / float64(sum)
		scale := math.Ceil(minNorm*1024) / minNorm
		if p.Size() != uint64(math.Ceil(scale)) {
			t.Errorf("step %d %v: ring size %d, want ceil(%v)", i, ws, p.Size(), scale)
		}
		counts := make([]int, 3)
		pts, _ := p.Points()
		for _, pt := range pts {
			counts[pt.Server]++
		}
		for j, w := range ws {
			share := scale * float64(w) / float64(sum)
			if math.Abs(float64(counts[j])-share) >= 1 {
				t.Errorf("step %d %v: host %d has %d points, share %.3f", i, ws, j, counts[j], share)
			}
		}
		t.Logf("step %d weights %v: %d points %v", i, ws, len(pts), counts)
		if i == 0 {
			first = p
		}
		if i == 3 && !sameRing(first, hosts, p, hosts) {
			t.Error("weights back to 1,1,1: the ring differs from the first")
		}
	}
}

// TestStoryRingDownAndPanic replays failures on 6 hosts: Envoy rebuilds the
// ring from the healthy hosts, until fewer than 50 % are healthy, when it
// builds from all of them and routes to Down hosts too; a threshold of 0
// never panics.
func TestStoryRingDownAndPanic(t *testing.T) {
	hs := storyKeys(5000)
	six := hostNames(6)
	down := func(n int) []profile.Server {
		s := append([]profile.Server(nil), six...)
		for i := 0; i < n; i++ {
			s[i].Down = true
		}
		return s
	}
	healthyOnly := func(n int) []profile.Server { return six[n:] }
	for _, c := range []struct {
		down      int
		threshold *int
		panic     bool
	}{
		{1, nil, false}, {3, nil, false}, {4, nil, true}, {6, nil, true},
		{4, ptr(0), false}, {2, ptr(80), true}, {1, ptr(80), false},
	} {
		servers := down(c.down)
		o := envoy.RingOptions{HealthyPanicThreshold: c.threshold}
		p := buildRing(t, o, servers)
		name := fmt.Sprintf("%d of 6 down, threshold %v", c.down, deref(c.threshold))
		if p.Panic() != c.panic {
			t.Errorf("%s: panic %v, want %v", name, p.Panic(), c.panic)
		}
		var want *envoy.RingPlacement
		var wantServers []profile.Server
		if c.panic {
			want, wantServers = buildRing(t, o, six), six
		} else {
			want, wantServers = buildRing(t, o, healthyOnly(c.down)), healthyOnly(c.down)
		}
		if c.down < 6 || c.panic {
			if !sameRing(p, servers, want, wantServers) {
				t.Errorf("%s: ring is not that of the %d hosts Envoy builds from", name, len(wantServers))
			}
		}
		toDown := 0
		for _, h := range hs {
			for _, s := range p.Owners(h, 3, nil) {
				if servers[s].Down {
					toDown++
				}
			}
		}
		if c.panic != (toDown > 0) {
			t.Errorf("%s: %d owners are Down servers; want some only in panic", name, toDown)
		}
	}
	zero := buildRing(t, envoy.RingOptions{HealthyPanicThreshold: ptr(0)}, down(6))
	if got := zero.Owners(1, 3, nil); len(got) != 0 {
		t.Errorf("all down, threshold 0: owners %v, want none", got)
	}
}

// TestStoryGRPCDown replays a failure under gRPC's ring_hash: the endpoint
// stays on the ring, its keys go to the next endpoint clockwise, and no
// other key moves.
func TestStoryGRPCDown(t *testing.T) {
	hs := storyKeys(5000)
	servers := withWeights(hostNames(5), 1, 2, 1, 3, 1)
	o := envoy.RingOptions{Client: "grpc"}
	up := buildRing(t, o, servers)
	failed := append([]profile.Server(nil), servers...)
	failed[3].Down = true
	p := buildRing(t, o, failed)
	moved := 0
	for _, h := range hs {
		before, after := up.Owners(h, 2, nil), owner(p, h)
		switch {
		case after == 3:
			t.Fatalf("key %d went to the Down endpoint", h)
		case before[0] == 3:
			if after != before[1] {
				t.Errorf("key %d of the failed endpoint went to %d, not the next endpoint %d", h, after, before[1])
			}
			moved++
		case after != before[0]:
			t.Errorf("key %d moved from %d to %d though its endpoint is up", h, before[0], after)
		}
	}
	t.Logf("gRPC, 1 of 5 endpoints down: %d of %d keys moved, all from it", moved, len(hs))
}

// TestStoryMaglevFiveSixFive replays 5 → 6 → 5 hosts on a default maglev
// table: the table returns to the same entries, and removing a host moves
// its entries and some others (maglev's disruption, which Envoy's docs put
// at about twice the ring's).
func TestStoryMaglevFiveSixFive(t *testing.T) {
	five, six := hostNames(5), hostNames(6)
	t5 := buildMaglev(t, envoy.MaglevOptions{}, five).Table(nil)
	t6 := buildMaglev(t, envoy.MaglevOptions{}, six).Table(nil)
	back := buildMaglev(t, envoy.MaglevOptions{}, five).Table(nil)
	if fmt.Sprint(t5) != fmt.Sprint(back) {
		t.Error("5 → 6 → 5: the table differs from the first 5-host table")
	}
	removed := six[2].Name
	rest := without(six, removed)
	t5b := buildMaglev(t, envoy.MaglevOptions{}, rest).Table(nil)
	ofRemoved, others := 0, 0
	for i := range t6 {
		switch {
		case six[t6[i]].Name == removed:
			ofRemoved++
		case six[t6[i]].Name != rest[t5b[i]].Name:
			others++
		}
	}
	t.Logf("maglev, remove 1 of 6: %d entries of the removed host, %d other entries changed owner", ofRemoved, others)
	if ofRemoved == 0 || others == 0 {
		t.Errorf("removed host had %d entries and %d others moved; want both > 0", ofRemoved, others)
	}
	hs := storyKeys(20000)
	p5, p6 := buildRing(t, envoy.RingOptions{}, rest), buildRing(t, envoy.RingOptions{}, six)
	ringMoved, maglevMoved := 0, 0
	m6 := buildMaglev(t, envoy.MaglevOptions{}, six)
	m5 := buildMaglev(t, envoy.MaglevOptions{}, rest)
	for _, h := range hs {
		if six[owner(p6, h)].Name != rest[owner(p5, h)].Name {
			ringMoved++
		}
		if six[owner(m6, h)].Name != rest[owner(m5, h)].Name {
			maglevMoved++
		}
	}
	t.Logf("remove 1 of 6 over %d keys: ring moves %d, maglev moves %d", len(hs), ringMoved, maglevMoved)
}

// ptr returns a pointer to v.
func ptr(v int) *int { return &v }

// deref prints a threshold, nil as the default.
func deref(p *int) string {
	if p == nil {
		return "default"
	}
	return fmt.Sprint(*p)
}
