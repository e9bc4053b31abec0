package build

import (
	"fmt"
	"strings"
	"testing"
)

// scaleScenario is bench/genscenario.sh in Go: keys keys, nodes nodes of
// 160 points, steps membership changes cycling add / fail / recover /
// remove, under the given rules.
func scaleScenario(keys, nodes, steps int, rules string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "title: scale\nseed: 1\nkeys: %d\nnodes: %d\nrules: %s\nsteps:\n", keys, nodes, rules)
	n := nodes
	for i := range steps {
		switch i % 4 {
		case 0:
			n++
			fmt.Fprintf(&b, "  - add: node-%d\n", n)
		case 1:
			b.WriteString("  - fail: random\n")
		case 2:
			b.WriteString("  - recover: all\n")
		case 3:
			b.WriteString("  - remove: random\n")
		}
	}
	return []byte(b.String())
}

// BenchmarkBuild is the end-to-end case: parse, replay, figures,
// report and pages of one scenario, nothing written to disk.
func BenchmarkBuild(b *testing.B) {
	for _, keys := range []int{1e5, 1e6} {
		src := scaleScenario(keys, 100, 100, "[ring, jump, rendezvous, maglev, ketama]")
		b.Run(fmt.Sprintf("keys=%.0e/nodes=100/vnodes=160/steps=100/rules=5", float64(keys)), func(b *testing.B) {
			in := []Input{{Path: "scale.yaml", Src: src}}
			for b.Loop() {
				if _, err := Build(in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
