package cost

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

func names(n, size int) []timeline.NodeSpec {
	ns := make([]timeline.NodeSpec, n)
	for i := range ns {
		p := fmt.Sprintf("n%d-", i)
		ns[i] = timeline.NodeSpec{Name: p + strings.Repeat("x", max(size-len(p), 0))}
	}
	return ns
}

func add(name string) timeline.Step {
	return timeline.Step{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: name}}}
}

// TestReplayMemory: the replay estimate of the benchmark scenario (10⁶
// keys, five rules, 100 steps) is at least the peak resident set
// measured for it (about 300 MB), within the default limit, and grows
// linearly with the keys.
func TestReplayMemory(t *testing.T) {
	s := func(k int) *sim.Scenario {
		var steps []timeline.Step
		for i := range 100 {
			steps = append(steps, add(fmt.Sprintf("extra-%d", i)))
		}
		return &sim.Scenario{Keys: keys.KeySpec{Count: k}, Nodes: names(100, 8), Steps: steps,
			Rules: []placer.RuleSpec{{Kind: "ring"}, {Kind: "jump"}, {Kind: "rendezvous"}, {Kind: "maglev"}, {Kind: "ketama"}}}
	}
	e6, e7 := Of(s(1e6)).Memory, Of(s(1e7)).Memory
	if e6 < 300<<20 || e6 > 2<<30 {
		t.Errorf("estimate for 10⁶ keys = %d MB, want 300 MB to 2 GB", e6>>20)
	}
	if per := (e7 - e6) / 9e6; per < 100 || per > 400 {
		t.Errorf("estimate grows by %d bytes per key, want 100 to 400 (five rules)", per)
	}
}

// TestRendezvousWeights: rendezvous keeps 6 bytes per key with one
// replica and equal weights, 10 per list entry otherwise, and the
// estimate follows.
func TestRendezvousWeights(t *testing.T) {
	s := &sim.Scenario{Keys: keys.KeySpec{Count: 1e6}, Nodes: names(10, 4), Rules: []placer.RuleSpec{{Kind: "rendezvous"}},
		Steps: []timeline.Step{add("x")}}
	even, _ := replayLive(s, shapeOf(s))
	s.Steps = []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "x", Weight: 2}}}}
	if heavier, _ := replayLive(s, shapeOf(s)); heavier-even != 4e6 {
		t.Errorf("a heavier node adds %d live bytes, want 4,000,000", heavier-even)
	}
	if !uniformWeights(&sim.Scenario{Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b", Weight: 1}}, Steps: []timeline.Step{add("c")}}) {
		t.Error("weights 0 (the default, 1) and 1 are not uniform")
	}
}

// TestEveryDimensionCounts: each dimension issue 18 names (steps, nodes,
// name length, replicas, probes, points, table size, key length) raises
// the work, the memory and the output estimates, so none is left out.
func TestEveryDimensionCounts(t *testing.T) {
	base := func() *sim.Scenario {
		return &sim.Scenario{Keys: keys.KeySpec{Count: 1000}, Nodes: names(20, 10), Replicas: 2, Probes: []string{"p1", "p2"},
			Rules: []placer.RuleSpec{{Kind: "ring"}, {Kind: "maglev"}}, Steps: []timeline.Step{add("x"), add("y")}}
	}
	b := Of(base())
	for _, c := range []struct {
		name   string
		change func(s *sim.Scenario)
		output bool // the change shows in the output too
	}{
		{"steps", func(s *sim.Scenario) { s.Steps = append(s.Steps, add("z")) }, true},
		{"nodes", func(s *sim.Scenario) { s.Nodes = names(40, 10) }, true},
		{"name length", func(s *sim.Scenario) { s.Nodes = names(20, 200) }, true},
		{"replicas", func(s *sim.Scenario) { s.Replicas = 8 }, true},
		{"probes", func(s *sim.Scenario) { s.Probes = append(s.Probes, "p3") }, true},
		{"points", func(s *sim.Scenario) { s.Rules[0].VNodes = 5000 }, false}, // compared with 1,000 a node: both past MaxArcs, drawn per pixel
		{"table", func(s *sim.Scenario) { s.Rules[1].M = 1000003 }, false},
		{"key length", func(s *sim.Scenario) { s.Keys = keys.KeySpec{List: []string{strings.Repeat("k", 1<<20)}} }, false}, // written cut, but for hot keys
		{"envoy table", func(s *sim.Scenario) {
			s.Rules[1] = placer.RuleSpec{Kind: "envoy-maglev", Opts: map[string]string{"table_size": "1000003"}}
		}, false},
	} {
		s := base()
		c.change(s)
		e := Of(s)
		if c.name == "key length" { // one key instead of 1,000: compare with 1,000 short keys from a file
			s.Keys = keys.KeySpec{List: make([]string, 1000)}
			b = Of(s)
			s.Keys.List[0] = strings.Repeat("k", 1<<20)
			e = Of(s)
		} else if c.name == "points" {
			s.Rules[0].VNodes = 1000
			b = Of(s)
			c.change(s)
			e = Of(s)
		} else {
			b = Of(base())
		}
		if e.Work() <= b.Work() || e.Memory <= b.Memory || (c.output && e.Output <= b.Output) {
			t.Errorf("%s: work %d → %d, memory %d → %d, output %d → %d: want each to grow", c.name, b.Work(), e.Work(), b.Memory, e.Memory, b.Output, e.Output)
		}
	}
}

// TestStudy: a sweep under seeds adds every variant's replay once per
// seed, and nothing without one.
func TestStudy(t *testing.T) {
	s := &sim.Scenario{Keys: keys.KeySpec{Count: 1e5}, Nodes: names(10, 6), Rules: []placer.RuleSpec{{Kind: "ring"}}, Steps: []timeline.Step{add("x")}}
	e := Of(s)
	if got := Study(e, s, sweep.Plan{}); got != e {
		t.Errorf("no plan: %+v, want %+v", got, e)
	}
	one := Study(e, s, sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 256}})
	ten := Study(e, s, sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 256}, Seeds: 10})
	if one.Study <= 0 || ten.Study != 10*one.Study || ten.Work() != e.Work()+ten.Study {
		t.Errorf("study work %d at one seed, %d at ten (work %d), want ten times, added to %d", one.Study, ten.Study, ten.Work(), e.Work())
	}
	if small, big := Study(e, s, sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 2}}), one; small.Study >= big.Study {
		t.Errorf("vnodes [1 2] cost %d, [1 256] %d: the variants' rings are not counted", small.Study, big.Study)
	}
}

// TestSaturates: counts far past every limit saturate instead of
// wrapping around.
func TestSaturates(t *testing.T) {
	s := &sim.Scenario{Keys: keys.KeySpec{Count: math.MaxInt64 / 2}, Nodes: []timeline.NodeSpec{{Name: "a", Weight: math.MaxInt32}},
		Rules: []placer.RuleSpec{{Kind: "ring", VNodes: math.MaxInt32}, {Kind: "rendezvous"}, {Kind: "maglev", M: math.MaxInt32}}}
	e := Study(Of(s), s, sweep.Plan{Seeds: 1000})
	if e.Work() != math.MaxInt64 || e.Memory != math.MaxInt64 || e.Output <= 0 {
		t.Errorf("%+v: want work and memory saturated at MaxInt64", e)
	}
}

// TestTransfersFollowTheRule: over 1,000 nodes and 10⁶ keys, a rule
// whose membership steps move keys only to or from the nodes they name
// (a ring) counts a few pairs a node at a state, a rule that reshuffles
// (modulo) every pair, up to one a key; neither keeps them at every state,
// so the memory of 100 states stays within the default limit, and a step
// that changes every node's points (vnodes) counts every pair for the ring
// too.
func TestTransfersFollowTheRule(t *testing.T) {
	var steps []timeline.Step
	for i := range 50 {
		steps = append(steps, add(fmt.Sprintf("new-%d", i)), timeline.Step{Op: timeline.OpRemove, Nodes: names(1000, 8)[i : i+1]})
	}
	s := func(kind string) *sim.Scenario {
		return &sim.Scenario{Keys: keys.KeySpec{Count: 1e6}, Nodes: names(1000, 8), Steps: steps, Rules: []placer.RuleSpec{{Kind: kind}}}
	}
	ring, modulo := s("ring"), s("modulo")
	sh := shapeOf(ring)
	rcRing, _ := ruleCost(ring.Rules[0], sh)
	rcModulo, _ := ruleCost(modulo.Rules[0], sh)
	if p := statePairs(sh, rcRing); p != 2*1*1050 {
		t.Errorf("ring: %d pairs a state, want 2 × 1 named × 1,050 nodes", p)
	}
	if p := statePairs(sh, rcModulo); p != 1e6 {
		t.Errorf("modulo: %d pairs a state, want one a key (10⁶ < 1,050²)", p)
	}
	if r, m := Of(ring), Of(modulo); r.Render >= m.Render || r.Memory > 1<<30 || m.Memory > 1<<30 {
		t.Errorf("ring: render %d, memory %d MiB; modulo: render %d, memory %d MiB: want the ring cheaper and both under 1 GiB",
			r.Render, r.Memory>>20, m.Render, m.Memory>>20)
	}
	ring.Steps = append(ring.Steps, timeline.Step{Op: timeline.OpVNodes, Value: 100})
	if sh := shapeOf(ring); statePairs(sh, rcRing) != 1e6 {
		t.Errorf("ring with a vnodes step: %d pairs a state, want every pair up to one a key", statePairs(sh, rcRing))
	}
}

// heavyRing is a ring over a node of weight w beside two of weight 1,
// which fails and recovers at each of 20 steps, over 10⁶ keys.
func heavyRing(kind string, w int) *sim.Scenario {
	var steps []timeline.Step
	for range 10 {
		a := []timeline.NodeSpec{{Name: "a"}}
		steps = append(steps, timeline.Step{Op: timeline.OpFail, Nodes: a}, timeline.Step{Op: timeline.OpRecover, Nodes: a})
	}
	return &sim.Scenario{Keys: keys.KeySpec{Count: 1e6}, Rules: []placer.RuleSpec{{Kind: kind}}, Steps: steps,
		Nodes: []timeline.NodeSpec{{Name: "a", Weight: w}, {Name: "b"}, {Name: "c"}}}
}

// TestMovedKeys: a Local rule's steps cost the keys they may move: a
// node of most of the weight moves nearly every key at each of its
// failures and recoveries, one of a third of it two thirds of them (its
// share of the live weight, twice over); the keys of a file, which may
// be chosen to land on one node, or a ring of few points a node, may all
// move at every step.
func TestMovedKeys(t *testing.T) {
	moved := func(s *sim.Scenario) int64 {
		sh := shapeOf(s)
		rc, _ := ruleCost(s.Rules[0], sh)
		return movedKeys(sh, sharesFollowWeights(s, sh, rc))
	}
	all := int64(1e6 * 20)
	if m := moved(heavyRing("ring", 100)); m < all*99/100 || m > all+1e6 {
		t.Errorf("a heavy node's 20 steps move %d keys, want nearly all %d", m, all)
	}
	light := moved(heavyRing("ring", 1))
	if light < all*2/3 || light > all*2/3+1e6 {
		t.Errorf("a third of the weight moves %d keys in 20 steps, want twice a third of them, %d", light, all*2/3)
	}
	if h, l := Of(heavyRing("ring", 100)).Work(), Of(heavyRing("ring", 1)).Work(); h-l < (all/3)*MovedKeyWork {
		t.Errorf("work %d with a heavy node, %d without: want the moved keys counted at %d key-steps", h, l, MovedKeyWork)
	}
	file := heavyRing("ring", 1)
	file.Keys = keys.KeySpec{List: make([]string, 1e6)}
	few := heavyRing("ring", 1)
	few.Rules[0].VNodes = MinSharePoints - 1
	for name, s := range map[string]*sim.Scenario{"a keys file": file, "few points": few} {
		if m := moved(s); m != all {
			t.Errorf("%s: %d keys moved, want every key at every step, %d", name, m, all)
		}
	}
}

// TestRecoverAllNamesTheFailed: a recover-all step names only the nodes
// that may have failed before it (one), not every node, so a ring's
// transfer pairs stay a few a node.
func TestRecoverAllNamesTheFailed(t *testing.T) {
	s := &sim.Scenario{Keys: keys.KeySpec{Count: 1e6}, Nodes: names(1000, 8), Rules: []placer.RuleSpec{{Kind: "ring"}},
		Steps: []timeline.Step{{Op: timeline.OpFail, Random: true}, {Op: timeline.OpRecover, All: true}}}
	if sh := shapeOf(s); sh.named != 1 {
		t.Errorf("recover all after one failure names %d nodes, want 1", sh.named)
	}
	s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpFail, Where: timeline.Labels{Zone: "z"}}, timeline.Step{Op: timeline.OpRecover, All: true})
	if sh := shapeOf(s); sh.named != 1000 {
		t.Errorf("recover all after a failure by label names %d nodes, want all 1,000", sh.named)
	}
}

// TestRankingFollowsWeights: rendezvous with every node of one weight
// scores a pair at 1/RankPairs key-step, and only at the start, at joins
// and for the keys a step moves; with weights any step may rank every key
// afresh, at WeightedRankWork a pair.
func TestRankingFollowsWeights(t *testing.T) {
	even, heavy := heavyRing("rendezvous", 1), heavyRing("rendezvous", 100)
	se, sh := shapeOf(even), shapeOf(heavy)
	if r := rankWork(even, se, true); r > 2*1e6*3*21/RankPairs {
		t.Errorf("equal weights: ranking %d key-steps, want at most every pair twice (a join, a departure) at each state at 1/%d", r, RankPairs)
	}
	if r, want := rankWork(heavy, sh, true), int64(1e6*3*21*WeightedRankWork); r != want {
		t.Errorf("with weights: ranking %d key-steps, want every pair at every state, %d", r, want)
	}
}

// TestRecomputesAtEveryState: a recomputed placement places every key
// again (RecurWork) at any state after the first, whatever the rule's
// hash: the new placer reuses the rule's key hashes, MD5 ones too.
func TestRecomputesAtEveryState(t *testing.T) {
	for _, kind := range []string{"ring", "ketama"} {
		s := heavyRing(kind, 1)
		if got, want := recurWork(shapeOf(s)), int64(1e6*20*RecurWork); got != want {
			t.Errorf("%s: recomputations %d key-steps, want %d", kind, got, want)
		}
	}
}

// TestWheelsPerPixel: a ring's wheel of more than MaxArcs points and
// arcs is drawn per pixel, so its bytes stop growing with the nodes
// (PixelArcs), while its drawing still passes over every point, and a
// ring that may have fewer at some state is counted drawn both ways; a
// sampled wheel has no more arcs than samples.
func TestWheelsPerPixel(t *testing.T) {
	ring := func(n int) (int64, int64) {
		s := &sim.Scenario{Keys: keys.KeySpec{Count: 1000}, Nodes: names(n, 8), Rules: []placer.RuleSpec{{Kind: "ring"}}}
		sh := shapeOf(s)
		return wheelBytes(s.Rules[0], sh), wheelWork(s.Rules[0], sh)
	}
	b62, _ := ring(62) // 9,982 points and arcs: the densest wheel drawn arc by arc
	b100, w100 := ring(100)
	b1e4, w1e4 := ring(10_000)
	if b62 != (62*160+62)*ArcBytes || b100 != PixelArcs*ArcBytes || b1e4 != b100 {
		t.Errorf("wheel bytes %d at 62 nodes, %d at 100, %d at 10⁴: want every arc, then PixelArcs per pixel", b62, b100, b1e4)
	}
	if w1e4 != 100*w100 {
		t.Errorf("drawing %d key-steps at 10⁴ nodes, %d at 100: want a pass over every point", w1e4, w100)
	}
	grow := &sim.Scenario{Keys: keys.KeySpec{Count: 1000}, Nodes: names(10, 8), Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 990}},
		Steps: []timeline.Step{add("x"), add("y")}} // 9,900 points at the start, 11,880 at the end
	if w, pixels := wheelWork(grow.Rules[0], shapeOf(grow)), int64(12*990+12)*PointDrawWork; w != pixels+MaxArcs*ArcWork {
		t.Errorf("a ring of 9,900 to 11,880 points: drawing %d key-steps, want both ways, %d per pixel and %d arc by arc", w, pixels, MaxArcs*ArcWork)
	}
	s := &sim.Scenario{Keys: keys.KeySpec{Count: 1000}, Nodes: names(5000, 8), Rules: []placer.RuleSpec{{Kind: "modulo"}}}
	if a := wheelArcs(s.Rules[0], shapeOf(s)); a != placer.WheelSamples {
		t.Errorf("modulo over 5,000 nodes draws %d arcs, want its %d samples", a, placer.WheelSamples)
	}
}
