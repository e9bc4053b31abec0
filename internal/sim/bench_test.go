package sim

import (
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The benchmarks below time what a replay costs per key, so that their
// ns/key metrics compare directly with a per-key lookup library: the Go
// peers in bench/peers measure their Get on the same sizes, and
// bench/run.sh prints the ratios. Sizes are in the names
// (keys=1e6/nodes=100/vnodes=160) so benchstat can project on them.

// benchKeys caches key sets by size: a 10⁷-key set takes seconds to build.
var benchKeys sync.Map

func keySetOf(k int) *keys.KeySet {
	if ks, ok := benchKeys.Load(k); ok {
		return ks.(*keys.KeySet)
	}
	ks := keys.NewKeySet(keys.KeySpec{Count: k}, 1)
	benchKeys.Store(k, ks)
	return ks
}

// sizeName spells 1000000 as 1e6.
func sizeName(n int) string {
	e := 0
	for n >= 10 && n%10 == 0 {
		n, e = n/10, e+1
	}
	if n == 1 {
		return "1e" + strconv.Itoa(e)
	}
	return strconv.Itoa(n) + "e" + strconv.Itoa(e)
}

// reportPerKey adds the ns/key metric: elapsed time per loop over keys·ops.
func reportPerKey(b *testing.B, keys, ops int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(keys*ops), "ns/key")
}

// BenchmarkFloor is the floor of any pass over the keys: read a uint32
// and write a uint16 per key. Its sizes match BenchmarkScale's: at 10⁷
// keys the arrays no longer fit in the processor's caches, and the floor
// itself rises.
func BenchmarkFloor(b *testing.B) {
	for _, k := range []int{1e4, 1e5, 1e6, 1e7} {
		b.Run("keys="+sizeName(k), func(b *testing.B) {
			pos := keySetOf(k).Pos
			out := make([]timeline.NodeID, k)
			for b.Loop() {
				floorPass(pos, out)
			}
			reportPerKey(b, k, 1)
		})
	}
}

func floorPass(pos []uint32, out []timeline.NodeID) {
	for i, p := range pos {
		out[i] = timeline.NodeID(p)
	}
}

// BenchmarkBinarySearch is the per-key lookup every ring library does: a
// binary search of the key's position among the sorted points, for every
// key, as in groupcache's consistenthash.Get without the hashing.
func BenchmarkBinarySearch(b *testing.B) {
	k, n, v := 1_000_000, 100, 160
	b.Run(fmt.Sprintf("keys=%s/nodes=%d/vnodes=%d", sizeName(k), n, v), func(b *testing.B) {
		sb := newStepBench(b, placer.RuleSpec{Kind: "ring", VNodes: v}, k, n)
		r := sb.run.p.(*ringrules.Ring)
		pts := make([]uint32, len(r.Pts))
		for j, p := range r.Pts {
			pts[j] = p.Pos
		}
		owner := r.Prefs(1)[0]
		pos, out := sb.res.Keys.Pos, make([]timeline.NodeID, k)
		for b.Loop() {
			for i, p := range pos {
				j, _ := slices.BinarySearch(pts, p)
				if j == len(pts) {
					j = 0
				}
				out[i] = owner[j]
			}
		}
		reportPerKey(b, k, 1)
	})
}

// benchRules are the rules a step benchmark runs, with their parameters.
var benchRules = []placer.RuleSpec{
	{Kind: "ring", VNodes: 160}, {Kind: "modulo"}, {Kind: "jump"}, {Kind: "rendezvous"}, {Kind: "maglev"},
	{Kind: "multiprobe"}, {Kind: "bounded", VNodes: 160}, {Kind: "ketama"}, {Kind: "slots"},
}

// BenchmarkStep times one membership step of a replay, metrics, figures'
// geometry and recurrence check included: each loop adds a node, then
// removes it again (a recurrence), and ns/key is per step and key.
func BenchmarkStep(b *testing.B) {
	k, n := 1_000_000, 100
	for _, spec := range benchRules {
		b.Run(fmt.Sprintf("rule=%s/keys=%s/nodes=%d/vnodes=160", spec.Kind, sizeName(k), n), func(b *testing.B) {
			benchSteps(b, spec, k, n, add(benchNode(n)), remove(benchNode(n)))
		})
	}
	b.Run(fmt.Sprintf("rule=ring-fail/keys=%s/nodes=%d/vnodes=160", sizeName(k), n), func(b *testing.B) {
		benchSteps(b, placer.RuleSpec{Kind: "ring", VNodes: 160}, k, n, fail(benchNode(n/2)), recover_(benchNode(n/2)))
	})
}

// BenchmarkBoundedTight is the bounded step with tighter slack, where
// nodes fill before the last key (with ε = 0.25 and 160 points per node
// none does): ε = 0.1 fills 14 of 100 nodes from rank ~0.91·K on, ε = 0.05
// fills 38 from ~0.87·K, and a step places the keys from there again.
func BenchmarkBoundedTight(b *testing.B) {
	k, n := 1_000_000, 100
	for _, eps := range []string{"0.1", "0.05"} {
		e, _ := strconv.ParseFloat(eps, 64)
		b.Run(fmt.Sprintf("rule=bounded/eps=%s/keys=%s/nodes=%d/vnodes=160", eps, sizeName(k), n), func(b *testing.B) {
			benchSteps(b, placer.RuleSpec{Kind: "bounded", VNodes: 160, Epsilon: e}, k, n, add(benchNode(n)), remove(benchNode(n)))
		})
	}
}

// BenchmarkMultiprobeVNodes is the multiprobe step with several points
// per node (BenchmarkStep's has one, as in the paper): each add brings
// that many arriving points, checked one by one up to three and through a
// bucket index beyond.
func BenchmarkMultiprobeVNodes(b *testing.B) {
	k, n := 1_000_000, 100
	for _, v := range []int{4, 16} {
		b.Run(fmt.Sprintf("rule=multiprobe/keys=%s/nodes=%d/vnodes=%d", sizeName(k), n, v), func(b *testing.B) {
			benchSteps(b, placer.RuleSpec{Kind: "multiprobe", VNodes: v}, k, n, add(benchNode(n)), remove(benchNode(n)))
		})
	}
}

// BenchmarkScale is the scaling check: every rule's add-and-remove step
// on 10⁴ to 10⁷ keys, so that `benchstat -col /keys` lays out ns/key by
// size. The cost per key must stay flat or fall as K grows: a step does
// O(points) or O(table) work plus work per key that can move, never a
// sort of the keys or a pass over keys × nodes.
func BenchmarkScale(b *testing.B) {
	for _, spec := range benchRules {
		for _, k := range []int{1e4, 1e5, 1e6, 1e7} {
			b.Run(fmt.Sprintf("rule=%s/keys=%s/nodes=100/vnodes=160", spec.Kind, sizeName(k)), func(b *testing.B) {
				benchSteps(b, spec, k, 100, add(benchNode(100)), remove(benchNode(100)))
			})
		}
	}
}

func benchNode(i int) string { return "node-" + strconv.Itoa(i+1) }

// benchSteps replays step 0 untimed, then alternates steps 1 and 2.
func benchSteps(b *testing.B, spec placer.RuleSpec, k, n int, steps ...timeline.Step) {
	sb := newStepBench(b, spec, k, n, steps...)
	for b.Loop() {
		for i := 1; i <= len(steps); i++ {
			sb.run.step(i)
		}
	}
	reportPerKey(b, k, len(steps))
}

type stepBench struct {
	res *Result
	run *ruleRun
}

// newStepBench builds a scenario of k keys and n nodes with the given
// steps and replays its step 0.
func newStepBench(b testing.TB, spec placer.RuleSpec, k, n int, steps ...timeline.Step) *stepBench {
	s := &Scenario{Name: "bench", Title: "bench", Seed: 1, Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(n),
		Replicas: 1, Rules: []placer.RuleSpec{spec}, Steps: steps}
	tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	res := &Result{Scenario: s, Keys: keySetOf(k), Timeline: tl}
	res.keyCell = stripOffsets(res.Keys.Gen)
	e := res.env()
	p, err := registry.NewPlacer(spec, e)
	if err != nil {
		b.Fatal(err)
	}
	run := newRuleRun(res, p, func(step int) [][]timeline.NodeID { return replayTo(spec, e, tl, step) })
	run.step(0)
	return &stepBench{res: res, run: run}
}

// BenchmarkProfileStep times one membership step of every production
// profile through the generic placer (an add, then the removal of the same
// node), at 10⁵ keys and 100 nodes: the profiles answer key by key, with
// no incremental path yet, so this is their cost per key and step.
func BenchmarkProfileStep(b *testing.B) {
	k, n := 100_000, 100
	for _, kind := range registry.Kinds {
		if kind.Profile == nil {
			continue
		}
		spec := placer.RuleSpec{Kind: kind.Name, Opts: required(kind)}
		b.Run(fmt.Sprintf("rule=%s/keys=%s/nodes=%d", kind.Name, sizeName(k), n), func(b *testing.B) {
			benchSteps(b, spec, k, n, add(benchNode(n)), remove(benchNode(n)))
		})
	}
}
