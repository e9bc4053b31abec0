package sim

import (
	"fmt"
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
	"testing"
)

// scaleSteps is bench/genscenario.sh's timeline: n steps cycling add,
// fail a random node, recover all, remove a random node.
func scaleSteps(nodes, n int) []timeline.Step {
	var steps []timeline.Step
	next := nodes
	for i := range n {
		switch i % 4 {
		case 0:
			next++
			steps = append(steps, add(benchNode(next-1)))
		case 1:
			steps = append(steps, timeline.Step{Op: timeline.OpFail, Random: true})
		case 2:
			steps = append(steps, timeline.Step{Op: timeline.OpRecover, All: true})
		case 3:
			steps = append(steps, timeline.Step{Op: timeline.OpRemove, Random: true})
		}
	}
	return steps
}

// BenchmarkReplay times one rule's whole replay of the issue's end-to-end
// timeline (100 steps of add / fail / recover / remove), key set built
// outside the timer; ns/key is per step and key.
func BenchmarkReplay(b *testing.B) {
	k, n, steps := 1_000_000, 100, 100
	for _, spec := range benchRules {
		b.Run(fmt.Sprintf("rule=%s/keys=%s/nodes=%d/vnodes=160/steps=%d", spec.Kind, sizeName(k), n, steps), func(b *testing.B) {
			s := &Scenario{Name: "bench", Title: "bench", Seed: 1, Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(n),
				Replicas: 1, Rules: []placer.RuleSpec{spec}, Steps: scaleSteps(n, steps)}
			keySetOf(k)
			for b.Loop() {
				if _, err := Replay(s); err != nil {
					b.Fatal(err)
				}
			}
			reportPerKey(b, k, steps)
		})
	}
}

// extraSteps is bench/scale.sh's timeline: n steps cycling add a node
// named extra, fail a random node, recover all, remove extra. A failed
// node's state recurs every ~4·nodes steps, past the undo logs.
func extraSteps(n int) []timeline.Step {
	var steps []timeline.Step
	for i := range n {
		switch i % 4 {
		case 0:
			steps = append(steps, add("extra"))
		case 1:
			steps = append(steps, timeline.Step{Op: timeline.OpFail, Random: true})
		case 2:
			steps = append(steps, timeline.Step{Op: timeline.OpRecover, All: true})
		case 3:
			steps = append(steps, timeline.Step{Op: timeline.OpRemove, Nodes: []timeline.NodeSpec{{Name: "extra"}}})
		}
	}
	return steps
}

// BenchmarkLongReplay times one ring's replay of extraSteps at two
// lengths, for the ratio: a recurrence check past the undo logs rebuilds
// the earlier state of a history-free rule alone, so the time grows
// linearly with the steps (it had grown with their square).
func BenchmarkLongReplay(b *testing.B) {
	k, n := 100_000, 100
	for _, steps := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("keys=1e5/steps=%d", steps), func(b *testing.B) {
			s := &Scenario{Name: "bench", Title: "bench", Seed: 1, Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(n),
				Replicas: 1, Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 160}}, Steps: extraSteps(steps)}
			for b.Loop() {
				if _, err := Replay(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// issueSteps is issue 17's first timeline: n steps alternating add a new
// node and remove the oldest, from nodes nodes named as nodeNames names
// them.
func issueSteps(nodes, n int) []timeline.Step {
	var steps []timeline.Step
	next, oldest := nodes, 0
	for i := range n {
		if i%2 == 0 {
			steps = append(steps, add(benchNode(next)))
			next++
		} else {
			steps = append(steps, remove(benchNode(oldest)))
			oldest++
		}
	}
	return steps
}

// BenchmarkIssueReplay times one rule's replay of issue 17's first table
// row (BenchmarkIssueBuild in internal/build is the whole build), over a
// shared key set built outside the timer; ns/key is per step and key.
func BenchmarkIssueReplay(b *testing.B) {
	k, n, steps := 1_000_000, 100, 100
	ks := keySetOf(k)
	for _, spec := range benchRules[:5] {
		b.Run(fmt.Sprintf("rule=%s/keys=%s/nodes=%d/steps=%d", spec.Kind, sizeName(k), n, steps), func(b *testing.B) {
			s := &Scenario{Name: "bench", Title: "bench", Seed: 1, Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(n),
				Replicas: 1, Rules: []placer.RuleSpec{spec}, Steps: issueSteps(n, steps)}
			for b.Loop() {
				if _, err := ReplayWith(s, Options{Keys: ks}); err != nil {
					b.Fatal(err)
				}
			}
			reportPerKey(b, k, steps)
		})
	}
}

// BenchmarkRecomputeReplay times ketama over three nodes that a fourth
// joins and leaves ten times: past the undo logs, every return to an
// earlier placement recomputes it with a new placer, which reuses the
// rule's key hashes (keys.KeySet.Sharing) instead of hashing every key
// with MD5 again: 2.01–2.13 → 0.53–0.55 s a replay here, three
// interleaved runs each.
func BenchmarkRecomputeReplay(b *testing.B) {
	k := 1_000_000
	var steps []timeline.Step
	for range 10 {
		steps = append(steps, add("d"), remove("d"))
	}
	b.Run(fmt.Sprintf("rule=ketama/keys=%s/nodes=3/steps=%d", sizeName(k), len(steps)), func(b *testing.B) {
		s := &Scenario{Name: "bench", Title: "bench", Seed: 1, Keys: keys.KeySpec{Count: k}, Nodes: nodeNames(3),
			Replicas: 1, Rules: []placer.RuleSpec{{Kind: "ketama"}}, Steps: steps}
		keySetOf(k)
		for b.Loop() {
			if _, err := Replay(s); err != nil {
				b.Fatal(err)
			}
		}
		reportPerKey(b, k, len(steps))
	})
}
