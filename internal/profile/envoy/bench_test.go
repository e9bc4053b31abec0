package envoy

import "testing"

// BenchmarkRingOwners measures a primary lookup on a default 100-host ring.
func BenchmarkRingOwners(b *testing.B) {
	r, _ := NewRing(RingOptions{})
	p, _ := r.Build(servers(100), nil)
	dst := make([]int, 0, 3)
	h := uint64(1)
	for b.Loop() {
		h = h*6364136223846793005 + 1442695040888963407
		dst = p.Owners(h, 1, dst[:0])
	}
}

// BenchmarkMaglevOwners measures a primary lookup on a default 100-host
// maglev table.
func BenchmarkMaglevOwners(b *testing.B) {
	r, _ := NewMaglev(MaglevOptions{})
	p, _ := r.Build(servers(100), nil)
	dst := make([]int, 0, 3)
	h := uint64(1)
	for b.Loop() {
		h = h*6364136223846793005 + 1442695040888963407
		dst = p.Owners(h, 1, dst[:0])
	}
}

// BenchmarkBuild measures building a default ring and table for 100 hosts.
func BenchmarkBuild(b *testing.B) {
	r, _ := NewRing(RingOptions{})
	m, _ := NewMaglev(MaglevOptions{})
	s := servers(100)
	for b.Loop() {
		_, _ = r.Build(s, nil)
		_, _ = m.Build(s, nil)
	}
}
