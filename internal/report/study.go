package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/svg"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/text"
)

// This file builds the report's sweep and seed sections from a
// sweep.Result: the Sweep section (charts, a table per plotted metric,
// findings that compare the measurements with theory), the band table of
// the Summary, and a band table per step when seeds are given without a
// sweep.

// Study is what the scenario's sweep: and seeds: measured.
type Study struct {
	// Param is the swept parameter ("vnodes", "nodes", "m", "epsilon",
	// "replicas"), or "" when the scenario only has seeds.
	Param string
	// ParamText names it in words, e.g. "points per node".
	ParamText string
	// Values are the sweep values as the scenario writes them.
	Values []string
	// LogScale reports that the charts put the values on a log axis.
	LogScale bool
	// Seeds is the number of seeds per value; Banded reports Seeds > 1.
	Seeds  int
	Banded bool
	// FirstSeed and LastSeed are the first and last seed used.
	FirstSeed, LastSeed uint64
	// Figures are the sweep's charts.
	Figures []FigureRef
	// Tables holds one table per plotted metric.
	Tables []SweepTable
	// Findings are sentences that compare the measurements with theory
	// and say where a rule reaches ±10% and ±5% of even.
	Findings []string
	// Summary holds one row per rule when there is no sweep: the whole
	// run's totals over the seeds.
	Summary []BandSummaryRow
}

// Band is a metric over the seeds: mean, extremes and the 10th and 90th
// percentiles (all equal with one seed).
type Band struct {
	Mean, Min, Max, P10, P90 float64
}

// IntBand is a count over the seeds: the mean rounded, and the extremes.
type IntBand struct {
	Mean, Min, Max int
}

// SweepTable is one metric at one step against the swept parameter.
type SweepTable struct {
	// Metric is the data.json name of the metric, and What says it in
	// words with its step.
	Metric, What string
	// Step is the step the metric is taken at.
	Step int
	// Percent reports that the values are fractions shown as percent.
	Percent bool
	// Rules are the rule columns; Theory the theory columns.
	Rules, Theory []string
	// Rows holds one row per sweep value.
	Rows []SweepRow
}

// SweepRow is one sweep value's measurements and theory.
type SweepRow struct {
	// Value is the sweep value as written.
	Value string
	// Cells holds one band per rule.
	Cells []Band
	// Theory holds one value per theory column, NaN where it does not
	// apply.
	Theory []float64
}

// BandSummaryRow is one rule's whole run over the seeds.
type BandSummaryRow struct {
	// Label names the rule.
	Label string
	// TotalMoved is the keys moved over the whole run (the mean rounded
	// to a whole key), and TimesK the same as a multiple of K.
	TotalMoved IntBand
	TimesK     Band
	// WorstDeviation, PeakToMean and CV are taken at the last step.
	WorstDeviation, PeakToMean, CV Band
}

// StepBand is one rule's figures at one step over the seeds.
type StepBand struct {
	// Label names the rule.
	Label string
	// MovedFraction, WorstDeviation and CV are the bands of those
	// metrics.
	MovedFraction, WorstDeviation, CV Band
}

func bandOf(b sweep.Band) Band { return Band{b.Mean, b.Min, b.Max, b.P10, b.P90} }

// addStudy fills in r's study sections from st and moves the sweep
// charts out of the whole-run figures.
func addStudy(r *Report, st *sweep.Result) {
	if st == nil || len(st.Runs) == 0 || len(st.Rules) == 0 {
		return
	}
	pl := st.Plan
	s := &Study{
		Param: pl.Param, ParamText: sweep.ParamText(pl.Param), LogScale: pl.LogScale(),
		Seeds: pl.SeedCount(), Banded: pl.SeedCount() > 1,
		FirstSeed: st.Base.Seed, LastSeed: sweep.Seed(st.Base.Seed, pl.SeedCount()-1),
	}
	for _, v := range pl.Values {
		s.Values = append(s.Values, sweep.ValueText(v))
	}
	r.Figures = slices.DeleteFunc(r.Figures, func(f FigureRef) bool {
		if _, _, ok := svg.SweepFigureStep(f.Name); ok {
			s.Figures = append(s.Figures, f)
			return true
		}
		return false
	})
	if pl.Param != "" {
		for _, f := range s.Figures {
			metric, step, _ := svg.SweepFigureStep(f.Name)
			s.Tables = append(s.Tables, sweepTable(st, metric, step, f.Title))
		}
		s.Findings = findings(st)
	} else {
		s.Summary = bandSummary(st)
		for i := range r.Steps {
			r.Steps[i].Bands = stepBands(st, r.Steps[i].Step)
		}
	}
	r.Study = s
}

func sweepTable(st *sweep.Result, metric string, step int, what string) SweepTable {
	t := SweepTable{Metric: metric, What: what, Step: step, Percent: metric != "cv"}
	for _, rs := range st.Rules {
		t.Rules = append(t.Rules, rs.Label)
	}
	curves := st.Curves(metric)
	for _, c := range curves {
		t.Theory = append(t.Theory, curveColumn(c))
	}
	for i, v := range st.Plan.Values {
		row := SweepRow{Value: sweep.ValueText(v)}
		for r := range st.Rules {
			row.Cells = append(row.Cells, bandOf(st.Band(metric, i, step, r)))
		}
		for _, c := range curves {
			row.Theory = append(row.Theory, c.Y[i])
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// curveColumn names a theory curve in a table heading.
func curveColumn(c sweep.Curve) string {
	switch {
	case c.Noise:
		return "noise floor " + c.Formula
	case c.Name == sweep.OptimumCurve || c.Name == sweep.ModuloCurve:
		return c.Name + " " + c.Formula
	}
	return strings.Join(c.Rules, ", ") + " theory " + c.Formula
}

// findings compares each rule with its theory and says from which value
// on every seed is within ±10% and ±5% of even.
func findings(st *sweep.Result) []string {
	var out []string
	n := st.Plan.SeedCount()
	for _, c := range st.Curves("cv") {
		if c.Noise {
			continue
		}
		for _, label := range c.Rules {
			r := ruleIndex(st, label)
			inside, count, worst, at := 0, 0, 0.0, ""
			for i, y := range c.Y {
				if math.IsNaN(y) {
					continue
				}
				b := st.Band("cv", i, 0, r)
				count++
				if y >= b.Min && y <= b.Max {
					inside++
				}
				if g := math.Abs(b.Mean/y - 1); g >= worst {
					worst, at = g, sweep.ValueText(st.Plan.Values[i])
				}
			}
			if count == 0 {
				continue
			}
			where := "the band of its seeds (lowest to highest)"
			if n == 1 {
				where = "its measured value"
			}
			out = append(out, fmt.Sprintf("%s: the theory %s meets %s at %d of %d values; the mean cv is within %s of it everywhere (the largest gap is at %s = %s).",
				label, c.Formula, where, inside, count, text.Pct(worst), st.Plan.Param, at))
		}
	}
	for r, rs := range st.Rules {
		if sweep.Applies(st.Plan.Param, rs) {
			out = append(out, reach(st, r, rs.Label))
		}
	}
	return out
}

// reach says from which sweep value on every seed's worst node is within
// ±10% and ±5% of its fair share at step 0.
func reach(st *sweep.Result, r int, label string) string {
	from := func(limit float64) string {
		k := len(st.Plan.Values)
		for k > 0 && st.Band("worst_deviation", k-1, 0, r).Max <= limit {
			k--
		}
		if k == len(st.Plan.Values) {
			return "at none of the values tried"
		}
		if k == 0 {
			return "at every value tried"
		}
		return fmt.Sprintf("from %s = %s on", st.Plan.Param, sweep.ValueText(st.Plan.Values[k]))
	}
	who := "every seed's worst node is"
	if st.Plan.SeedCount() == 1 {
		who = "the worst node is"
	}
	return fmt.Sprintf("%s: %s within ±10%% of its fair share %s, and within ±5%% %s.", label, who, from(0.10), from(0.05))
}

func ruleIndex(st *sweep.Result, label string) int {
	for r, rs := range st.Rules {
		if rs.Label == label {
			return r
		}
	}
	return 0
}

// bandSummary is the whole run of every rule over the seeds.
func bandSummary(st *sweep.Result) []BandSummaryRow {
	last := st.Steps() - 1
	var out []BandSummaryRow
	for r, rs := range st.Rules {
		t := st.Band("total_moved", 0, last, r)
		k := float64(st.Runs[0][0].Keys)
		row := BandSummaryRow{Label: rs.Label,
			TotalMoved:     IntBand{int(math.Round(t.Mean)), int(t.Min), int(t.Max)},
			TimesK:         Band{t.Mean / k, t.Min / k, t.Max / k, t.P10 / k, t.P90 / k},
			WorstDeviation: bandOf(st.Band("worst_deviation", 0, last, r)),
			PeakToMean:     bandOf(st.Band("peak_to_mean", 0, last, r)),
			CV:             bandOf(st.Band("cv", 0, last, r)),
		}
		out = append(out, row)
	}
	return out
}

// stepBands is every rule at step i over the seeds.
func stepBands(st *sweep.Result, i int) []StepBand {
	if i >= st.Steps() {
		return nil
	}
	var out []StepBand
	for r, rs := range st.Rules {
		out = append(out, StepBand{Label: rs.Label,
			MovedFraction:  bandOf(st.Band("moved_fraction", 0, i, r)),
			WorstDeviation: bandOf(st.Band("worst_deviation", 0, i, r)),
			CV:             bandOf(st.Band("cv", 0, i, r)),
		})
	}
	return out
}
