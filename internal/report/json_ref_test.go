package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
)

// This file keeps data.json's first encoder, encoding/json through
// reflection and an indented copy, as the reference that the streaming
// encoder (WriteJSON) must match byte for byte. It differs from the
// original only where data.json changed on purpose: the transfers are
// the top MaxJSONTransfers pairs plus transfers_rest.

// JSONStudy renders data.json with st, what the scenario's sweep: and
// seeds: measured (sweep.Execute), as its "sweep" refMember; st may be nil.
func refJSON(res *sim.Result, st *sweep.Result) ([]byte, error) {
	if err := check(res); err != nil {
		return nil, fmt.Errorf("cannot build data.json: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(refData(res, st)); err != nil {
		return nil, fmt.Errorf("cannot encode data.json: %w", err)
	}
	return buf.Bytes(), nil
}

// refFixed6 is a float that encodes with FloatDecimals decimals, or as null
// when it is not finite.
type refFixed6 float64

// MarshalJSON implements json.Marshaler.
func (x refFixed6) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return []byte(fixed(FloatDecimals, float64(x))), nil
}

// refObject is a JSON refObject whose members keep their order.
type refObject []refMember

type refMember struct {
	key   string
	value any
}

// MarshalJSON implements json.Marshaler.
func (o refObject) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := refMarshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := refMarshal(m.value)
		if err != nil {
			return nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// refMarshal encodes v compactly without HTML escaping.
func refMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

type refReport struct {
	Scenario string      `json:"scenario"`
	Title    string      `json:"title"`
	Seed     uint64      `json:"seed"`
	Keys     int         `json:"keys"`
	Requests *int64      `json:"requests,omitempty"`
	HotKeys  []refHotKey `json:"hot_keys,omitempty"`
	Nodes    []string    `json:"nodes"`
	Rules    []refRule   `json:"rules"`
	Steps    []refStep   `json:"steps"`
	Expect   []refExpect `json:"expect"`
	// Sweep is what sweep: and seeds: measured, null without either.
	Sweep *refSweep `json:"sweep"`
	// Migrations compares pairs of rules (compare:); absent without any.
	Migrations []refMigration `json:"migrations,omitempty"`
}

// refMigration is one compared pair of rules at every step.
type refMigration struct {
	From  string             `json:"from"`
	To    string             `json:"to"`
	Steps []refMigrationStep `json:"steps"`
}

type refMigrationStep struct {
	Step           int       `json:"step"`
	Differ         int       `json:"differ"`
	DifferFraction refFixed6 `json:"differ_fraction"`
	DifferRequests *int64    `json:"differ_requests,omitempty"`
}

// refMigrationsOf describes every compared pair.
func refMigrationsOf(res *sim.Result) []refMigration {
	var out []refMigration
	for _, mr := range res.Migrations {
		m := refMigration{From: mr.From, To: mr.To}
		for i, st := range mr.Steps {
			s := refMigrationStep{Step: i, Differ: st.Differ, DifferFraction: refFixed6(ratio(st.Differ, res.Keys.Len()))}
			if res.Keys.Weight != nil {
				s.DifferRequests = &mr.Steps[i].DifferRequests
			}
			m.Steps = append(m.Steps, s)
		}
		out = append(out, m)
	}
	return out
}

// refExpect is one expectation and its verdict.
type refExpect struct {
	Step    *int    `json:"step"`
	Rule    *string `json:"rule"`
	Metric  string  `json:"metric"`
	Bound   string  `json:"bound"`
	Passed  bool    `json:"passed"`
	Checked int     `json:"checked"`
	Failed  int     `json:"failed"`
	// At is the first failure, or the closest call when all passed.
	At refExpectAt `json:"at"`
}

type refExpectAt struct {
	Step  int       `json:"step"`
	Rule  string    `json:"rule"`
	Value refFixed6 `json:"value"`
}

func refExpectOf(o sim.Outcome) refExpect {
	e := o.Expectation
	j := refExpect{Metric: e.Metric, Bound: e.Text, Passed: o.Passed(), Checked: o.Checked, Failed: o.Failed,
		At: refExpectAt{Step: o.Step, Rule: o.Rule, Value: refFixed6(o.Value)}}
	if e.Step >= 0 {
		j.Step = &e.Step
	}
	if e.Rule != "" {
		j.Rule = &e.Rule
	}
	return j
}

type refRule struct {
	Label   string     `json:"label"`
	Kind    string     `json:"kind"`
	Hash    string     `json:"hash"`
	VNodes  *int       `json:"vnodes,omitempty"`
	M       *int       `json:"m,omitempty"`
	Probes  *int       `json:"probes,omitempty"`
	Epsilon *refFixed6 `json:"epsilon,omitempty"`
}

type refStep struct {
	Step     int       `json:"step"`
	Op       string    `json:"op"`
	Named    []string  `json:"named"`
	Random   bool      `json:"random"`
	Note     string    `json:"note"`
	Nodes    []string  `json:"nodes"`
	Live     []string  `json:"live"`
	Weights  refObject `json:"weights"`
	VNodes   *int      `json:"vnodes"`
	Replicas int       `json:"replicas"`
	Rules    refObject `json:"rules"`
	Probes   refObject `json:"probes"`
}

type refRuleStep struct {
	Moved           int         `json:"moved"`
	MovedFraction   refFixed6   `json:"moved_fraction"`
	Needed          int         `json:"needed"`
	Collateral      int         `json:"collateral"`
	Ideal           int         `json:"ideal"`
	Loads           refObject   `json:"loads"`
	PeakToMean      refFixed6   `json:"peak_to_mean"`
	WorstDeviation  refFixed6   `json:"worst_deviation"`
	CV              refFixed6   `json:"cv"`
	NoiseCV         refFixed6   `json:"noise_cv"`
	TotalMoved      int         `json:"total_moved"`
	Fingerprint     string      `json:"fingerprint"`
	Recurs          *int        `json:"recurs"`
	ReplicaMoved    int         `json:"replica_moved"`
	Copies          int         `json:"copies"`
	UnderReplicated int         `json:"under_replicated"`
	BelowQuorum     int         `json:"below_quorum"`
	Unavailable     int         `json:"unavailable"`
	ZoneCollisions  int         `json:"zone_collisions"`
	Repartitioned   int         `json:"repartitioned"`
	Optimum         *int        `json:"optimum"`
	Streams         *refStreams `json:"streams,omitempty"`
	Notes           []string    `json:"notes"`
	// Transfers are the largest from → to pairs, Rest the others.
	Transfers []refTransfer `json:"transfers"`
	Rest      refRest       `json:"transfers_rest"`
	// The request figures, only when the keys carry request counts.
	Requests              refObject  `json:"requests,omitempty"`
	MovedRequests         *int64     `json:"moved_requests,omitempty"`
	RequestPeakToMean     *refFixed6 `json:"request_peak_to_mean,omitempty"`
	RequestWorstDeviation *refFixed6 `json:"request_worst_deviation,omitempty"`
	HotOwners             []string   `json:"hot_owners,omitempty"`
}

type refRest struct {
	Pairs    int    `json:"pairs"`
	Keys     int    `json:"keys"`
	Requests *int64 `json:"requests,omitempty"`
}

type refTransfer struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Keys     int    `json:"keys"`
	Requests *int64 `json:"requests,omitempty"`
}

type refHotKey struct {
	Key      string `json:"key"`
	Requests uint32 `json:"requests"`
}

type refProbe struct {
	Position     uint64   `json:"position"`
	PositionText string   `json:"position_text,omitempty"`
	Owners       []string `json:"owners"`
}

// refData builds data.json's document.
func refData(res *sim.Result, st *sweep.Result) refReport {
	s := res.Scenario
	d := refReport{Scenario: s.Name, Title: s.Title, Seed: s.Seed, Keys: res.Keys.Len(),
		Nodes: append([]string{}, res.Timeline.Nodes...)}
	if res.Keys.Weight != nil {
		d.Requests = &res.Keys.Requests
		for _, k := range res.Keys.Hot {
			d.HotKeys = append(d.HotKeys, refHotKey{Key: res.Keys.Name(k), Requests: res.Keys.Weight[k]})
		}
	}
	for _, rr := range res.Rules {
		d.Rules = append(d.Rules, refRuleOf(rr.Spec))
	}
	for i := range res.Timeline.States {
		d.Steps = append(d.Steps, refStepOf(res, i))
	}
	d.Expect = []refExpect{}
	for _, o := range res.Check() {
		d.Expect = append(d.Expect, refExpectOf(o))
	}
	d.Sweep = refSweepOf(st)
	d.Migrations = refMigrationsOf(res)
	return d
}

// refRuleOf describes a rule with its effective parameters.
func refRuleOf(spec placer.RuleSpec) refRule {
	e := registry.Effective(spec)
	r := refRule{Label: spec.Label, Kind: spec.Kind, Hash: e.Hash}
	if e.VNodes != 0 {
		r.VNodes = &e.VNodes
	}
	if e.M != 0 {
		r.M = &e.M
	}
	if e.Probes != 0 {
		r.Probes = &e.Probes
	}
	if e.Epsilon != 0 {
		eps := refFixed6(e.Epsilon)
		r.Epsilon = &eps
	}
	return r
}

// refStepOf describes step i: membership, every rule, every probe.
func refStepOf(res *sim.Result, i int) refStep {
	st := &res.Timeline.States[i]
	js := refStep{Step: i, Op: st.Op.String(), Named: nodeNames(res, st.Named), Random: st.Random,
		Note: st.Note, Nodes: []string{}, Live: []string{}, Weights: refObject{}, Replicas: st.Replicas,
		Rules: refObject{}, Probes: refObject{}}
	for _, m := range st.Members {
		name := res.Timeline.Nodes[m.ID]
		js.Nodes = append(js.Nodes, name)
		if !m.Failed {
			js.Live = append(js.Live, name)
		}
		js.Weights = append(js.Weights, refMember{name, m.Weight})
	}
	if st.VNodes > 0 {
		v := st.VNodes
		js.VNodes = &v
	}
	for r, rr := range res.Rules {
		js.Rules = append(js.Rules, refMember{rr.Spec.Label, refRuleStepOf(res, r, i)})
	}
	keys, index := probeKeys(res.Scenario)
	for p, k := range keys {
		js.Probes = append(js.Probes, refMember{k, refProbesOf(res, i, index[p])})
	}
	return js
}

// refRuleStepOf is rule r's figures at step i.
func refRuleStepOf(res *sim.Result, r, i int) refRuleStep {
	sr := &res.Rules[r].Steps[i]
	b := res.Balance(r, i)
	j := refRuleStep{
		Moved: sr.Moved, MovedFraction: refFixed6(ratio(sr.Moved, res.Keys.Len())),
		Needed: sr.Needed, Collateral: sr.Collateral(), Ideal: sr.Ideal, Loads: refObject{},
		PeakToMean: refFixed6(b.PeakToMean), WorstDeviation: refFixed6(b.WorstDeviation),
		CV: refFixed6(b.CV), NoiseCV: refFixed6(b.NoiseCV), TotalMoved: sr.TotalMoved,
		Fingerprint: fingerprint(sr.Fingerprint), Recurs: recursOf(sr),
		ReplicaMoved: sr.ReplicaMoved, Copies: sr.Copies, UnderReplicated: sr.UnderReplicated,
		BelowQuorum: sr.BelowQuorum, Unavailable: sr.Unavailable, ZoneCollisions: sr.ZoneCollisions, Repartitioned: sr.Repartitioned,
		Streams: refStreamsOf(res, sr.Streams),
		Notes:   append([]string{}, sr.Notes...),
	}
	if n, ok := res.Optimum(r, i); ok {
		j.Optimum = &n
	}
	for _, m := range res.Timeline.States[i].Members {
		j.Loads = append(j.Loads, refMember{res.Timeline.Nodes[m.ID], sr.Loads[m.ID]})
	}
	weighted := sr.Requests != nil
	j.Transfers = []refTransfer{}
	kept, rest := sr.Transfers.Top, sr.Transfers.Rest
	j.Rest = refRest{Pairs: rest.Pairs, Keys: rest.Keys}
	if weighted {
		j.Rest.Requests = &rest.Requests
	}
	for _, t := range kept {
		jt := refTransfer{From: res.Timeline.Nodes[t.From], To: res.Timeline.Nodes[t.To], Keys: t.Keys}
		if weighted {
			jt.Requests = &t.Requests
		}
		j.Transfers = append(j.Transfers, jt)
	}
	if weighted {
		refRequests(res, r, i, &j)
	}
	return j
}

// refRequests fills rule r's request figures at step i.
func refRequests(res *sim.Result, r, i int, j *refRuleStep) {
	sr := &res.Rules[r].Steps[i]
	b, _ := res.RequestBalance(r, i)
	peak, worst := refFixed6(b.PeakToMean), refFixed6(b.WorstDeviation)
	j.MovedRequests, j.RequestPeakToMean, j.RequestWorstDeviation = &sr.MovedRequests, &peak, &worst
	j.Requests = refObject{}
	for _, m := range res.Timeline.States[i].Members {
		j.Requests = append(j.Requests, refMember{res.Timeline.Nodes[m.ID], sr.Requests[m.ID]})
	}
	j.HotOwners = nodeNames(res, sr.HotOwners)
}

// refProbesOf is probe p under every rule at step i.
func refProbesOf(res *sim.Result, i, p int) refObject {
	o := refObject{}
	for _, rr := range res.Rules {
		pr := rr.Steps[i].Probes[p]
		o = append(o, refMember{rr.Spec.Label, refProbe{Position: pr.Position, PositionText: pr.Text, Owners: nodeNames(res, pr.Owners)}})
	}
	return o
}

type refSweep struct {
	Param   *string         `json:"param"`
	Values  []any           `json:"values"`
	Seeds   []uint64        `json:"seeds"`
	Metrics []refSweepStat  `json:"metrics"`
	Points  []refSweepPoint `json:"points"`
}

type refSweepStat struct {
	Metric string `json:"metric"`
	Step   int    `json:"step"`
}

type refSweepPoint struct {
	Value   any       `json:"value"`
	NoiseCV refFixed6 `json:"noise_cv"`
	Rules   refObject `json:"rules"`
}

type refBand struct {
	Mean   refFixed6 `json:"mean"`
	Min    refFixed6 `json:"min"`
	Max    refFixed6 `json:"max"`
	P10    refFixed6 `json:"p10"`
	P90    refFixed6 `json:"p90"`
	Theory refFixed6 `json:"theory"`
}

// refSweepValue is a sweep value as data.json writes it: an integer, or a
// number with 6 decimals for epsilon.
func refSweepValue(param string, v float64) any {
	if param == sweep.Epsilon {
		return refFixed6(v)
	}
	return int64(v)
}

// refSweepOf builds data.json's "sweep" refMember; nil when st is.
func refSweepOf(st *sweep.Result) *refSweep {
	if st == nil || len(st.Runs) == 0 || len(st.Rules) == 0 {
		return nil
	}
	pl := st.Plan
	js := &refSweep{Values: []any{}, Seeds: []uint64{}, Metrics: []refSweepStat{}, Points: []refSweepPoint{}}
	if pl.Param != "" {
		p := pl.Param
		js.Param = &p
	}
	for _, v := range pl.Values {
		js.Values = append(js.Values, refSweepValue(pl.Param, v))
	}
	for j := range pl.SeedCount() {
		js.Seeds = append(js.Seeds, sweep.Seed(st.Base.Seed, j))
	}
	ms := StudyMetrics(st)
	theory := make([][]float64, len(ms)) // [metric][rule*points+i]
	for k, m := range ms {
		js.Metrics = append(js.Metrics, refSweepStat(m))
		theory[k] = ruleTheory(st, m.Metric)
	}
	noise := st.Curves("cv")
	for i := range st.Runs {
		p := refSweepPoint{Rules: refObject{}}
		if pl.Param != "" {
			p.Value = refSweepValue(pl.Param, pl.Values[i])
		}
		p.NoiseCV = refFixed6(noise[len(noise)-1].Y[i])
		for r, rs := range st.Rules {
			o := refObject{}
			for k, m := range ms {
				b := st.Band(m.Metric, i, m.Step, r)
				o = append(o, refMember{m.Metric, refBand{refFixed6(b.Mean), refFixed6(b.Min), refFixed6(b.Max),
					refFixed6(b.P10), refFixed6(b.P90), refFixed6(theory[k][r*len(st.Runs)+i])}})
			}
			p.Rules = append(p.Rules, refMember{rs.Label, o})
		}
		js.Points = append(js.Points, p)
	}
	return js
}

type refStreams struct {
	Received  refObject `json:"received"`
	Sent      refObject `json:"sent"`
	Unsourced int       `json:"unsourced"`
}

func refStreamsOf(res *sim.Result, st *sim.Streams) *refStreams {
	if st == nil {
		return nil
	}
	out := &refStreams{Received: refObject{}, Sent: refObject{}, Unsourced: st.Unsourced}
	for id, n := range st.Received {
		if n > 0 {
			out.Received = append(out.Received, refMember{res.Timeline.Nodes[id], n})
		}
	}
	for id, n := range st.Sent {
		if n > 0 {
			out.Sent = append(out.Sent, refMember{res.Timeline.Nodes[id], n})
		}
	}
	return out
}
