package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/tablerules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestFastModExact: fastMod equals p % n at the edges of both ranges and
// on random pairs.
func TestFastModExact(t *testing.T) {
	ns := []uint32{1, 2, 3, 7, 100, 101, 65535, 65536, 1<<31 - 1, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	ps := []uint32{0, 1, 2, 99, 100, 101, 1<<31 - 1, 1 << 31, math.MaxUint32 - 1, math.MaxUint32}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		ns = append(ns, r.Uint32N(1000)+1, r.Uint32()|1)
		ps = append(ps, r.Uint32())
	}
	for _, n := range ns {
		f := tablerules.NewFastMod(n)
		for _, p := range ps {
			if got := f.Of(p); got != p%n {
				t.Fatalf("%d mod %d = %d, want %d", p, n, got, p%n)
			}
		}
	}
}

// TestModuloWeightNote: modulo ignores weights and says so.
func TestModuloWeightNote(t *testing.T) {
	s := &Scenario{Name: "h", Title: "h", Seed: 1, Keys: keys.KeySpec{Count: 10}, Replicas: 1,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 2}}, Rules: []placer.RuleSpec{{Kind: "modulo"}}}
	if n := mustReplay(t, s).Rules[0].Steps[0].Notes; len(n) != 1 || n[0] != "modulo has no weighted form: weights ignored" {
		t.Errorf("notes %q", n)
	}
}
