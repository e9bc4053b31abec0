package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/prose"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
	"go.yaml.in/yaml/v3"
)

// topKeys are the keys of a scenario mapping, in documentation order.
var topKeys = []string{"title", "about", "seed", "keys", "nodes", "rules", "replicas", "probes", "steps", "expect", "compare", "sweep", "seeds"}

// scenario walks the root mapping.
func (p *parser) scenario(root *yaml.Node) *sim.Scenario {
	s := &sim.Scenario{Name: p.scenarioName(), Seed: sim.DefaultSeed, Replicas: 1, Rules: defaultRules()}
	fs, ok := p.fields(root, "a scenario", "a mapping with keys such as title, keys, nodes and steps")
	if !ok {
		return s
	}
	seen := map[string]bool{}
	var expect []expectation
	var compare []*yaml.Node
	for _, f := range fs {
		switch f.key.Value {
		case "expect":
			expect, seen["expect"] = p.expectList(f.val), true
			continue
		case "compare":
			compare, seen["compare"] = p.compareList(f.val), true
			continue
		}
		seen[f.key.Value] = p.topField(s, f)
		seen[typoOf(f.key.Value)] = true
	}
	for _, req := range []struct{ key, example string }{
		{"title", "title: Adding a node"}, {"keys", "keys: 1000"}, {"nodes", "nodes: [a, b, c]"},
	} {
		if !seen[req.key] {
			p.errorf(root, "missing %s; add a line such as %q", req.key, req.example)
		}
	}
	membershipOK := p.checkMembership(s)
	p.checkExpect(s, expect)
	p.checkCompare(s, compare)
	p.checkResizes(s)
	p.checkStudy(s, membershipOK)
	p.checkPoints(s) // after checkStudy, which notes a sweep's vnodes
	return s
}

// topField decodes one top-level pair into s and reports whether the key
// is known.
func (p *parser) topField(s *sim.Scenario, f field) bool {
	switch f.key.Value {
	case "title":
		s.Title = p.title(f.val)
	case "about":
		s.About = p.about(f.val)
	case "seed":
		v, ok := p.uint64Val(f.val, "seed")
		if ok {
			s.Seed = v
		}
		p.seedBroken = !ok
	case "keys":
		p.keysVal = f.val
		s.Keys = p.keys(f.val)
	case "nodes":
		p.nodesVal = f.val
		s.Nodes, p.nodeEntries, p.nodesIntact = p.nodes(f.val)
	case "rules":
		s.Rules = p.rules(f.val)
	case "replicas":
		s.Replicas, _ = p.intIn(f.val, "replicas", 1, MaxReplicas)
	case "probes":
		s.Probes = p.probes(f.val)
	case "steps":
		s.Steps = p.stepList(f.val)
	case "sweep", "seeds":
		p.studyField(f)
	default:
		p.unknownKey(f.key, "", topKeys)
		return false
	}
	return true
}

// typoOf returns the known top-level key that an unknown key is an obvious
// typo of, so that "titel" is not also reported as a missing title.
func typoOf(key string) string {
	if slices.Contains(topKeys, key) {
		return ""
	}
	return suggest(key, topKeys)
}

// scenarioName is the scenario's Name, from its file's name; a file
// whose base name without .yaml or .yml (in any case: .YAML too) is empty
// is an error.
func (p *parser) scenarioName() string {
	base := p.file[strings.LastIndexAny(p.file, `/\`)+1:]
	for _, ext := range []string{".yaml", ".yml"} {
		if n := len(base) - len(ext); n >= 0 && strings.EqualFold(base[n:], ext) {
			base = base[:n]
			break
		}
	}
	if base == "" {
		p.errs = append(p.errs, &Error{File: p.file, Msg: "the file name gives an empty scenario name; name the file after the scenario, such as ring.yaml"})
	}
	return Name(p.file)
}

// title validates the required one-line title.
func (p *parser) title(n *yaml.Node) string {
	s, ok := p.str(n, "title")
	switch {
	case !ok:
	case strings.TrimSpace(s) == "":
		p.errorf(n, "title must not be empty; give the scenario a one-line title")
	case strings.ContainsAny(s, "\r\n"):
		p.errorf(n, "title must be one line; put longer text in about")
	case p.checkText(n, "title", s):
		return s
	}
	return ""
}

// about validates the scenario's Markdown introduction: text within
// Limits.AboutBytes, nested at most MaxMarkdownDepth levels, with at most
// MaxMarkdownRuns emphasis markers in a paragraph.
func (p *parser) about(n *yaml.Node) string {
	s, ok := p.str(n, "about")
	switch {
	case !ok || !p.checkProse(n, "about", s):
		return ""
	case int64(len(s)) > p.lim.AboutBytes:
		p.errorf(n, "about: %s exceed the limit of %s; raise it with -max-about-size", Bytes(int64(len(s))), Bytes(p.lim.AboutBytes))
		return ""
	}
	if prob := prose.Check(s, prose.Limits{Depth: MaxMarkdownDepth, Runs: MaxMarkdownRuns}); prob != nil {
		line, col, where := p.inScalar(n, s, prob.Line, prob.Col)
		p.errs = append(p.errs, &Error{File: p.file, Line: line, Col: col, Msg: "about: " + where + prob.Msg})
		return ""
	}
	return s
}

// inScalar places line and column of the text of scalar n in the file.
// In a literal block (about: |) each line of the text is a line of the
// file; otherwise the position is n's, and where says where in the text
// it is.
func (p *parser) inScalar(n *yaml.Node, s string, line, col int) (int, int, string) {
	lines := strings.Split(s, "\n")
	if n.Style&yaml.LiteralStyle != 0 && line <= len(lines) {
		got := lineText(p.src, n.Line+line)
		want := lines[line-1]
		if indent := len(got) - len(want); indent >= 0 && got[indent:] == want && strings.TrimLeft(got[:indent], " ") == "" {
			return n.Line + line, indent + col, ""
		}
	}
	return n.Line, n.Column, fmt.Sprintf("line %d, column %d of the text: ", line, col)
}

// probes decodes the list of keys to track. Numbers are taken as their
// text, so probes: [42] tracks the key "42".
func (p *parser) probes(n *yaml.Node) []string {
	const want = `a list of keys, such as ["user:42", "key-7"]`
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "probes", want)
		return nil
	}
	if len(n.Content) > MaxProbes {
		p.errorf(n, "probes lists %d keys; at most %d (MaxProbes) are allowed", len(n.Content), MaxProbes)
		return nil
	}
	var out []string
	seen := map[string]int{}
	for _, e := range n.Content {
		if k, ok := p.probe(e); ok {
			if line, dup := seen[k]; dup {
				p.errorf(e, "duplicate probe %q (first listed at line %d); list each key once", clip(k), line)
				continue
			}
			seen[k] = e.Line
			out = append(out, k)
		}
	}
	return out
}

func (p *parser) probe(e *yaml.Node) (string, bool) {
	if e.Kind != yaml.ScalarNode || (e.Tag != tagStr && e.Tag != tagInt && e.Tag != tagFloat) {
		p.typeError(e, "a probe", "a key (a string)")
		return "", false
	}
	switch {
	case e.Value == "":
		p.errorf(e, "a probe must not be empty; list keys such as \"user:42\"")
		return "", false
	case len(e.Value) > MaxNameLen:
		p.errorf(e, "probe %q is %d bytes long; at most %d are allowed", clip(e.Value), len(e.Value), MaxNameLen)
		return "", false
	}
	return e.Value, p.checkText(e, "probe", e.Value)
}

// checkMembership resolves the membership changes as far as the file
// allows and reports every step that cannot be done; when they resolve
// completely and cleanly, it checks the cost of the replay too,
// whatever else is wrong in the file: the parts that failed
// (keys, rules, values) only lower the estimate, so what it reports
// stays true once they are fixed. It reports whether the timeline was
// complete and clean.
func (p *parser) checkMembership(s *sim.Scenario) bool {
	m, complete := p.membership(s)
	if m == nil || !p.replayable(s) {
		return false
	}
	before := len(p.errs)
	p.timeline(m)
	if !complete || len(p.errs) > before {
		return false
	}
	p.checkCost(s)
	return true
}

// membership returns the part of s whose membership changes are known
// despite the errors found: all of it (and true), or its starting nodes
// and the steps before the first one whose effect is unknown (a step
// that did not decode, or a random choice under a seed that did not),
// or nil when the starting nodes are unknown. Every later step depends
// on the broken one, so it is left unchecked rather than misjudged.
func (p *parser) membership(s *sim.Scenario) (*sim.Scenario, bool) {
	if !p.nodesIntact || p.aliased {
		return nil, false
	}
	for i, sp := range p.steps {
		if !sp.intact || (p.seedBroken && s.Steps[i].Random) {
			cut := *s
			cut.Steps = s.Steps[:i]
			return &cut, false
		}
	}
	return s, !p.stepsBroken
}

// timeline replays the membership changes and reports each StepError at
// the step, or the node entry within it, that it is about.
func (p *parser) timeline(s *sim.Scenario) *timeline.Timeline {
	tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
	for _, e := range errs {
		n, prefix := p.nodesVal, "nodes: "
		entries := p.nodeEntries
		if e.Step > 0 && e.Step <= len(p.steps) {
			sp := p.steps[e.Step-1]
			n, entries, prefix = sp.op, sp.entries, fmt.Sprintf("step %d: ", e.Step)
		}
		if e.Node >= 0 && e.Node < len(entries) {
			n = entries[e.Node]
		}
		if n == nil { // cannot happen: nodes is required before replaying
			n = &yaml.Node{}
		}
		p.errorf(n, "%s%s", prefix, e.Msg)
	}
	return tl
}

// replayable reports whether s is within Limits.NodeSteps: its distinct
// node names (a node removed and added again is one) times its states.
func (p *parser) replayable(s *sim.Scenario) bool {
	names := map[string]bool{}
	for _, n := range s.Nodes {
		names[n.Name] = true
	}
	for _, st := range s.Steps {
		if st.Op == timeline.OpAdd {
			for _, n := range st.Nodes {
				names[n.Name] = true
			}
		}
	}
	states := len(s.Steps) + 1
	if work := int64(len(names)) * int64(states); work > int64(p.lim.NodeSteps) {
		p.errorf(p.nodesVal, "node-steps: %s over %s is %s node-steps, over the limit of %s; raise it with -max-node-steps, or use fewer nodes or steps",
			text.Plural(len(names), "node name", "node names"), text.Plural(states, "state", "states"), count64(work), text.Count(p.lim.NodeSteps))
		return false
	}
	return true
}
