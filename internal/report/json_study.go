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

type jsonSweep struct {
	Param   *string          `json:"param"`
	Values  []any            `json:"values"`
	Seeds   []uint64         `json:"seeds"`
	Metrics []jsonSweepStat  `json:"metrics"`
	Points  []jsonSweepPoint `json:"points"`
}

type jsonSweepStat struct {
	Metric string `json:"metric"`
	Step   int    `json:"step"`
}

type jsonSweepPoint struct {
	Value   any    `json:"value"`
	NoiseCV fixed6 `json:"noise_cv"`
	Rules   object `json:"rules"`
}

type jsonBand struct {
	Mean   fixed6 `json:"mean"`
	Min    fixed6 `json:"min"`
	Max    fixed6 `json:"max"`
	P10    fixed6 `json:"p10"`
	P90    fixed6 `json:"p90"`
	Theory fixed6 `json:"theory"`
}

// sweepValue is a sweep value as data.json writes it: an integer, or a
// number with 6 decimals for epsilon.
func sweepValue(param string, v float64) any {
	if param == sweep.Epsilon {
		return fixed6(v)
	}
	return int64(v)
}

// jsonSweepOf builds data.json's "sweep" member; nil when st is.
func jsonSweepOf(st *sweep.Result) *jsonSweep {
	if st == nil || len(st.Runs) == 0 || len(st.Rules) == 0 {
		return nil
	}
	pl := st.Plan
	js := &jsonSweep{Values: []any{}, Seeds: []uint64{}, Metrics: []jsonSweepStat{}, Points: []jsonSweepPoint{}}
	if pl.Param != "" {
		p := pl.Param
		js.Param = &p
	}
	for _, v := range pl.Values {
		js.Values = append(js.Values, sweepValue(pl.Param, v))
	}
	for j := range pl.SeedCount() {
		js.Seeds = append(js.Seeds, sweep.Seed(st.Base.Seed, j))
	}
	ms := StudyMetrics(st)
	theory := make([][]float64, len(ms)) // [metric][rule*points+i]
	for k, m := range ms {
		js.Metrics = append(js.Metrics, jsonSweepStat(m))
		theory[k] = ruleTheory(st, m.Metric)
	}
	noise := st.Curves("cv")
	for i := range st.Runs {
		p := jsonSweepPoint{Rules: object{}}
		if pl.Param != "" {
			p.Value = sweepValue(pl.Param, pl.Values[i])
		}
		p.NoiseCV = fixed6(noise[len(noise)-1].Y[i])
		for r, rs := range st.Rules {
			o := object{}
			for k, m := range ms {
				b := st.Band(m.Metric, i, m.Step, r)
				o = append(o, member{m.Metric, jsonBand{fixed6(b.Mean), fixed6(b.Min), fixed6(b.Max),
					fixed6(b.P10), fixed6(b.P90), fixed6(theory[k][r*len(st.Runs)+i])}})
			}
			p.Rules = append(p.Rules, member{rs.Label, o})
		}
		js.Points = append(js.Points, p)
	}
	return js
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
