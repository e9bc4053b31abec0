package report

import (
	"github.com/ringreport/ringreport/internal/sim"
)

// This file builds report.md's step table from the metric table: every
// metric of sim.Metrics with a Column is a column, in table order, shown
// when its Column.Shown says, each cell written as its Column says.

// StepColumn is one column of a step's table (StepSection.Columns).
type StepColumn struct {
	// Metric is the metric's name, as in data.json and steps.csv.
	Metric string
	// Heading is the column's heading.
	Heading string
	// Align is the column's cell of the table's alignment row: "--:" for
	// numbers, "---" for words.
	Align string
}

// columnGroups says, for each group of columns shown on a condition of
// the whole scenario (sim.ShowWithHealth, sim.ShowWithUnits, …), whether
// the scenario shows it: whether one of its metrics is not zero at some
// step of some rule.
type columnGroups map[sim.Shown]bool

// newColumnGroups finds the column groups res shows.
func newColumnGroups(res *sim.Result) columnGroups {
	g := columnGroups{}
	for r, rr := range res.Rules {
		for i := range rr.Steps {
			var a *sim.At
			for _, m := range sim.Metrics {
				if m.Column == nil || m.Column.Shown <= sim.ShowWithReplicas || g[m.Column.Shown] {
					continue
				}
				if a == nil {
					a = res.At(r, i)
				}
				if v := m.Value(a); v.OK && (v.N != 0 || v.F != 0) {
					g[m.Column.Shown] = true
				}
			}
		}
	}
	return g
}

// stepMetrics returns the metrics with a column in step i's table.
func stepMetrics(res *sim.Result, i int, g columnGroups) []sim.Metric {
	var out []sim.Metric
	for _, m := range sim.Metrics {
		if m.Column != nil && g.shown(m.Column.Shown, res, i) {
			out = append(out, m)
		}
	}
	return out
}

// shown reports whether step i's table has the columns shown when s.
func (g columnGroups) shown(s sim.Shown, res *sim.Result, i int) bool {
	switch s {
	case sim.ShowAlways:
		return true
	case sim.ShowWithReplicas:
		return listsLonger(res, i)
	}
	return g[s]
}

// listsLonger reports whether step i's preference lists, or the previous
// step's, are longer than one.
func listsLonger(res *sim.Result, i int) bool {
	st := res.Timeline.States
	return st[i].Replicas > 1 || (i > 0 && st[i-1].Replicas > 1)
}

// stepColumns returns the columns of the given metrics.
func stepColumns(metrics []sim.Metric) []StepColumn {
	out := make([]StepColumn, len(metrics))
	for j, m := range metrics {
		out[j] = StepColumn{Metric: m.Name, Heading: m.Column.Heading, Align: "--:"}
		if m.Kind == sim.StepRef {
			out[j].Align = "---"
		}
	}
	return out
}

// stepCells writes rule r's cells of step i under the given metrics.
func stepCells(res *sim.Result, r, i int, metrics []sim.Metric) []string {
	a := res.At(r, i)
	out := make([]string, len(metrics))
	for j, m := range metrics {
		out[j] = columnCell(m, m.Value(a), a.S)
	}
	return out
}

// columnCell writes one metric's value as its column shows it: "—"
// where it is not defined.
func columnCell(m sim.Metric, v sim.Value, sr *sim.StepResult) string {
	switch {
	case !v.OK:
		return "—"
	case m.Kind == sim.StepRef:
		return recurrenceWords(int(v.N), sr.Moved)
	case m.Kind == sim.Hex:
		return fingerprint(uint64(v.N))
	case m.Kind == sim.Fraction && m.Column.Percent:
		return pct(v.F)
	case m.Kind == sim.Fraction:
		return fixed(3, v.F)
	}
	return count(int(v.N))
}
