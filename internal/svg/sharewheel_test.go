package svg

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/strips"
)

// TestShareWheels: in ring.yaml (900 keys, so arc wheels draw key dots)
// modulo's wheel, a Mosaic kind by its registry entry, is its live nodes'
// shares end to end in join order, without key dots, and after step 0
// its inner ring covers exactly the keys that moved, Moved/K of a turn;
// ring's wheel, not Mosaic, keeps its arcs and dots.
func TestShareWheels(t *testing.T) {
	res := exampleResult(t, "ring.yaml")
	for r, rr := range res.Rules {
		mosaic := registry.KindOf(rr.Spec.Kind).Mosaic
		if mosaicWheel(rr.Spec) != mosaic {
			t.Fatalf("%s: the figure's form is not its registry entry's", rr.Spec.Label)
		}
		for i := range res.Timeline.States {
			f, _, _ := FigureOf(res, "rings", i)
			panel := panelOf(t, string(f.SVG), rr.Spec.Label)
			if dots := strings.Contains(panel, `class="rr-key"`); dots == mosaic {
				t.Errorf("%s step %d: key dots %v on a wheel with Mosaic %v", rr.Spec.Label, i, dots, mosaic)
			}
			if !mosaic {
				continue
			}
			segs := shareSegments(res, r, i)
			live := 0
			for _, m := range res.Timeline.States[i].Members {
				if !m.Failed {
					if segs[live].id != m.ID {
						t.Fatalf("step %d: segment %d is node %d, want %d (join order)", i, live, segs[live].id, m.ID)
					}
					want := float64(rr.Steps[i].Loads[m.ID]) / float64(res.Keys.Len())
					if got := segs[live].to - segs[live].from; math.Abs(got-want) > 1e-12 {
						t.Errorf("step %d: node %d's segment %.4f, its share %.4f", i, m.ID, got, want)
					}
					live++
				}
			}
			if live != len(segs) || math.Abs(segs[len(segs)-1].to-1) > 1e-12 {
				t.Errorf("step %d: %d segments ending at %.4f, want %d ending at 1", i, len(segs), segs[len(segs)-1].to, live)
			}
			if i == 0 {
				continue
			}
			inner := regexp.MustCompile(`stroke-width="5" stroke-dasharray="([^"]*)"`).FindAllStringSubmatch(panel, -1)
			g := wheelLayout(res, i)
			l := 2 * math.Pi * (g.r - 13)
			on := 0.0
			for _, m := range inner {
				for j, v := range strings.Fields(m[1]) {
					if x, _ := strconv.ParseFloat(v, 64); j%2 == 0 {
						on += x
					}
				}
			}
			if want := float64(rr.Steps[i].Moved) / float64(res.Keys.Len()) * l; math.Abs(on-want) > 0.1*float64(len(segs)*strips.NumReasons)+0.5 {
				t.Errorf("step %d: the inner ring covers %.1f of %.1f px, the moved keys %.1f", i, on, l, want)
			}
		}
	}
}
