package sweep

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
	"github.com/ringreport/ringreport/internal/workers"
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

// Options tunes Execute. It has no fields yet: the replays run on the
// process-wide worker pool (internal/workers).
type Options struct{}

// Execute replays every variant of base that p asks for, on the worker
// pool, and keeps their metrics. base must be valid, and so must every
// variant, and their work must be within bounds (internal/scenario
// checks both, the work with internal/cost); the first error in variant
// order is returned.
//
// The replays share what does not change between them. No parameter
// changes the keys, so the variants of one seed replay over one key set
// (built once, dropped when the seed's last replay is done), and hash and
// sort it under each rule's hash once (keys.KeySet.ShareCaches). A rule the
// parameter does not change (ketama under a vnodes sweep) gives the
// same figures at every value, so it is replayed once per seed and its
// figures copied to every value. The result is exactly that of
// replaying every variant in full on its own (TestExecuteIsFullReplay).
func Execute(base *sim.Scenario, p Plan, opts Options) (*Result, error) {
	x := newExecution(base, p)
	workers.Each(len(x.jobs), x.run)
	if err := x.firstError(); err != nil {
		return nil, err
	}
	return x.res, nil
}

// firstError returns the error of the earliest failed variant (value,
// then seed), or nil; of two failed jobs of one variant, the one that
// comes first in x.jobs.
func (x *execution) firstError() error {
	var first error
	at := -1
	for t, err := range x.errs {
		jb := x.jobs[t]
		if v := jb.value*x.p.SeedCount() + jb.seed; err != nil && (at < 0 || v < at) {
			first, at = err, v
		}
	}
	return first
}

// job is one replay of an execution: the rules ruleIdx of sweep value
// value (every value when all is set) under seed seed.
type job struct {
	value, seed int
	all         bool
	ruleIdx     []int
}

// execution is an Execute in progress. Each job writes only its own
// rules' figures of its own runs, its own Starts entry and its own error
// slot, so jobs need no lock.
type execution struct {
	p     Plan
	base  *sim.Scenario
	rules []placer.RuleSpec // labelled
	jobs  []job             // seed-major, so that few key sets live at once
	keys  []seedKeys        // by seed
	res   *Result
	errs  []error // by job
}

// seedKeys is the key set of one seed, built by its first job and
// dropped by its last.
type seedKeys struct {
	once sync.Once
	ks   *keys.KeySet
	left atomic.Int32
}

func newExecution(base *sim.Scenario, p Plan) *execution {
	nv, ns := p.Points(), p.SeedCount()
	x := &execution{p: p, base: base, rules: sim.LabelRules(base.Rules), keys: make([]seedKeys, ns)}
	x.res = &Result{Plan: p, Base: base, Rules: x.rules, Runs: make([][]Run, nv), Starts: make([][]timeline.State, nv)}
	for i := range x.res.Runs {
		x.res.Runs[i] = make([]Run, ns)
		for j := range x.res.Runs[i] {
			x.res.Runs[i][j].Metrics = makeMetrics(len(base.Steps)+1, len(x.rules))
		}
	}
	own, same := x.split()
	for j := range ns {
		first := len(x.jobs)
		if len(same) > 0 {
			x.jobs = append(x.jobs, job{seed: j, all: true, ruleIdx: same})
		}
		for i := range nv {
			x.jobs = append(x.jobs, job{value: i, seed: j, ruleIdx: own})
		}
		x.keys[j].left.Store(int32(len(x.jobs) - first))
	}
	x.errs = make([]error, len(x.jobs))
	return x
}

// split returns the indices of the rules that the swept parameter
// changes and of those it leaves alone. With one value, or a parameter
// of the scenario (nodes, replicas) rather than of rules, every rule is
// replayed with every value.
func (x *execution) split() (own, same []int) {
	for r, spec := range x.rules {
		if x.p.Points() == 1 || Applies(x.p.Param, spec) {
			own = append(own, r)
		} else {
			same = append(same, r)
		}
	}
	return own, same
}

func makeMetrics(states, rules int) [][]Metrics {
	out := make([][]Metrics, states)
	for i := range out {
		out[i] = make([]Metrics, rules)
	}
	return out
}

// run replays job t and files its figures.
func (x *execution) run(t int) {
	jb := x.jobs[t]
	sk := &x.keys[jb.seed]
	s := x.scenario(jb)
	sk.once.Do(func() {
		sk.ks = keys.NewKeySet(s.Keys, s.Seed)
		sk.ks.ShareCaches()
	})
	r, err := sim.ReplayWith(s, sim.Options{Keys: sk.ks, MetricsOnly: true})
	if sk.left.Add(-1) == 0 {
		sk.ks = nil
	}
	if err != nil {
		x.errs[t] = fmt.Errorf("sweep value %d, seed %d: %w", jb.value+1, Seed(x.base.Seed, jb.seed), err)
		return
	}
	if jb.all {
		for i := range x.res.Runs {
			fill(&x.res.Runs[i][jb.seed], r, jb.ruleIdx)
		}
		return
	}
	run := &x.res.Runs[jb.value][jb.seed]
	run.Seed, run.Keys, run.Live = r.Scenario.Seed, r.Keys.Len(), live(r)
	fill(run, r, jb.ruleIdx)
	if jb.seed == 0 {
		x.res.Starts[jb.value] = starts(r)
	}
}

// scenario returns the variant a job replays, with only its rules,
// labelled as in the whole scenario.
func (x *execution) scenario(jb job) *sim.Scenario {
	s := x.p.Scenario(x.base, jb.value, jb.seed)
	all := s.Rules
	s.Rules = make([]placer.RuleSpec, len(jb.ruleIdx))
	for k, r := range jb.ruleIdx {
		s.Rules[k] = all[r]
		s.Rules[k].Label = x.rules[r].Label
	}
	return s
}

// live returns the number of live members after each step of a replay.
func live(r *sim.Result) []int {
	out := make([]int, len(r.Timeline.States))
	for i := range r.Timeline.States {
		out[i] = r.Timeline.States[i].Live()
	}
	return out
}

// fill files the figures of replay r, whose k-th rule is rule ruleIdx[k]
// of the scenario, into run.
func fill(run *Run, r *sim.Result, ruleIdx []int) {
	k := r.Keys.Len()
	for i := range r.Timeline.States {
		for ri, to := range ruleIdx {
			s := &r.Rules[ri].Steps[i]
			b := r.Balance(ri, i)
			run.Metrics[i][to] = Metrics{
				MovedFraction: float64(s.Moved) / float64(k), IdealFraction: float64(s.Ideal) / float64(k),
				PeakToMean: b.PeakToMean, WorstDeviation: b.WorstDeviation, CV: b.CV, NoiseCV: b.NoiseCV,
				TotalMoved: s.TotalMoved,
			}
		}
	}
}

// summarize keeps the metrics of a whole replay: what Execute gives for
// one variant, by the reference path of replaying it alone.
func summarize(r *sim.Result) Run {
	run := Run{Seed: r.Scenario.Seed, Keys: r.Keys.Len(), Live: live(r), Metrics: makeMetrics(len(r.Timeline.States), len(r.Rules))}
	all := make([]int, len(r.Rules))
	for i := range all {
		all[i] = i
	}
	fill(&run, r, all)
	return run
}

func starts(r *sim.Result) []timeline.State {
	n := min(len(r.Timeline.States), 2)
	return append([]timeline.State(nil), r.Timeline.States[:n]...)
}
