package sweep

import (
	"fmt"
	"math"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// RingCV is the coefficient of variation of the node loads that a hash
// ring with n nodes of v points each gives on average over ring layouts:
// a node owns the sum of v of the n·v spacings of uniform points, a
// Beta(v, (n−1)·v) share, so E[cv²] = (n−1)/(n·v+1). It is the arcs'
// imbalance alone, with infinitely many keys. n, v ≥ 1.
func RingCV(n, v int) float64 {
	return math.Sqrt(float64(n-1) / (float64(n)*float64(v) + 1))
}

// NoiseCV is √((n−1)/K): the cv that a perfectly random even assignment
// of k keys to n nodes shows (sim.Balance's NoiseCV with equal weights).
func NoiseCV(n, k int) float64 { return math.Sqrt(float64(n-1) / float64(k)) }

// WithNoise combines a rule's own imbalance with key noise, which add
// in variance: √(a² + noise²). A ring's measured cv on K keys is about
// WithNoise(RingCV(n, v), NoiseCV(n, K)).
func WithNoise(a, noise float64) float64 { return math.Hypot(a, noise) }

// The names of the moved-fraction curves of adding one node (addCurve),
// which figures and tables label by name.
const (
	// OptimumCurve is 1/(n+1), the classic optimum of adding an
	// (n+1)-th node to n equal ones: the new node's fair share, which
	// a rule that stays even and moves nothing it need not would move
	// (sim's optimum metric over K). It is not a floor: a rule that gives
	// the new node less than its share moves less.
	OptimumCurve = "optimum"
	// ModuloCurve is n/(n+1), what modulo moves then.
	ModuloCurve = "modulo theory"
)

// Curve is a theoretical value of one metric at every sweep value.
type Curve struct {
	// Name says what the curve is, e.g. "ring theory with key noise".
	Name string
	// Formula is the curve's formula in plain text.
	Formula string
	// Rules are the labels of the rules the curve predicts; empty for
	// the noise floor, which belongs to no rule.
	Rules []string
	// Y holds one value per sweep value, NaN where the theory does not
	// apply (unequal weights, a failed node, step 1 not one add).
	Y []float64
	// Noise marks the noise floor.
	Noise bool
}

// Curves returns the theory for metric at the step the sweep plots it
// (step 0 for balance metrics, step 1 for moved_fraction): for cv, the
// ring's √((n−1)/(n·v+1)) combined with key noise per ring-like rule
// (ring, ketama) and the noise floor √((n−1)/K); for moved_fraction
// when step 1 adds one node to n equal live nodes, the optimum 1/(n+1)
// (OptimumCurve) and modulo's n/(n+1). Curves with the same values are
// merged.
func (res *Result) Curves(metric string) []Curve {
	var out []Curve
	switch metric {
	case "cv":
		for r, spec := range res.Rules {
			if c, ok := res.ringCurve(r, spec); ok {
				out = mergeCurve(out, c)
			}
		}
		out = append(out, res.noiseCurve())
	case "moved_fraction":
		for r, spec := range res.Rules {
			if c, ok := res.addCurve(r, spec); ok {
				out = mergeCurve(out, c)
			}
		}
	}
	return out
}

// even reports whether st has no failed member and equal weights, and
// returns its size.
func even(st *timeline.State) (int, bool) {
	for _, m := range st.Members {
		if m.Failed || m.Weight != st.Members[0].Weight {
			return 0, false
		}
	}
	return len(st.Members), len(st.Members) > 0
}

func (res *Result) ringCurve(r int, spec placer.RuleSpec) (Curve, bool) {
	kind := registry.KindOf(spec.Kind)
	if kind.Theory != rulekind.RingTheory {
		return Curve{}, false
	}
	c := Curve{Name: spec.Kind + " theory with key noise", Formula: "√((n−1)/(n·v+1) + (n−1)/K)", Rules: []string{spec.Label}}
	if kind.FixedPoints != 0 {
		c.Name = fmt.Sprintf("%s theory (v = %d) with key noise", spec.Label, kind.FixedPoints)
	}
	ok := false
	for i := range res.Runs {
		st := &res.Starts[i][0]
		n, even := even(st)
		v := res.Plan.Scenario(res.Base, i, 0).Rules[r].VNodes
		switch {
		case kind.FixedPoints != 0:
			v = kind.FixedPoints
		case st.VNodes != 0:
			v = st.VNodes
		case v == 0:
			v = placer.DefaultVNodes
		}
		y := math.NaN()
		if even {
			y, ok = WithNoise(RingCV(n, v), NoiseCV(n, res.Runs[i][0].Keys)), true
		}
		c.Y = append(c.Y, y)
	}
	return c, ok
}

func (res *Result) noiseCurve() Curve {
	c := Curve{Name: "noise floor", Formula: "√((n−1)/K)", Noise: true}
	for i := range res.Runs {
		c.Y = append(c.Y, res.Runs[i][0].Metrics[0][0].NoiseCV)
	}
	return c
}

// addCurve is the moved fraction of step 1 when it adds one node to an
// even cluster of n: the optimum 1/(n+1), or n/(n+1) for modulo.
func (res *Result) addCurve(r int, spec placer.RuleSpec) (Curve, bool) {
	modulo := registry.KindOf(spec.Kind).Theory == rulekind.ModuloTheory
	c := Curve{Name: OptimumCurve, Formula: "1/(n+1)", Rules: []string{spec.Label}}
	if modulo {
		c = Curve{Name: ModuloCurve, Formula: "n/(n+1)", Rules: []string{spec.Label}}
	}
	ok := false
	for i := range res.Runs {
		y := math.NaN()
		if len(res.Starts[i]) > 1 {
			st0, st1 := &res.Starts[i][0], &res.Starts[i][1]
			n, even0 := even(st0)
			n1, even1 := even(st1)
			if even0 && even1 && st1.Op == timeline.OpAdd && n1 == n+1 && st1.Replicas == 1 {
				y = 1 / float64(n+1)
				if modulo {
					y = float64(n) / float64(n+1)
				}
				ok = true
			}
		}
		c.Y = append(c.Y, y)
	}
	return c, ok
}

// mergeCurve adds c to cs, or its rules to a curve with the same name
// and values.
func mergeCurve(cs []Curve, c Curve) []Curve {
	for i := range cs {
		if cs[i].Name == c.Name && sameFloats(cs[i].Y, c.Y) {
			cs[i].Rules = append(cs[i].Rules, c.Rules...)
			return cs
		}
	}
	return append(cs, c)
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}
