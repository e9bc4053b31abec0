package report

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

// This file writes data.json (schema: SCHEMA.md). Objects whose keys are
// data (node names, rule labels, probe keys) follow the data's order;
// floats are printed with a fixed number of decimals. The document is
// written member by member as it is walked (jsonWriter), without
// reflection and without an in-memory copy of the whole.

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
	var buf bytes.Buffer
	if err := WriteJSON(&buf, res, st); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON writes JSONStudy's data.json to w as it goes, a few tens of
// kilobytes at a time. It checks res before it writes anything.
func WriteJSON(w io.Writer, res *sim.Result, st *sweep.Result) error {
	if err := check(res); err != nil {
		return fmt.Errorf("cannot build data.json: %w", err)
	}
	d := jsonDoc{e: newJSONWriter(w), res: res, weighted: res.Keys.Weight != nil}
	d.names = make([][]byte, len(res.Timeline.Nodes))
	for id, n := range res.Timeline.Nodes {
		d.names[id] = appendJSONString(nil, n)
	}
	d.labels = make([][]byte, len(res.Rules))
	for r, rr := range res.Rules {
		d.labels[r] = appendJSONString(nil, rr.Spec.Label)
	}
	d.document(st)
	if err := d.e.end(); err != nil {
		return fmt.Errorf("cannot write data.json: %w", err)
	}
	return nil
}

// jsonDoc walks one replay into data.json.
type jsonDoc struct {
	e        *jsonWriter
	res      *sim.Result
	weighted bool     // the keys carry request counts
	names    [][]byte // node names by NodeID, as JSON strings
	labels   [][]byte // rule labels in scenario order, as JSON strings
}

// document writes the top-level object.
func (d *jsonDoc) document(st *sweep.Result) {
	e, res, s := d.e, d.res, d.res.Scenario
	e.openObject()
	e.kstr("scenario", s.Name)
	e.kstr("title", s.Title)
	e.key("seed")
	e.uint(s.Seed)
	e.kint("keys", res.Keys.Len())
	if d.weighted {
		e.key("requests")
		e.int(res.Keys.Requests)
		if len(res.Keys.Hot) > 0 {
			e.key("hot_keys")
			e.openArray()
			for _, k := range res.Keys.Hot {
				e.elem()
				e.openObject()
				e.kstr("key", res.Keys.Name(k))
				e.key("requests")
				e.uint(uint64(res.Keys.Weight[k]))
				e.closeObject()
			}
			e.closeArray()
		}
	}
	e.key("nodes")
	e.openArray()
	for id := range res.Timeline.Nodes {
		e.elem()
		e.quoted(d.names[id])
	}
	e.closeArray()
	e.key("rules")
	e.openArray()
	for _, rr := range res.Rules {
		e.elem()
		d.rule(rr.Spec)
	}
	e.closeArray()
	e.key("steps")
	e.openArray()
	probes, index := probeKeys(s)
	for i := range res.Timeline.States {
		e.elem()
		d.step(i, probes, index)
	}
	e.closeArray()
	e.key("expect")
	e.openArray()
	for _, o := range res.Check() {
		e.elem()
		d.expectation(o)
	}
	e.closeArray()
	e.key("sweep")
	d.sweep(st)
	if len(res.Migrations) > 0 {
		e.key("migrations")
		d.migrations()
	}
	e.closeObject()
}

// rule describes a rule with its effective parameters.
func (d *jsonDoc) rule(spec placer.RuleSpec) {
	e, p := d.e, registry.Effective(spec)
	e.openObject()
	e.kstr("label", spec.Label)
	e.kstr("kind", spec.Kind)
	e.kstr("hash", p.Hash)
	if p.VNodes != 0 {
		e.kint("vnodes", p.VNodes)
	}
	if p.M != 0 {
		e.kint("m", p.M)
	}
	if p.Probes != 0 {
		e.kint("probes", p.Probes)
	}
	if p.Epsilon != 0 {
		e.kfixed6("epsilon", p.Epsilon)
	}
	e.closeObject()
}

// expectation writes one expectation and its verdict.
func (d *jsonDoc) expectation(o sim.Outcome) {
	e, x := d.e, o.Expectation
	e.openObject()
	e.key("step")
	if x.Step >= 0 {
		e.int(int64(x.Step))
	} else {
		e.null()
	}
	e.key("rule")
	if x.Rule != "" {
		e.str(x.Rule)
	} else {
		e.null()
	}
	e.kstr("metric", x.Metric)
	e.kstr("bound", x.Text)
	e.key("passed")
	e.bool(o.Passed())
	e.kint("checked", o.Checked)
	e.kint("failed", o.Failed)
	e.key("at")
	e.openObject()
	e.kint("step", o.Step)
	e.kstr("rule", o.Rule)
	e.kfixed6("value", o.Value)
	e.closeObject()
	e.closeObject()
}

// migrations writes every compared pair of rules at every step.
func (d *jsonDoc) migrations() {
	e, res := d.e, d.res
	e.openArray()
	for _, mr := range res.Migrations {
		e.elem()
		e.openObject()
		e.kstr("from", mr.From)
		e.kstr("to", mr.To)
		e.key("steps")
		if len(mr.Steps) == 0 {
			e.null()
		} else {
			e.openArray()
			for i, st := range mr.Steps {
				e.elem()
				e.openObject()
				e.kint("step", i)
				e.kint("differ", st.Differ)
				e.kfixed6("differ_fraction", ratio(st.Differ, res.Keys.Len()))
				if d.weighted {
					e.key("differ_requests")
					e.int(st.DifferRequests)
				}
				e.closeObject()
			}
			e.closeArray()
		}
		e.closeObject()
	}
	e.closeArray()
}

// nodeList writes a list of node names, skipping sim.NoNode.
func (d *jsonDoc) nodeList(ids []timeline.NodeID) {
	e := d.e
	e.openArray()
	for _, id := range ids {
		if id != timeline.NoNode {
			e.elem()
			e.quoted(d.names[id])
		}
	}
	e.closeArray()
}

// step writes step i: membership, every rule, every probe (probes are
// the distinct probe keys, index their places in the scenario's list).
func (d *jsonDoc) step(i int, probes []string, index []int) {
	e, res := d.e, d.res
	st := &res.Timeline.States[i]
	e.openObject()
	e.kint("step", i)
	e.kstr("op", st.Op.String())
	e.key("named")
	d.nodeList(st.Named)
	e.key("random")
	e.bool(st.Random)
	e.kstr("note", st.Note)
	e.key("nodes")
	e.openArray()
	for _, m := range st.Members {
		e.elem()
		e.quoted(d.names[m.ID])
	}
	e.closeArray()
	e.key("live")
	e.openArray()
	for _, m := range st.Members {
		if !m.Failed {
			e.elem()
			e.quoted(d.names[m.ID])
		}
	}
	e.closeArray()
	e.key("weights")
	e.openObject()
	for _, m := range st.Members {
		e.keyQuoted(d.names[m.ID])
		e.int(int64(m.Weight))
	}
	e.closeObject()
	e.key("vnodes")
	if st.VNodes > 0 {
		e.int(int64(st.VNodes))
	} else {
		e.null()
	}
	e.kint("replicas", st.Replicas)
	e.key("rules")
	e.openObject()
	for r := range res.Rules {
		e.keyQuoted(d.labels[r])
		d.ruleStep(r, i)
	}
	e.closeObject()
	e.key("probes")
	e.openObject()
	for p, k := range probes {
		e.key(k)
		e.openObject()
		for r, rr := range res.Rules {
			pr := rr.Steps[i].Probes[index[p]]
			e.keyQuoted(d.labels[r])
			e.openObject()
			e.key("position")
			e.uint(pr.Position)
			if pr.Text != "" {
				e.kstr("position_text", pr.Text)
			}
			e.key("owners")
			d.nodeList(pr.Owners)
			e.closeObject()
		}
		e.closeObject()
	}
	e.closeObject()
	e.closeObject()
}

// ruleStep writes rule r's figures at step i.
func (d *jsonDoc) ruleStep(r, i int) {
	e, res := d.e, d.res
	sr := &res.Rules[r].Steps[i]
	members := res.Timeline.States[i].Members
	a := res.At(r, i)
	e.openObject()
	for _, m := range sim.Metrics {
		if m.Requests {
			continue
		}
		d.metric(m, m.Value(a))
		if m.Name == "ideal" { // the loads follow the move counts
			e.key("loads")
			e.openObject()
			for _, mb := range members {
				e.keyQuoted(d.names[mb.ID])
				e.int(int64(sr.Loads[mb.ID]))
			}
			e.closeObject()
		}
	}
	if st := sr.Streams; st != nil {
		d.streams(st)
	}
	e.key("notes")
	e.strings(sr.Notes)
	weighted := sr.Requests != nil
	kept, rest := sr.Transfers.Top, sr.Transfers.Rest
	e.key("transfers")
	e.openArray()
	for _, t := range kept {
		e.elem()
		e.openObject()
		e.key("from")
		e.quoted(d.names[t.From])
		e.key("to")
		e.quoted(d.names[t.To])
		e.kint("keys", t.Keys)
		if weighted {
			e.key("requests")
			e.int(t.Requests)
		}
		e.closeObject()
	}
	e.closeArray()
	e.key("transfers_rest")
	e.openObject()
	e.kint("pairs", rest.Pairs)
	e.kint("keys", rest.Keys)
	if weighted {
		e.key("requests")
		e.int(rest.Requests)
	}
	e.closeObject()
	if weighted {
		if len(members) > 0 {
			e.key("requests")
			e.openObject()
			for _, m := range members {
				e.keyQuoted(d.names[m.ID])
				e.int(sr.Requests[m.ID])
			}
			e.closeObject()
		}
		for _, m := range sim.Metrics {
			if m.Requests {
				d.metric(m, m.Value(a))
			}
		}
		if hasNode(sr.HotOwners) {
			e.key("hot_owners")
			d.nodeList(sr.HotOwners)
		}
	}
	e.closeObject()
}

// streams writes a step's replica streaming: the copies each node
// receives and sends (nodes with none left out) and the unsourced ones.
func (d *jsonDoc) streams(st *sim.Streams) {
	e := d.e
	e.key("streams")
	e.openObject()
	for _, side := range []struct {
		name   string
		counts []int
	}{{"received", st.Received}, {"sent", st.Sent}} {
		e.key(side.name)
		e.openObject()
		for id, n := range side.counts {
			if n > 0 {
				e.keyQuoted(d.names[id])
				e.int(int64(n))
			}
		}
		e.closeObject()
	}
	e.kint("unsourced", st.Unsourced)
	e.closeObject()
}

// metric writes one metric of sim.Metrics as its data.json field.
func (d *jsonDoc) metric(m sim.Metric, v sim.Value) {
	e := d.e
	switch {
	case m.Kind == sim.Fraction:
		e.kfixed6(m.Name, v.F)
	case m.Kind == sim.Hex:
		e.kstr(m.Name, fingerprint(uint64(v.N)))
	case !v.OK:
		e.key(m.Name)
		e.null()
	default:
		e.key(m.Name)
		e.int(v.N)
	}
}

// hasNode reports whether ids names a node.
func hasNode(ids []timeline.NodeID) bool {
	for _, id := range ids {
		if id != timeline.NoNode {
			return true
		}
	}
	return false
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
