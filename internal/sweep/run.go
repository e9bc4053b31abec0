package sweep

import (
	"fmt"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
	"github.com/ringreport/ringreport/internal/workers"
	"sync"

	"github.com/ringreport/ringreport/internal/sim"
)

// Metrics are one rule's figures at one step of one variant: those of
// sim.Result.Metric that a sweep plots or tabulates.
type Metrics struct {
	// MovedFraction is moved / K, and IdealFraction ideal / K.
	MovedFraction, IdealFraction float64
	// PeakToMean, WorstDeviation, CV and NoiseCV are sim.Balance's.
	PeakToMean, WorstDeviation, CV, NoiseCV float64
	// TotalMoved is the running total of moved keys.
	TotalMoved int
}

// Run is what one variant's replay measured, without the assignments.
type Run struct {
	// Seed is the variant's seed.
	Seed uint64
	// Keys is K.
	Keys int
	// Live is the number of live members after each step.
	Live []int
	// Metrics holds [step][rule] figures.
	Metrics [][]Metrics
}

// Result holds every variant's Run: Runs[i][j] is sweep value i (0 when
// there is no sweep) with seed j.
type Result struct {
	// Plan is the plan that was run.
	Plan Plan
	// Base is the scenario as written.
	Base *sim.Scenario
	// Rules are the rules with their labels, in scenario order.
	Rules []placer.RuleSpec
	// Runs holds Plan.Points() × Plan.SeedCount() runs.
	Runs [][]Run
	// Starts holds, per sweep value, the state at step 0 and, when the
	// scenario has one, step 1 (of seed 0): what the theory needs.
	Starts [][]timeline.State
}

// Options tunes Run. It has no fields yet: the replays run on the
// process-wide worker pool (internal/workers).
type Options struct{}

// Execute replays every variant of base that p asks for, on the worker
// pool, and keeps their metrics. base must be valid, and
// so must every variant, and their work must be within bounds
// (internal/scenario checks both, the work with internal/cost); the
// first error in variant order is returned.
func Execute(base *sim.Scenario, p Plan, opts Options) (*Result, error) {
	nv, ns := p.Points(), p.SeedCount()
	res := &Result{Plan: p, Base: base, Runs: make([][]Run, nv), Starts: make([][]timeline.State, nv)}
	errs := make([]error, nv*ns)
	for i := range res.Runs {
		res.Runs[i] = make([]Run, ns)
	}
	var mu sync.Mutex
	workers.Each(nv*ns, func(t int) {
		i, j := t/ns, t%ns
		r, err := sim.Replay(p.Scenario(base, i, j))
		if err != nil {
			errs[t] = fmt.Errorf("sweep value %d, seed %d: %w", i+1, Seed(base.Seed, j), err)
			return
		}
		res.Runs[i][j] = summarize(r)
		if j == 0 {
			mu.Lock()
			res.Starts[i] = starts(r)
			if i == 0 {
				res.Rules = labels(r)
			}
			mu.Unlock()
		}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// summarize keeps the metrics of a replay.
func summarize(r *sim.Result) Run {
	k := r.Keys.Len()
	run := Run{Seed: r.Scenario.Seed, Keys: k, Metrics: make([][]Metrics, len(r.Timeline.States))}
	run.Live = make([]int, len(r.Timeline.States))
	for i := range r.Timeline.States {
		run.Live[i] = r.Timeline.States[i].Live()
		run.Metrics[i] = make([]Metrics, len(r.Rules))
		for ri := range r.Rules {
			s := &r.Rules[ri].Steps[i]
			b := r.Balance(ri, i)
			run.Metrics[i][ri] = Metrics{
				MovedFraction: float64(s.Moved) / float64(k), IdealFraction: float64(s.Ideal) / float64(k),
				PeakToMean: b.PeakToMean, WorstDeviation: b.WorstDeviation, CV: b.CV, NoiseCV: b.NoiseCV,
				TotalMoved: s.TotalMoved,
			}
		}
	}
	return run
}

func starts(r *sim.Result) []timeline.State {
	n := min(len(r.Timeline.States), 2)
	return append([]timeline.State(nil), r.Timeline.States[:n]...)
}

func labels(r *sim.Result) []placer.RuleSpec {
	out := make([]placer.RuleSpec, len(r.Rules))
	for i, rr := range r.Rules {
		out[i] = rr.Spec
	}
	return out
}
