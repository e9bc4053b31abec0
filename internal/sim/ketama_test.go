package sim

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestKetamaNotes: a weight too small for a point is reported, and so are
// vnodes steps, which do not apply.
func TestKetamaNotes(t *testing.T) {
	s := &Scenario{Name: "k", Title: "k", Seed: 1, Keys: keys.KeySpec{Count: 100}, Replicas: 1,
		Nodes: []timeline.NodeSpec{{Name: "big", Weight: 1000}, {Name: "tiny", Weight: 1}}, Rules: []placer.RuleSpec{{Kind: "ketama"}},
		Steps: []timeline.Step{{Op: timeline.OpVNodes, Value: 10}}}
	res := mustReplay(t, s)
	if n := res.Rules[0].Steps[0].Notes; len(n) != 1 || !bytes.Contains([]byte(n[0]), []byte(`"tiny"`)) {
		t.Errorf("step 0 notes %q, want one naming \"tiny\"", n)
	}
	if res.Rules[0].Steps[0].Loads[1] != 0 {
		t.Error("a server without points owns keys")
	}
	if n := res.Rules[0].Steps[1].Notes; len(n) != 2 {
		t.Errorf("vnodes step notes %q, want the weight note and the vnodes note", n)
	}
}

// TestKetamaUnequalWeightsRebuild: with unequal weights a join changes
// every server's point count (libketama recomputes floor(w/Σw·40·n)), so
// keys move between servers that stayed: collateral > 0.
func TestKetamaUnequalWeightsRebuild(t *testing.T) {
	// The first five of libketama's test servers (ketama.servers).
	servers := []timeline.NodeSpec{{Name: "10.0.1.1:11211", Weight: 600}, {Name: "10.0.1.2:11211", Weight: 300},
		{Name: "10.0.1.3:11211", Weight: 200}, {Name: "10.0.1.4:11211", Weight: 350}, {Name: "10.0.1.5:11211", Weight: 1000}}
	s := &Scenario{Name: "k", Title: "k", Seed: 1, Keys: keys.KeySpec{Count: 20000}, Replicas: 1,
		Nodes: servers[:4], Rules: []placer.RuleSpec{{Kind: "ketama"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: servers[4:5]}}}
	sr := mustReplay(t, s).Rules[0].Steps[1]
	if sr.Collateral() == 0 {
		t.Errorf("moved %d, needed %d: expected collateral moves from the rebuilt continuum", sr.Moved, sr.Needed)
	}
}

// TestKetamaFloatRounding: with 61 equal servers libketama's floorf gives
// 39 hashes each (156 points), so growing from 60 to 61 servers moves keys
// between servers that stayed; update says so.
func TestKetamaFloatRounding(t *testing.T) {
	if got := ringrules.KetamaCount(1, 61, 61); got != 39 {
		t.Fatalf("ketamaCount(1, 61, 61) = %d, want 39", got)
	}
	servers := make([]timeline.NodeSpec, 61)
	for i := range servers {
		servers[i] = timeline.NodeSpec{Name: "10.0.0." + strconv.Itoa(i+1) + ":11211", Weight: 1}
	}
	s := &Scenario{Name: "k", Title: "k", Seed: 1, Keys: keys.KeySpec{Count: 20000}, Replicas: 1,
		Nodes: servers[:60], Rules: []placer.RuleSpec{{Kind: "ketama"}}, Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: servers[60:]}}}
	res := mustReplay(t, s)
	sr := res.Rules[0].Steps[1]
	if len(sr.Notes) != 1 || sr.Collateral() == 0 || len(res.Rules[0].Steps[0].Notes) != 0 {
		t.Errorf("60→61 servers: notes %q, collateral %d; want one rounding note and collateral moves", sr.Notes, sr.Collateral())
	}
}
