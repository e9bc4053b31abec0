package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// MaxExpect bounds the entries of expect.
const MaxExpect = 1000

// expectOps are the comparison operators of a bound, longest first so
// that "<=" is not read as "<".
var expectOps = []string{"<=", ">=", "==", "!=", "<", ">"}

// expectation is one expect entry before its rule and step are checked
// against the rest of the scenario.
type expectation struct {
	sim.Expectation
	rule, step, metric *yaml.Node
	num                int // the entry's 1-based place in expect, for messages
}

// expectList decodes expect: a list of mappings such as
// {step: 1, rule: ring, moved_fraction: "<= 0.2"}.
func (p *parser) expectList(n *yaml.Node) []expectation {
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "expect", `a list such as [{step: 1, rule: ring, moved_fraction: "<= 0.2"}]`)
		return nil
	}
	if len(n.Content) > MaxExpect {
		p.errorf(n, "expect has %d entries; at most %d are allowed", len(n.Content), MaxExpect)
		return nil
	}
	var out []expectation
	for i, e := range n.Content {
		if x, ok := p.expectEntry(e, fmt.Sprintf("expect %d: ", i+1)); ok {
			x.num = i + 1
			out = append(out, x)
		}
	}
	return out
}

func (p *parser) expectEntry(e *yaml.Node, ctx string) (expectation, bool) {
	x := expectation{Expectation: sim.Expectation{Step: -1, Where: fmt.Sprintf("%s:%d:%d", text.Path(p.file), e.Line, e.Column)}}
	fs, ok := p.fields(e, strings.TrimSuffix(ctx, ": "), `a mapping such as {step: 1, rule: ring, moved_fraction: "<= 0.2"}`)
	if !ok {
		return x, false
	}
	var metric *field
	for i, f := range fs {
		switch k := f.key.Value; {
		case k == "step":
			x.step = f.val
		case k == "rule":
			x.rule = f.val
		case slices.Contains(sim.MetricNames, k):
			if metric != nil {
				p.errorf(f.key, "%sone metric per entry; %s and %s are both here: split them into two entries", ctx, metric.key.Value, k)
				return x, false
			}
			metric = &fs[i]
		default:
			p.unknownKey(f.key, ctx, append([]string{"step", "rule"}, sim.MetricNames...))
			return x, false
		}
	}
	if metric == nil {
		p.errorf(e, "%sname a metric and its bound, such as moved_fraction: \"<= 0.2\"; metrics: %s", ctx, strings.Join(sim.MetricNames, ", "))
		return x, false
	}
	x.Metric, x.metric = metric.key.Value, metric.key
	return x, p.bound(metric.val, ctx, &x.Expectation)
}

// bound decodes a metric's bound: "<= 0.2", "< 1.05", "== 3", a bare
// number (meaning ==), or for recurs a step number or "none".
func (p *parser) bound(n *yaml.Node, ctx string, x *sim.Expectation) bool {
	want := `a bound such as "<= 0.2" or "> 100" (operators <, <=, >, >=, ==, !=)`
	if n.Kind != yaml.ScalarNode || n.Tag == tagNull || n.Tag == tagBool {
		p.typeError(n, ctx+x.Metric, want)
		return false
	}
	text := strings.TrimSpace(n.Value)
	x.Text, x.Op = text, "=="
	for _, op := range expectOps {
		if strings.HasPrefix(text, op) {
			x.Op, text = op, strings.TrimSpace(text[len(op):])
			break
		}
	}
	if x.Metric == "recurs" && text == "none" {
		x.Value = -1
		return true
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || v != v {
		p.errorf(n, "%s%s must be %s; got %q", ctx, x.Metric, want, n.Value)
		return false
	}
	x.Value = v
	return true
}

// checkExpect checks each expectation's rule label and step number
// against the scenario, after the whole file has been read.
func (p *parser) checkExpect(s *sim.Scenario, xs []expectation) {
	labels := make([]string, len(s.Rules))
	for i, r := range s.Rules {
		labels[i] = r.Label
	}
	for _, x := range xs {
		ctx := fmt.Sprintf("expect %d: ", x.num) // entries that failed to decode are not in xs
		ok := true
		if x.rule != nil {
			var label string
			label, ok = p.str(x.rule, ctx+"rule")
			if label = nfc(label); ok && !slices.Contains(labels, label) {
				p.errorf(x.rule, "%sno rule is labelled %q; labels: %s", ctx, label, strings.Join(labels, ", "))
				ok = false
			}
			x.Rule = label
		}
		if sim.RequestMetric(x.Metric) && !s.Keys.Weighted() && len(s.Keys.List)+s.Keys.Count > 0 {
			p.errorf(x.metric, "%s%s needs keys with request counts: keys: {count: <n>, zipf: <exponent>} or a key,weight keys file", ctx, x.Metric)
			ok = false
		}
		if x.step != nil {
			var okStep bool
			x.Step, okStep = p.intIn(x.step, ctx+"step", 0, len(s.Steps))
			ok = ok && okStep
		}
		if ok {
			s.Expect = append(s.Expect, x.Expectation)
		}
	}
}
