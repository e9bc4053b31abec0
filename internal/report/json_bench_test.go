package report

import (
	"fmt"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// scaleModulo is bench/genscenario.sh with modulo alone: keys keys on
// nodes nodes, steps membership changes cycling add / fail / recover /
// remove. Modulo reshuffles almost every key at every step, so each step
// has about nodes² transfer pairs: the case that made data.json
// quadratic in the cluster size.
func scaleModulo(count, nodes, steps int) *sim.Scenario {
	s := &sim.Scenario{Name: "scale", Title: "scale", Seed: 1, Keys: keys.KeySpec{Count: count},
		Rules: []placer.RuleSpec{{Kind: "modulo"}}, Replicas: 1}
	for i := range nodes {
		s.Nodes = append(s.Nodes, timeline.NodeSpec{Name: fmt.Sprintf("node-%d", i+1)})
	}
	n := nodes
	for i := range steps {
		switch i % 4 {
		case 0:
			n++
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpAdd, Nodes: names(fmt.Sprintf("node-%d", n))})
		case 1:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpFail, Random: true})
		case 2:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpRecover, All: true})
		case 3:
			s.Steps = append(s.Steps, timeline.Step{Op: timeline.OpRemove, Random: true})
		}
	}
	return s
}

// benchScales are the sizes the output benchmarks run at.
var benchScales = []struct{ keys, nodes, steps int }{{1e4, 10, 10}, {1e5, 100, 100}}

// benchOutput times render on the replay of each benchScales scenario
// and reports the output's size in bytes.
func benchOutput(b *testing.B, render func(*sim.Result) ([]byte, error)) {
	benchWrite(b, func(res *sim.Result) (int, error) {
		out, err := render(res)
		return len(out), err
	})
}

// benchWrite is benchOutput for a render that returns the size it wrote.
func benchWrite(b *testing.B, render func(*sim.Result) (int, error)) {
	for _, sc := range benchScales {
		name := fmt.Sprintf("keys=%s/nodes=%d/steps=%d", sci(sc.keys), sc.nodes, sc.steps)
		b.Run(name, func(b *testing.B) {
			res, err := sim.Replay(scaleModulo(sc.keys, sc.nodes, sc.steps))
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				n, err := render(res)
				if err != nil {
					b.Fatal(err)
				}
				size = n
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}

// BenchmarkJSON renders data.json of a modulo scenario.
func BenchmarkJSON(b *testing.B) { benchOutput(b, JSON) }

// BenchmarkCSV renders steps.csv of the same scenario.
func BenchmarkCSV(b *testing.B) { benchOutput(b, CSV) }

// sci writes a power of ten as 1e5.
func sci(n int) string {
	e := 0
	for ; n >= 10 && n%10 == 0; n /= 10 {
		e++
	}
	return fmt.Sprintf("%de%d", n, e)
}

// BenchmarkJSONReference renders the same data.json with the reference
// encoder (encoding/json through reflection, then indented): what the
// streaming encoder alone saves, on identical output.
func BenchmarkJSONReference(b *testing.B) {
	benchOutput(b, func(res *sim.Result) ([]byte, error) { return refJSON(res, nil) })
}

// BenchmarkWriteJSON streams data.json to io.Discard: the encoder's cost
// without the caller's buffer.
func BenchmarkWriteJSON(b *testing.B) {
	benchWrite(b, func(res *sim.Result) (int, error) {
		var n countingWriter
		err := WriteJSON(&n, res, nil)
		return int(n), err
	})
}

// BenchmarkTransfersCSV renders transfers.csv whatever its size, as
// render transfers-csv does (about 1,000,000 rows at 100 nodes).
func BenchmarkTransfersCSV(b *testing.B) {
	benchWrite(b, func(res *sim.Result) (int, error) {
		var n countingWriter
		err := WriteTransfersCSV(&n, res, -1)
		return int(n), err
	})
}
