package sweep

import (
	"math"
	"slices"
)

// MetricNames are the metrics a Result summarizes, by their data.json
// names; ideal_fraction is ideal / K.
var MetricNames = []string{"moved_fraction", "ideal_fraction", "peak_to_mean", "worst_deviation", "cv", "noise_cv", "total_moved"}

// Get returns the metric called name (one of MetricNames), or NaN.
func (m Metrics) Get(name string) float64 {
	switch name {
	case "moved_fraction":
		return m.MovedFraction
	case "ideal_fraction":
		return m.IdealFraction
	case "peak_to_mean":
		return m.PeakToMean
	case "worst_deviation":
		return m.WorstDeviation
	case "cv":
		return m.CV
	case "noise_cv":
		return m.NoiseCV
	case "total_moved":
		return float64(m.TotalMoved)
	}
	return math.NaN()
}

// Band summarizes one metric over the seeds of one sweep value.
type Band struct {
	// Mean is the mean over the seeds, summed in seed order.
	Mean float64
	// Min and Max are the extremes.
	Min, Max float64
	// P10 and P90 are the 10th and 90th percentiles, interpolated
	// linearly between order statistics (P10 = Min with fewer than two
	// seeds).
	P10, P90 float64
	// N is the number of seeds.
	N int
}

// Band returns the spread of metric for rule r at step step over the
// seeds of sweep value i.
func (res *Result) Band(metric string, i, step, r int) Band {
	runs := res.Runs[i]
	xs := make([]float64, len(runs))
	for j := range runs {
		xs[j] = runs[j].Metrics[step][r].Get(metric)
	}
	return bandOf(xs)
}

func bandOf(xs []float64) Band {
	b := Band{N: len(xs)}
	if len(xs) == 0 {
		nan := math.NaN()
		return Band{nan, nan, nan, nan, nan, 0}
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	b.Mean = sum / float64(len(xs))
	s := slices.Clone(xs)
	slices.Sort(s)
	b.Min, b.Max = s[0], s[len(s)-1]
	b.P10, b.P90 = quantile(s, 0.1), quantile(s, 0.9)
	return b
}

// quantile interpolates the q-quantile of sorted s.
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	f := pos - float64(lo)
	return s[lo] + f*(s[lo+1]-s[lo])
}

// Steps returns the number of states of every run (steps + 1).
func (res *Result) Steps() int { return len(res.Base.Steps) + 1 }
