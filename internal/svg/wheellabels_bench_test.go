package svg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"

	"github.com/ringreport/ringreport/internal/timeline"
)

// benchLabels returns n labels anchored at random in the top half of a
// wheel, 20 to 60 wide, each with one to three spots, as labelAnchors
// gives them.
func benchLabels(n int, seed uint64) []wheelLabel {
	rng := rand.New(rand.NewPCG(seed, 7))
	top := func() float64 { // a fraction of the turn within 90° of the top
		return math.Mod(1+0.5*rng.Float64()-0.25, 1)
	}
	var out []wheelLabel
	for j := range n {
		spots := []float64{top()}
		for range rng.IntN(3) {
			spots = append(spots, top())
		}
		out = append(out, wheelLabel{id: timeline.NodeID(j), f: spots[0], spots: spots, w: 20 + 40*rng.Float64()})
	}
	return out
}

// benchBand is the top band of a wheel of radius 104 in a panel 213 wide,
// as wheelLabels lays it out, with the "0" box to keep off.
func benchBand() (band, obstacles) {
	const cx, cy, rad = 106.5, 168.0, 104.0
	b := band{cx: cx, cy: cy, ar: rad + 20, lo: 4, hi: 2*cx - 4}
	for k := range labelRows {
		base := cy - rad - 33 - float64(k)*labelRowH
		b.rows = append(b.rows, row{base, base + 2.5, base - 0.8*labelSize})
	}
	return b, obstacles{boxes: [][4]float64{{cx + 3, cy - rad - 29, cx + 11, cy - rad - 18}}}
}

// BenchmarkPlaceBand lays out one band of labels: a wheel's own (at most
// maxWheelLabels, about half of them in a band) and many more, to show how
// the layout grows with the candidates.
func BenchmarkPlaceBand(b *testing.B) {
	bd, keep := benchBand()
	for _, n := range []int{6, 100, 1000} {
		cands := benchLabels(n, 1)
		b.Run(fmt.Sprintf("labels=%d", n), func(b *testing.B) {
			for b.Loop() {
				placeBand(cands, bd, keep)
			}
		})
	}
}

// BenchmarkRingsFigure draws one step's wheels of the scale
// scenario (five rules, nodes of 160 points, a node added and the oldest
// removed in turn), reporting the figure's size: the labels, rings and
// legends of a figure of many nodes.
func BenchmarkRingsFigure(b *testing.B) {
	for _, nodes := range []int{100, 1000} {
		var s strings.Builder
		fmt.Fprintf(&s, "title: scale\nnodes: %d\nkeys: 10000\nrules: [ring, modulo, jump, rendezvous, maglev]\nsteps:\n", nodes)
		for i := range 2 {
			fmt.Fprintf(&s, "  - add: node-%d\n  - remove: node-%d\n", nodes+1+i, 1+i)
		}
		sc, err := scenario.Parse("scale.yaml", []byte(s.String()), scenario.Options{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := sim.Replay(sc)
		if err != nil {
			b.Fatal(err)
		}
		for _, i := range []int{0, 3} {
			b.Run(fmt.Sprintf("nodes=%d/step=%d", nodes, i), func(b *testing.B) {
				var size int
				for b.Loop() {
					f, _, err := FigureOf(res, "rings", i)
					if err != nil {
						b.Fatal(err)
					}
					size = len(f.SVG)
				}
				b.ReportMetric(float64(size), "svg-bytes")
			})
		}
	}
}
