package sim

// This file is the metric table: every per-step, per-rule figure a
// replay reports is one Metric in Metrics, and steps.csv, data.json,
// expect:, the schema and report.md's step table read it from here.
// Adding a metric is one entry and the StepResult field it reads; its
// Column, if any, puts it in the step table.

// MetricKind is how a metric's value is written.
type MetricKind uint8

// The metric kinds.
const (
	Count    MetricKind = iota // a whole number
	Fraction                   // a ratio or fraction, written with six decimals
	StepRef                    // a step number, or none (recurs)
	Hex                        // 64 bits as 16 hexadecimal digits (fingerprint)
)

// Metric is one per-step, per-rule figure.
type Metric struct {
	// Name is the metric's name in data.json, steps.csv and expect:.
	Name string
	// Doc says what it counts or measures, in one sentence.
	Doc  string
	Kind MetricKind
	// Expect says expect: may bound it.
	Expect bool
	// Requests says it needs keys with request counts; it is empty (CSV)
	// or absent (JSON) without them.
	Requests bool
	// Column, when not nil, is the metric's column in report.md's table
	// of each step, in table order.
	Column *Column
	// Compute computes the metric; a Hex metric's bits are in N.
	Compute func(a *At) Value
}

// Column is how report.md's step table shows a metric: a Count as a
// whole number ("—" where it is not defined), a Fraction as a percentage
// or with three decimals, a StepRef in words ("returns to the placement
// of step 3", "—" for none).
type Column struct {
	// Heading is the column's heading.
	Heading string
	// Percent writes a Fraction as a percentage, 12.3%, instead of 0.123.
	Percent bool
	// Shown says when the table has the column.
	Shown Shown
}

// Shown says when report.md's step table has a metric's column.
type Shown uint8

// The conditions of Column.Shown. A group other than ShowAlways and
// ShowWithReplicas is shown, all its columns together, in a scenario
// where one of its metrics is not zero at some step of some rule.
const (
	ShowAlways       Shown = iota
	ShowWithReplicas       // at a step whose preference lists, before or after it, are longer than one
	ShowWithHealth         // the availability counts (below quorum, unavailable, zone collisions)
	ShowWithUnits          // the repartitioned keys (Kafka partitions, Elasticsearch shards)
)

// Value is a metric's value at one step of one rule: N for counts, steps
// and bits, F for fractions. OK is false where the metric does not apply
// (request metrics without request counts, recurs without a recurrence,
// optimum at step 0 and reconfigurations).
type Value struct {
	N  int64
	F  float64
	OK bool
}

// Value returns the metric at a.
func (m Metric) Value(a *At) Value { return m.Compute(a) }

// At is one rule's step, with its balance figures computed once for all
// the metrics read from it.
type At struct {
	Res   *Result
	R, I  int
	S     *StepResult
	B     Balance
	RB    Balance
	HasRB bool
}

// At returns rule r's step i for reading its metrics.
func (res *Result) At(r, i int) *At {
	a := &At{Res: res, R: r, I: i, S: &res.Rules[r].Steps[i], B: res.Balance(r, i)}
	a.RB, a.HasRB = res.RequestBalance(r, i)
	return a
}

func count(f func(s *StepResult) int) func(*At) Value {
	return func(a *At) Value { return Value{N: int64(f(a.S)), OK: true} }
}

func frac(f func(a *At) float64) func(*At) Value {
	return func(a *At) Value { return Value{F: f(a), OK: true} }
}

func request(f func(a *At) Value) func(*At) Value {
	return func(a *At) Value {
		if !a.HasRB {
			return Value{}
		}
		return f(a)
	}
}

// Metrics are the per-step metrics, in steps.csv's column order.
var Metrics = []Metric{
	{Name: "moved", Doc: "keys whose owner (first choice) changed in this step", Expect: true,
		Column:  &Column{Heading: "Moved"},
		Compute: count(func(s *StepResult) int { return s.Moved })},
	{Name: "moved_fraction", Kind: Fraction, Doc: "moved / K", Expect: true,
		Column:  &Column{Heading: "Moved %", Percent: true},
		Compute: frac(func(a *At) float64 { return float64(a.S.Moved) / float64(a.Res.Keys.Len()) })},
	{Name: "needed", Doc: "½·Σ|B_i − A_i|: the fewest moves that reach this rule's own new loads, a floor for moved", Expect: true,
		Column:  &Column{Heading: "Needed"},
		Compute: count(func(s *StepResult) int { return s.Needed })},
	{Name: "collateral", Doc: "moved − needed: keys moved between nodes whose loads did not require it", Expect: true,
		Column:  &Column{Heading: "Collateral"},
		Compute: count(func(s *StepResult) int { return s.Collateral() })},
	{Name: "ideal", Doc: "the fewest moves that take the previous step's loads to a perfectly even split of the new live set; not a floor for a rule, which may stay uneven and move less", Expect: true,
		Column:  &Column{Heading: "Ideal"},
		Compute: count(func(s *StepResult) int { return s.Ideal })},
	{Name: "peak_to_mean", Kind: Fraction, Doc: "the most loaded node's load over its fair share", Expect: true,
		Compute: frac(func(a *At) float64 { return a.B.PeakToMean })},
	{Name: "worst_deviation", Kind: Fraction, Doc: "the largest |load − fair share| / fair share over live nodes", Expect: true,
		Column:  &Column{Heading: "Worst deviation", Percent: true},
		Compute: frac(func(a *At) float64 { return a.B.WorstDeviation })},
	{Name: "cv", Kind: Fraction, Doc: "the coefficient of variation of the loads relative to the fair shares", Expect: true,
		Column:  &Column{Heading: "cv"},
		Compute: frac(func(a *At) float64 { return a.B.CV })},
	{Name: "noise_cv", Kind: Fraction, Doc: "√((n−1)/K) with equal weights: the cv a perfectly random even split shows", Expect: true,
		Column:  &Column{Heading: "Noise cv"},
		Compute: frac(func(a *At) float64 { return a.B.NoiseCV })},
	{Name: "total_moved", Doc: "the running total of moved since step 0", Expect: true,
		Column:  &Column{Heading: "Total moved"},
		Compute: count(func(s *StepResult) int { return s.TotalMoved })},
	{Name: "fingerprint", Kind: Hex, Doc: "a 64-bit hash of the owner assignment; equal assignments have equal fingerprints",
		Compute: func(a *At) Value { return Value{N: int64(a.S.Fingerprint), OK: true} }},
	{Name: "recurs", Kind: StepRef, Doc: "the earliest earlier step with an identical assignment, or none", Expect: true,
		Column:  &Column{Heading: "Recurrence"},
		Compute: func(a *At) Value { return Value{N: int64(a.S.Recurs), OK: a.S.Recurs >= 0} }},
	{Name: "replica_moved", Doc: "keys whose set of replica nodes changed", Expect: true,
		Column:  &Column{Heading: "Replica sets changed", Shown: ShowWithReplicas},
		Compute: count(func(s *StepResult) int { return s.ReplicaMoved })},
	{Name: "copies", Doc: "replica copies that had to be created: per key, the nodes of its new set that were not in its old one", Expect: true,
		Column:  &Column{Heading: "Copies", Shown: ShowWithReplicas},
		Compute: count(func(s *StepResult) int { return s.Copies })},
	{Name: "under_replicated", Doc: "keys with fewer than R live distinct nodes", Expect: true,
		Column:  &Column{Heading: "Under-replicated", Shown: ShowWithReplicas},
		Compute: count(func(s *StepResult) int { return s.UnderReplicated })},
	{Name: "moved_requests", Doc: "the requests of the keys that moved", Expect: true, Requests: true,
		Compute: request(func(a *At) Value { return Value{N: a.S.MovedRequests, OK: true} })},
	{Name: "request_peak_to_mean", Kind: Fraction, Doc: "peak_to_mean of the nodes' requests", Expect: true, Requests: true,
		Compute: request(func(a *At) Value { return Value{F: a.RB.PeakToMean, OK: true} })},
	{Name: "request_worst_deviation", Kind: Fraction, Doc: "worst_deviation of the nodes' requests", Expect: true, Requests: true,
		Compute: request(func(a *At) Value { return Value{F: a.RB.WorstDeviation, OK: true} })},
	{Name: "below_quorum", Doc: "keys with fewer than a quorum, ⌊R/2⌋ + 1, of live replicas", Expect: true,
		Column:  &Column{Heading: "Below quorum", Shown: ShowWithHealth},
		Compute: count(func(s *StepResult) int { return s.BelowQuorum })},
	{Name: "unavailable", Doc: "keys with no live replica (a profile's key whose product does not move it)", Expect: true,
		Column:  &Column{Heading: "Unavailable", Shown: ShowWithHealth},
		Compute: count(func(s *StepResult) int { return s.Unavailable })},
	{Name: "zone_collisions", Doc: "keys with two replicas in one zone while as many zones as replicas are live", Expect: true,
		Column:  &Column{Heading: "Zone collisions", Shown: ShowWithHealth},
		Compute: count(func(s *StepResult) int { return s.ZoneCollisions })},
	{Name: "repartitioned", Doc: "keys whose Kafka partition or Elasticsearch shard changed", Expect: true,
		Column:  &Column{Heading: "Repartitioned", Shown: ShowWithUnits},
		Compute: count(func(s *StepResult) int { return s.Repartitioned })},
	{Name: "optimum", Doc: "the classic optimum of a step that changes fair shares (add, remove, fail, recover, weight): the joining nodes' fair share, the keys the leaving nodes held, or a weight change's shift of fair shares; none at step 0 and at vnodes, replicas, partitions and shards steps", Expect: true,
		Column:  &Column{Heading: "Optimum"},
		Compute: func(a *At) Value { n, ok := a.Res.Optimum(a.R, a.I); return Value{N: int64(n), OK: ok} }},
}

// MetricNames lists the metrics expect: may bound, in table order.
var MetricNames = func() []string {
	var out []string
	for _, m := range Metrics {
		if m.Expect {
			out = append(out, m.Name)
		}
	}
	return out
}()

// MetricOf returns the metric called name, or nil.
func MetricOf(name string) *Metric {
	for i := range Metrics {
		if Metrics[i].Name == name {
			return &Metrics[i]
		}
	}
	return nil
}

// RequestMetric reports whether a metric needs a weighted key set
// (KeySpec.Weighted): the request metrics.
func RequestMetric(name string) bool {
	m := MetricOf(name)
	return m != nil && m.Requests
}

// Metric returns the metric called name of rule r at step i, and false
// for an unknown name. recurs is the earlier step's number, or -1 when
// the placement is new. The request metrics are unknown (false) when the
// key set carries no weights, and optimum where it is not defined.
func (res *Result) Metric(name string, r, i int) (float64, bool) {
	m := MetricOf(name)
	if m == nil {
		return 0, false
	}
	v := m.Value(res.At(r, i))
	switch {
	case m.Kind == StepRef:
		return float64(v.N), true
	case !v.OK:
		return 0, false
	case m.Kind == Fraction:
		return v.F, true
	}
	return float64(v.N), true
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
	// Checked counts the (step, rule) pairs the expectation covers where
	// its metric is defined.
	Checked int
	// Failed counts those that did not satisfy it.
	Failed int
	// Step, Rule and Value locate and give the first failure (in step,
	// then rule order), or, when all passed, the value nearest the bound.
	Step  int
	Rule  string
	Value float64
}

// Passed reports whether every covered (step, rule) satisfied the bound,
// and there was one: an expectation that checked nothing (a metric not
// defined at any step it covers) has not passed.
func (o *Outcome) Passed() bool { return o.Failed == 0 && o.Checked > 0 }

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
			v, ok := res.Metric(e.Metric, r, i)
			if !ok { // not defined here (optimum at a reconfiguration): nothing to check
				continue
			}
			o.Checked++
			ok = e.Holds(v)
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
