package report

import (
	"math"
	"slices"

	"github.com/ringreport/ringreport/internal/sweep"
)

// This file writes data.json's "sweep" member: what the scenario's
// sweep: and seeds: measured (SCHEMA.md, "sweep").

// StudyMetrics lists the metrics data.json's "sweep" carries, with the
// step each is taken at: the balance figures at step 0 and, when the
// scenario has a step 1, the moved fraction there.
func StudyMetrics(st *sweep.Result) []StudyMetric {
	ms := []StudyMetric{{"cv", 0}, {"worst_deviation", 0}, {"peak_to_mean", 0}}
	if st.Steps() > 1 {
		ms = append(ms, StudyMetric{"moved_fraction", 1})
	}
	return ms
}

// StudyMetric is one metric of data.json's "sweep" at its step.
type StudyMetric struct {
	// Metric is the metric's data.json name.
	Metric string
	// Step is the step it is taken at.
	Step int
}

// sweep writes data.json's "sweep" member, null when st is nil.
func (d *jsonDoc) sweep(st *sweep.Result) {
	e := d.e
	if st == nil || len(st.Runs) == 0 || len(st.Rules) == 0 {
		e.null()
		return
	}
	pl := st.Plan
	e.openObject()
	e.key("param")
	if pl.Param != "" {
		e.str(pl.Param)
	} else {
		e.null()
	}
	e.key("values")
	e.openArray()
	for _, v := range pl.Values {
		e.elem()
		d.sweepValue(pl.Param, v)
	}
	e.closeArray()
	e.key("seeds")
	e.openArray()
	for j := range pl.SeedCount() {
		e.elem()
		e.uint(sweep.Seed(st.Base.Seed, j))
	}
	e.closeArray()
	ms := StudyMetrics(st)
	theory := make([][]float64, len(ms)) // [metric][rule*points+i]
	e.key("metrics")
	e.openArray()
	for k, m := range ms {
		e.elem()
		e.openObject()
		e.kstr("metric", m.Metric)
		e.kint("step", m.Step)
		e.closeObject()
		theory[k] = ruleTheory(st, m.Metric)
	}
	e.closeArray()
	noise := st.Curves("cv")
	e.key("points")
	e.openArray()
	for i := range st.Runs {
		e.elem()
		e.openObject()
		e.key("value")
		if pl.Param != "" {
			d.sweepValue(pl.Param, pl.Values[i])
		} else {
			e.null()
		}
		e.kfixed6("noise_cv", noise[len(noise)-1].Y[i])
		e.key("rules")
		e.openObject()
		for r, rs := range st.Rules {
			e.key(rs.Label)
			e.openObject()
			for k, m := range ms {
				b := st.Band(m.Metric, i, m.Step, r)
				e.key(m.Metric)
				e.openObject()
				e.kfixed6("mean", b.Mean)
				e.kfixed6("min", b.Min)
				e.kfixed6("max", b.Max)
				e.kfixed6("p10", b.P10)
				e.kfixed6("p90", b.P90)
				e.kfixed6("theory", theory[k][r*len(st.Runs)+i])
				e.closeObject()
			}
			e.closeObject()
		}
		e.closeObject()
		e.closeObject()
	}
	e.closeArray()
	e.closeObject()
}

// sweepValue writes a sweep value: an integer, or a number with 6
// decimals for epsilon.
func (d *jsonDoc) sweepValue(param string, v float64) {
	if param == sweep.Epsilon {
		d.e.fixed6(v)
		return
	}
	d.e.int(int64(v))
}

// ruleTheory returns, at index r·points + i, the theory of metric for
// rule r at sweep value i: NaN where no curve of st.Curves predicts the
// rule (the noise floor belongs to no rule).
func ruleTheory(st *sweep.Result, metric string) []float64 {
	n := len(st.Runs)
	out := make([]float64, len(st.Rules)*n)
	curves := st.Curves(metric)
	for r, rs := range st.Rules {
		ci := slices.IndexFunc(curves, func(c sweep.Curve) bool { return !c.Noise && slices.Contains(c.Rules, rs.Label) })
		for i := range n {
			out[r*n+i] = math.NaN()
			if ci >= 0 {
				out[r*n+i] = curves[ci].Y[i]
			}
		}
	}
	return out
}
