package sim

import (
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
	"github.com/ringreport/ringreport/internal/workers"
)

// Replay runs every rule of a scenario over its membership timeline. The
// scenario must be valid (see NewTimeline); Replay returns an error rather
// than a partial result when it is not. Rules run concurrently; the result
// does not depend on scheduling.
func Replay(s *Scenario) (*Result, error) { return replay(s, replayOptions{}) }

// Options tunes ReplayWith. The zero value replays exactly as Replay.
type Options struct {
	// Keys, when not nil, is the key set to replay over instead of one
	// built from s.Keys and s.Seed; it must be keys.NewKeySet(s.Keys,
	// s.Seed) (it is not checked). Replays that differ only in a rule
	// parameter or the nodes, such as a sweep's values under one seed,
	// share one rather than each generating, hashing and sorting its own.
	// Its readers only read it, so replays may share it concurrently.
	Keys *keys.KeySet
	// MetricsOnly leaves out what only figures draw: every StepResult's
	// Strip, Arcs and Points stay empty and are not computed. Every count
	// and metric is exactly Replay's. The result is for reading numbers
	// (a sweep's), not for rendering.
	MetricsOnly bool
	// States, when greater than 0, replays only the first States states
	// (steps 0 to States-1) and leaves every later StepResult zero, and
	// no compare: migrations. The timeline is whole, so a figure of one
	// of those steps is drawn exactly as from a whole replay (`render`
	// of one step's figure); every other reader needs the whole replay.
	States int
	// AllPairs keeps every step's whole list of transfer pairs
	// (Transfers.All) whatever their number, rather than at most
	// MaxKeptPairs of them: what transfers.csv of a large replay needs.
	AllPairs bool
	// AllPairsStep, with AllPairs, keeps the whole list of that step (≥
	// 1) alone, and no other step's: what transfers.csv of one step
	// needs. 0 keeps every step's.
	AllPairsStep int
}

// ReplayWith is Replay with options: the same result, computed with what
// the caller shares.
func ReplayWith(s *Scenario, opts Options) (*Result, error) {
	return replay(s, replayOptions{keys: opts.Keys, metricsOnly: opts.MetricsOnly, states: opts.States, allPairs: opts.AllPairs, pairsStep: opts.AllPairsStep})
}

// LabelRules returns rules with every empty label filled as Replay fills
// it: the kind alone, or the kind with its position when the kind
// repeats. Labels already set are kept.
func LabelRules(rules []placer.RuleSpec) []placer.RuleSpec { return labelRules(rules) }

// replayOptions select how Replay measures; the zero value is the fast
// path.
type replayOptions struct {
	// full makes every rule assign every key at every step and every
	// metric be recomputed from scratch (fullMeasure), with recurrences
	// always recomputed: the reference the incremental path must match.
	full bool
	// counts keeps every step's exact strip counts beside its shaded
	// Strip, so that tests can compare them.
	counts bool
	// keys and metricsOnly are Options.Keys and Options.MetricsOnly;
	// the full replay ignores metricsOnly.
	keys        *keys.KeySet
	metricsOnly bool
	// states is Options.States; the full replay ignores it.
	states int
	// allPairs and pairsStep are Options.AllPairs and AllPairsStep.
	allPairs  bool
	pairsStep int
}

func replay(s *Scenario, opts replayOptions) (*Result, error) {
	tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid scenario: %w", errs[0])
	}
	ks := opts.keys
	if ks == nil {
		ks = keys.NewKeySet(s.Keys, s.Seed)
	}
	res := &Result{Scenario: s, Keys: ks, Timeline: tl, allPairs: opts.allPairs, pairsStep: opts.pairsStep,
		pairsKept: new(atomic.Int64)}
	res.keyCell = stripOffsets(res.Keys.Gen)
	specs := labelRules(s.Rules)
	res.Rules = make([]RuleResult, len(specs))
	errc := make([]error, len(specs))
	workers.Each(len(specs), func(i int) {
		res.Rules[i], errc[i] = replayRule(res, specs[i], opts)
	})
	for _, err := range errc {
		if err != nil {
			return nil, err
		}
	}
	res.dropPairs()
	if opts.states > 0 && !opts.full {
		return res, nil
	}
	var err error
	if res.Migrations, err = migrate(res, specs); err != nil {
		return nil, err
	}
	return res, nil
}

// labelRules fills empty labels: the kind alone, or the kind with its
// position when the kind repeats.
func labelRules(rules []placer.RuleSpec) []placer.RuleSpec {
	out := append([]placer.RuleSpec(nil), rules...)
	count := map[string]int{}
	for _, r := range rules {
		count[r.Kind]++
	}
	for i := range out {
		if out[i].Label == "" {
			out[i].Label = out[i].Kind
			if count[out[i].Kind] > 1 {
				out[i].Label += "-" + strconv.Itoa(i+1)
			}
		}
	}
	return out
}

// replayRule runs one rule through every state of the timeline.
func replayRule(res *Result, spec placer.RuleSpec, opts replayOptions) (RuleResult, error) {
	e := res.env()
	e.Keys = e.Keys.Sharing() // recompute's placers reuse p's key hashes
	p, err := registry.NewPlacer(spec, e)
	if err != nil {
		return RuleResult{}, err
	}
	if c, ok := p.(placer.StartChecker); ok {
		if err := c.CheckStart(&res.Timeline.States[0]); err != nil {
			return RuleResult{}, fmt.Errorf("rule %s: the starting cluster: %w", spec.Label, err)
		}
	}
	rr := RuleResult{Spec: spec, Steps: make([]StepResult, len(res.Timeline.States))}
	recompute := func(step int) [][]timeline.NodeID { return replayTo(spec, e, res.Timeline, step) }
	if opts.full {
		rr.NodeTransfers = replayFull(res, p, rr.Steps, recompute, opts.counts)
	} else {
		rr.NodeTransfers = replayFast(res, p, rr.Steps, recompute, opts)
	}
	return rr, nil
}

// replayFast measures every step through the tracker: deltas where the
// placer has them, whole assignments diffed otherwise, and returns every
// node's transfers over the run.
func replayFast(res *Result, p placer.Placer, out []StepResult, recompute func(int) [][]timeline.NodeID, opts replayOptions) []NodeTransfer {
	run := newRuleRun(res, p, recompute)
	run.t.keepCounts = opts.counts
	run.t.noStrips, run.noGeometry = opts.metricsOnly, opts.metricsOnly
	n := len(out)
	if opts.states > 0 {
		n = min(n, opts.states)
	}
	for i := range out[:n] {
		out[i] = run.step(i)
	}
	return run.t.keeper.totals
}

// ruleRun is one rule's replay in progress.
type ruleRun struct {
	res       *Result
	p         placer.Placer
	dp        placer.DeltaPlacer // p, when it has deltas
	t         *tracker
	d         placer.Delta
	recompute func(int) [][]timeline.NodeID
	// noGeometry skips the figures' points and arcs (metricsOnly).
	noGeometry bool
}

func newRuleRun(res *Result, p placer.Placer, recompute func(int) [][]timeline.NodeID) *ruleRun {
	run := &ruleRun{res: res, p: p, t: newTracker(res, p.Order()), recompute: recompute}
	run.dp, _ = p.(placer.DeltaPlacer)
	return run
}

// step brings the rule to state i and measures it; states must come in
// order, though a benchmark may go back to a state equal to an earlier one.
func (run *ruleRun) step(i int) StepResult {
	st := &run.res.Timeline.States[i]
	p, t := run.p, run.t
	notes := p.Update(st)
	var sr StepResult
	switch {
	case i == 0:
		p.Assign(t.lists(true, st.Replicas))
		sr = t.start()
	case run.dp != nil && st.Replicas == len(t.cur) && deltaOf(run.dp, &run.d, st.Replicas):
		sr = t.applyDelta(i, &run.d)
	default:
		p.Assign(t.lists(false, st.Replicas))
		sr = t.applyWhole(i)
	}
	sr.Notes = notes
	health(&sr, p, st, t.cur, run.res.Timeline.Labels)
	if !run.noGeometry {
		sr.Arcs, sr.Points = p.Geometry()
	}
	sr.Probes = probes(p, run.res.Scenario.Probes, st.Replicas)
	sr.Recurs = t.recurs(i, sr.Fingerprint, run.recompute)
	return sr
}

func deltaOf(dp placer.DeltaPlacer, d *placer.Delta, r int) bool {
	d.Reset(r)
	return dp.Delta(d)
}

// replayFull is the reference replay: whole assignments and metrics from
// scratch at every step, recurrences by recomputation; it returns every
// node's transfers over the run.
func replayFull(res *Result, p placer.Placer, out []StepResult, recompute func(int) [][]timeline.NodeID, keepCounts bool) []NodeTransfer {
	rank := p.Order()
	k := newPairKeeper(res)
	var prev [][]timeline.NodeID
	seen := map[uint64][]int{}
	for i := range res.Timeline.States {
		st := &res.Timeline.States[i]
		notes := p.Update(st)
		cur := placer.MakeLists(st.Replicas, res.Keys.Len())
		p.Assign(cur)
		var prevLoads []int
		total := 0
		if i > 0 {
			prevLoads, total = out[i-1].Loads, out[i-1].TotalMoved
		}
		sr := fullMeasure(res, i, prev, cur, prevLoads, total, rank, keepCounts, k)
		sr.Notes = notes
		health(&sr, p, st, cur, res.Timeline.Labels)
		sr.Arcs, sr.Points = p.Geometry()
		sr.Probes = probes(p, res.Scenario.Probes, st.Replicas)
		for _, j := range seen[sr.Fingerprint] {
			if slices.Equal(recompute(j)[0], cur[0]) {
				sr.Recurs = j
				break
			}
		}
		if sr.Recurs < 0 {
			seen[sr.Fingerprint] = append(seen[sr.Fingerprint], i)
		}
		out[i], prev = sr, cur
	}
	return k.totals
}

func probes(p placer.Placer, keys []string, r int) []Probe {
	out := make([]Probe, len(keys))
	pt, _ := p.(placer.PositionTexter)
	for i, k := range keys {
		out[i].Position, out[i].Owners = p.Probe(k, r)
		if pt != nil {
			out[i].Text = pt.PositionText(k)
		}
	}
	return out
}

// replayTo recomputes a rule's assignment at an earlier step from scratch;
// it serves exact recurrence checks when snapshots would cost too much. A
// history-free rule is brought to that step's state alone (one Update, not
// one per step before it), which keeps a long replay's recurrence checks
// linear in its steps.
func replayTo(spec placer.RuleSpec, e *placer.Env, tl *timeline.Timeline, step int) [][]timeline.NodeID {
	p, _ := registry.NewPlacer(spec, e)
	first := 0
	if k := registry.KindOf(spec.Kind); k != nil && k.HistoryFree {
		first = step
	}
	for i := first; i <= step; i++ {
		p.Update(&tl.States[i])
	}
	lists := make([][]timeline.NodeID, tl.States[step].Replicas)
	for k := range lists {
		lists[k] = make([]timeline.NodeID, e.Keys.Len())
	}
	p.Assign(lists)
	return lists
}

// env returns what a placer of this replay shares.
func (r *Result) env() *placer.Env {
	return &placer.Env{Keys: r.Keys, Nodes: r.Timeline.Nodes, Labels: r.Timeline.Labels}
}
