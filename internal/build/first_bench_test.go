package build

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/scenario"
)

// issueScenario is the first row of issue 17's table: keys keys, nodes
// nodes, steps steps alternating add a new node and remove the oldest.
func issueScenario(keys, nodes, steps int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "title: issue\nseed: 1\nkeys: %d\nnodes: %d\nrules: [ring, modulo, jump, rendezvous, maglev]\nsteps:\n", keys, nodes)
	n, oldest := nodes, 1
	for i := range steps {
		if i%2 == 0 {
			n++
			fmt.Fprintf(&b, "  - add: node-%d\n", n)
		} else {
			fmt.Fprintf(&b, "  - remove: node-%d\n", oldest)
			oldest++
		}
	}
	return []byte(b.String())
}

func BenchmarkIssueBuild(b *testing.B) {
	for _, nodes := range []int{100, 1000} {
		src := issueScenario(1e6, nodes, 100)
		b.Run(fmt.Sprintf("keys=1e6/nodes=%d/steps=100/rules=5", nodes), func(b *testing.B) {
			in := []Input{{Path: "issue.yaml", Src: src, Limits: scenario.Limits{Work: 1e13, Memory: 1 << 40}}}
			for b.Loop() {
				if _, err := Build(in, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
