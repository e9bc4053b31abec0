package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
)

// This file writes data.json (schema: SCHEMA.md). Objects whose keys are
// data (node names, rule labels, probe keys) are ordered slices, never Go
// maps; floats are printed with a fixed number of decimals.

// FloatDecimals is the number of decimals of every float in data.json and
// steps.csv.
const FloatDecimals = 6

// JSON renders data.json: every metric of every rule at every step.
// The output is indented with two spaces and ends in a newline. Its
// "sweep" member is null: JSON is JSONStudy without a study.
func JSON(res *sim.Result) ([]byte, error) { return JSONStudy(res, nil) }

// JSONStudy renders data.json with st, what the scenario's sweep: and
// seeds: measured (sweep.Execute), as its "sweep" member; st may be nil.
func JSONStudy(res *sim.Result, st *sweep.Result) ([]byte, error) {
	if err := check(res); err != nil {
		return nil, fmt.Errorf("cannot build data.json: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(jsonData(res, st)); err != nil {
		return nil, fmt.Errorf("cannot encode data.json: %w", err)
	}
	return buf.Bytes(), nil
}

// fixed6 is a float that encodes with FloatDecimals decimals, or as null
// when it is not finite.
type fixed6 float64

// MarshalJSON implements json.Marshaler.
func (x fixed6) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
		return []byte("null"), nil
	}
	return []byte(fixed(FloatDecimals, float64(x))), nil
}

// object is a JSON object whose members keep their order.
type object []member

type member struct {
	key   string
	value any
}

// MarshalJSON implements json.Marshaler.
func (o object) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, err := marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(m.value)
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

// marshal encodes v compactly without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

type jsonReport struct {
	Scenario string       `json:"scenario"`
	Title    string       `json:"title"`
	Seed     uint64       `json:"seed"`
	Keys     int          `json:"keys"`
	Requests *int64       `json:"requests,omitempty"`
	HotKeys  []jsonHotKey `json:"hot_keys,omitempty"`
	Nodes    []string     `json:"nodes"`
	Rules    []jsonRule   `json:"rules"`
	Steps    []jsonStep   `json:"steps"`
	Expect   []jsonExpect `json:"expect"`
	// Sweep is what sweep: and seeds: measured, null without either.
	Sweep *jsonSweep `json:"sweep"`
	// Migrations compares pairs of rules (compare:); absent without any.
	Migrations []jsonMigration `json:"migrations,omitempty"`
}

// jsonMigration is one compared pair of rules at every step.
type jsonMigration struct {
	From  string              `json:"from"`
	To    string              `json:"to"`
	Steps []jsonMigrationStep `json:"steps"`
}

type jsonMigrationStep struct {
	Step           int    `json:"step"`
	Differ         int    `json:"differ"`
	DifferFraction fixed6 `json:"differ_fraction"`
	DifferRequests *int64 `json:"differ_requests,omitempty"`
}

// jsonMigrationsOf describes every compared pair.
func jsonMigrationsOf(res *sim.Result) []jsonMigration {
	var out []jsonMigration
	for _, mr := range res.Migrations {
		m := jsonMigration{From: mr.From, To: mr.To}
		for i, st := range mr.Steps {
			s := jsonMigrationStep{Step: i, Differ: st.Differ, DifferFraction: fixed6(ratio(st.Differ, res.Keys.Len()))}
			if res.Keys.Weight != nil {
				s.DifferRequests = &mr.Steps[i].DifferRequests
			}
			m.Steps = append(m.Steps, s)
		}
		out = append(out, m)
	}
	return out
}

// jsonExpect is one expectation and its verdict.
type jsonExpect struct {
	Step    *int    `json:"step"`
	Rule    *string `json:"rule"`
	Metric  string  `json:"metric"`
	Bound   string  `json:"bound"`
	Passed  bool    `json:"passed"`
	Checked int     `json:"checked"`
	Failed  int     `json:"failed"`
	// At is the first failure, or the closest call when all passed.
	At jsonExpectAt `json:"at"`
}

type jsonExpectAt struct {
	Step  int    `json:"step"`
	Rule  string `json:"rule"`
	Value fixed6 `json:"value"`
}

func jsonExpectOf(o sim.Outcome) jsonExpect {
	e := o.Expectation
	j := jsonExpect{Metric: e.Metric, Bound: e.Text, Passed: o.Passed(), Checked: o.Checked, Failed: o.Failed,
		At: jsonExpectAt{Step: o.Step, Rule: o.Rule, Value: fixed6(o.Value)}}
	if e.Step >= 0 {
		j.Step = &e.Step
	}
	if e.Rule != "" {
		j.Rule = &e.Rule
	}
	return j
}

type jsonRule struct {
	Label   string  `json:"label"`
	Kind    string  `json:"kind"`
	Hash    string  `json:"hash"`
	VNodes  *int    `json:"vnodes,omitempty"`
	M       *int    `json:"m,omitempty"`
	Probes  *int    `json:"probes,omitempty"`
	Epsilon *fixed6 `json:"epsilon,omitempty"`
}

type jsonStep struct {
	Step     int      `json:"step"`
	Op       string   `json:"op"`
	Named    []string `json:"named"`
	Random   bool     `json:"random"`
	Note     string   `json:"note"`
	Nodes    []string `json:"nodes"`
	Live     []string `json:"live"`
	Weights  object   `json:"weights"`
	VNodes   *int     `json:"vnodes"`
	Replicas int      `json:"replicas"`
	Rules    object   `json:"rules"`
	Probes   object   `json:"probes"`
}

type jsonRuleStep struct {
	Moved           int      `json:"moved"`
	MovedFraction   fixed6   `json:"moved_fraction"`
	Needed          int      `json:"needed"`
	Collateral      int      `json:"collateral"`
	Ideal           int      `json:"ideal"`
	Loads           object   `json:"loads"`
	PeakToMean      fixed6   `json:"peak_to_mean"`
	WorstDeviation  fixed6   `json:"worst_deviation"`
	CV              fixed6   `json:"cv"`
	NoiseCV         fixed6   `json:"noise_cv"`
	TotalMoved      int      `json:"total_moved"`
	Fingerprint     string   `json:"fingerprint"`
	Recurs          *int     `json:"recurs"`
	ReplicaMoved    int      `json:"replica_moved"`
	Copies          int      `json:"copies"`
	UnderReplicated int      `json:"under_replicated"`
	BelowQuorum     int      `json:"below_quorum"`
	Unavailable     int      `json:"unavailable"`
	ZoneCollisions  int      `json:"zone_collisions"`
	Notes           []string `json:"notes"`
	// Transfers is every from → to pair of moved keys.
	Transfers []jsonTransfer `json:"transfers"`
	// The request figures, only when the keys carry request counts.
	Requests              object   `json:"requests,omitempty"`
	MovedRequests         *int64   `json:"moved_requests,omitempty"`
	RequestPeakToMean     *fixed6  `json:"request_peak_to_mean,omitempty"`
	RequestWorstDeviation *fixed6  `json:"request_worst_deviation,omitempty"`
	HotOwners             []string `json:"hot_owners,omitempty"`
}

type jsonTransfer struct {
	From     string `json:"from"`
	To       string `json:"to"`
	Keys     int    `json:"keys"`
	Requests *int64 `json:"requests,omitempty"`
}

type jsonHotKey struct {
	Key      string `json:"key"`
	Requests uint32 `json:"requests"`
}

type jsonProbe struct {
	Position uint64 `json:"position"`
	// PositionText is the position in the product's own words.
	PositionText string   `json:"position_text,omitempty"`
	Owners       []string `json:"owners"`
}

// jsonData builds data.json's document.
func jsonData(res *sim.Result, st *sweep.Result) jsonReport {
	s := res.Scenario
	d := jsonReport{Scenario: s.Name, Title: s.Title, Seed: s.Seed, Keys: res.Keys.Len(),
		Nodes: append([]string{}, res.Timeline.Nodes...)}
	if res.Keys.Weight != nil {
		d.Requests = &res.Keys.Requests
		for _, k := range res.Keys.Hot {
			d.HotKeys = append(d.HotKeys, jsonHotKey{Key: res.Keys.Name(k), Requests: res.Keys.Weight[k]})
		}
	}
	for _, rr := range res.Rules {
		d.Rules = append(d.Rules, jsonRuleOf(rr.Spec))
	}
	for i := range res.Timeline.States {
		d.Steps = append(d.Steps, jsonStepOf(res, i))
	}
	d.Expect = []jsonExpect{}
	for _, o := range res.Check() {
		d.Expect = append(d.Expect, jsonExpectOf(o))
	}
	d.Sweep = jsonSweepOf(st)
	d.Migrations = jsonMigrationsOf(res)
	return d
}

// jsonRuleOf describes a rule with its effective parameters.
func jsonRuleOf(spec sim.RuleSpec) jsonRule {
	e := spec.Effective()
	r := jsonRule{Label: spec.Label, Kind: spec.Kind, Hash: e.Hash}
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
		eps := fixed6(e.Epsilon)
		r.Epsilon = &eps
	}
	return r
}

// jsonStepOf describes step i: membership, every rule, every probe.
func jsonStepOf(res *sim.Result, i int) jsonStep {
	st := &res.Timeline.States[i]
	js := jsonStep{Step: i, Op: st.Op.String(), Named: nodeNames(res, st.Named), Random: st.Random,
		Note: st.Note, Nodes: []string{}, Live: []string{}, Weights: object{}, Replicas: st.Replicas,
		Rules: object{}, Probes: object{}}
	for _, m := range st.Members {
		name := res.Timeline.Nodes[m.ID]
		js.Nodes = append(js.Nodes, name)
		if !m.Failed {
			js.Live = append(js.Live, name)
		}
		js.Weights = append(js.Weights, member{name, m.Weight})
	}
	if st.VNodes > 0 {
		v := st.VNodes
		js.VNodes = &v
	}
	for r, rr := range res.Rules {
		js.Rules = append(js.Rules, member{rr.Spec.Label, jsonRuleStepOf(res, r, i)})
	}
	keys, index := probeKeys(res.Scenario)
	for p, k := range keys {
		js.Probes = append(js.Probes, member{k, jsonProbesOf(res, i, index[p])})
	}
	return js
}

// jsonRuleStepOf is rule r's figures at step i.
func jsonRuleStepOf(res *sim.Result, r, i int) jsonRuleStep {
	sr := &res.Rules[r].Steps[i]
	b := res.Balance(r, i)
	j := jsonRuleStep{
		Moved: sr.Moved, MovedFraction: fixed6(ratio(sr.Moved, res.Keys.Len())),
		Needed: sr.Needed, Collateral: sr.Collateral(), Ideal: sr.Ideal, Loads: object{},
		PeakToMean: fixed6(b.PeakToMean), WorstDeviation: fixed6(b.WorstDeviation),
		CV: fixed6(b.CV), NoiseCV: fixed6(b.NoiseCV), TotalMoved: sr.TotalMoved,
		Fingerprint: fingerprint(sr.Fingerprint), Recurs: recursOf(sr),
		ReplicaMoved: sr.ReplicaMoved, Copies: sr.Copies, UnderReplicated: sr.UnderReplicated,
		BelowQuorum: sr.BelowQuorum, Unavailable: sr.Unavailable, ZoneCollisions: sr.ZoneCollisions,
		Notes: append([]string{}, sr.Notes...),
	}
	for _, m := range res.Timeline.States[i].Members {
		j.Loads = append(j.Loads, member{res.Timeline.Nodes[m.ID], sr.Loads[m.ID]})
	}
	weighted := sr.Requests != nil
	j.Transfers = []jsonTransfer{}
	for _, t := range sr.Transfers {
		jt := jsonTransfer{From: res.Timeline.Nodes[t.From], To: res.Timeline.Nodes[t.To], Keys: t.Keys}
		if weighted {
			jt.Requests = &t.Requests
		}
		j.Transfers = append(j.Transfers, jt)
	}
	if weighted {
		jsonRequests(res, r, i, &j)
	}
	return j
}

// jsonRequests fills rule r's request figures at step i.
func jsonRequests(res *sim.Result, r, i int, j *jsonRuleStep) {
	sr := &res.Rules[r].Steps[i]
	b, _ := res.RequestBalance(r, i)
	peak, worst := fixed6(b.PeakToMean), fixed6(b.WorstDeviation)
	j.MovedRequests, j.RequestPeakToMean, j.RequestWorstDeviation = &sr.MovedRequests, &peak, &worst
	j.Requests = object{}
	for _, m := range res.Timeline.States[i].Members {
		j.Requests = append(j.Requests, member{res.Timeline.Nodes[m.ID], sr.Requests[m.ID]})
	}
	j.HotOwners = nodeNames(res, sr.HotOwners)
}

// jsonProbesOf is probe p under every rule at step i.
func jsonProbesOf(res *sim.Result, i, p int) object {
	o := object{}
	for _, rr := range res.Rules {
		pr := rr.Steps[i].Probes[p]
		o = append(o, member{rr.Spec.Label, jsonProbe{Position: pr.Position, PositionText: pr.Text, Owners: nodeNames(res, pr.Owners)}})
	}
	return o
}

// fingerprint formats a 64-bit fingerprint as 16 lower-case hex digits.
func fingerprint(fp uint64) string {
	s := strconv.FormatUint(fp, 16)
	return string(bytes.Repeat([]byte("0"), 16-len(s))) + s
}

// recursOf returns a step's recurrence, nil when it has none.
func recursOf(sr *sim.StepResult) *int {
	if sr.Recurs < 0 {
		return nil
	}
	r := sr.Recurs
	return &r
}
