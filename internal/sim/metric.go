package sim

// MetricNames lists the per-step, per-rule metrics by their data.json
// names, in documentation order. Result.Metric computes each.
var MetricNames = []string{
	"moved", "moved_fraction", "needed", "collateral", "ideal",
	"peak_to_mean", "worst_deviation", "cv", "noise_cv", "total_moved",
	"recurs", "replica_moved", "copies", "under_replicated",
	"moved_requests", "request_peak_to_mean", "request_worst_deviation",
	"below_quorum", "unavailable", "zone_collisions", "repartitioned",
}

// RequestMetric reports whether a metric needs a weighted key set
// (KeySpec.Weighted): the request metrics.
func RequestMetric(name string) bool {
	return name == "moved_requests" || name == "request_peak_to_mean" || name == "request_worst_deviation"
}

// Metric returns the metric called name (one of MetricNames) of rule r at
// step i, and false for an unknown name. recurs is the earlier step's
// number, or -1 when the placement is new. The request metrics are
// unknown (false) when the key set carries no weights.
func (res *Result) Metric(name string, r, i int) (float64, bool) {
	s := &res.Rules[r].Steps[i]
	if RequestMetric(name) {
		return res.requestMetric(name, r, i)
	}
	counts := map[string]int{
		"moved": s.Moved, "needed": s.Needed, "collateral": s.Collateral(), "ideal": s.Ideal,
		"total_moved": s.TotalMoved, "recurs": s.Recurs, "replica_moved": s.ReplicaMoved,
		"copies": s.Copies, "under_replicated": s.UnderReplicated,
		"below_quorum": s.BelowQuorum, "unavailable": s.Unavailable, "zone_collisions": s.ZoneCollisions,
		"repartitioned": s.Repartitioned,
	}
	if v, ok := counts[name]; ok {
		return float64(v), true
	}
	b := res.Balance(r, i)
	switch name {
	case "moved_fraction":
		return float64(s.Moved) / float64(res.Keys.Len()), true
	case "peak_to_mean":
		return b.PeakToMean, true
	case "worst_deviation":
		return b.WorstDeviation, true
	case "cv":
		return b.CV, true
	case "noise_cv":
		return b.NoiseCV, true
	}
	return 0, false
}

func (res *Result) requestMetric(name string, r, i int) (float64, bool) {
	b, ok := res.RequestBalance(r, i)
	switch {
	case !ok:
		return 0, false
	case name == "moved_requests":
		return float64(res.Rules[r].Steps[i].MovedRequests), true
	case name == "request_peak_to_mean":
		return b.PeakToMean, true
	}
	return b.WorstDeviation, true
}

// Expectation is an assertion on a replay's metrics, written in a
// scenario so that CI catches a change in placement policy.
type Expectation struct {
	// Step is the step checked, or -1 for every step.
	Step int
	// Rule is the label of the rule checked, or "" for every rule.
	Rule string
	// Metric is one of MetricNames.
	Metric string
	// Op is one of <, <=, >, >=, ==, !=.
	Op string
	// Value is the bound. For recurs, -1 means "none".
	Value float64
	// Text is the bound as written, e.g. "<= 0.2".
	Text string
	// Where locates the expectation in its file ("file:line:col").
	Where string
}

// Holds reports whether v satisfies the expectation's bound.
func (e *Expectation) Holds(v float64) bool {
	switch e.Op {
	case "<":
		return v < e.Value
	case "<=":
		return v <= e.Value
	case ">":
		return v > e.Value
	case ">=":
		return v >= e.Value
	case "!=":
		return v != e.Value
	}
	return v == e.Value
}

// Outcome is the verdict on one expectation over every (step, rule) it
// covers.
type Outcome struct {
	// Expectation is what was checked.
	Expectation Expectation
	// Checked counts the (step, rule) pairs the expectation covers.
	Checked int
	// Failed counts those that did not satisfy it.
	Failed int
	// Step, Rule and Value locate and give the first failure (in step,
	// then rule order), or, when all passed, the value nearest the bound.
	Step  int
	Rule  string
	Value float64
}

// Passed reports whether every covered (step, rule) satisfied the bound.
func (o *Outcome) Passed() bool { return o.Failed == 0 }

// Check evaluates the scenario's expectations against the replay.
func (res *Result) Check() []Outcome {
	out := make([]Outcome, len(res.Scenario.Expect))
	for i, e := range res.Scenario.Expect {
		out[i] = res.check(e)
	}
	return out
}

func (res *Result) check(e Expectation) Outcome {
	o := Outcome{Expectation: e, Step: -1}
	best := 0.0
	for i := range res.Timeline.States {
		if e.Step >= 0 && i != e.Step {
			continue
		}
		for r, rr := range res.Rules {
			if e.Rule != "" && rr.Spec.Label != e.Rule {
				continue
			}
			v, _ := res.Metric(e.Metric, r, i)
			o.Checked++
			ok := e.Holds(v)
			if !ok {
				o.Failed++
			}
			if d := v - e.Value; (!ok && o.Failed == 1) || (o.Failed == 0 && (o.Step < 0 || d*d < best)) {
				o.Step, o.Rule, o.Value, best = i, rr.Spec.Label, v, d*d
			}
		}
	}
	return o
}
