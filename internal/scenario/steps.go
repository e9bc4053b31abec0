package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
	"go.yaml.in/yaml/v3"
)

// opKeys are the operations a step may hold, in sim.Op order.
var opKeys = []string{"add", "remove", "fail", "recover", "vnodes", "replicas", "weight", "partitions", "shards"}

// stepPos records where a step's parts are, to place Timeline errors,
// and whether its effect on the membership is known despite any error in
// it (intact): a step with a bad weight or vnodes value is, one with an
// unknown or a second operation, or a node name that is wrong, is not.
type stepPos struct {
	op      *yaml.Node   // the operation's key
	entries []*yaml.Node // the entry behind each of the step's Nodes
	intact  bool
}

// stepList decodes the steps; p.steps gets one stepPos per step.
func (p *parser) stepList(n *yaml.Node) []timeline.Step {
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "steps", "a list such as [{add: f}, {remove: a}]")
		p.stepsBroken = true
		return nil
	}
	if len(n.Content) > p.lim.Steps {
		p.overLimit(n, "steps", text.Count(len(n.Content)), "steps", p.lim.Steps, "-max-steps")
		p.stepsBroken = true
		return nil
	}
	var steps []timeline.Step
	for i, e := range n.Content {
		st, pos := p.step(e, i+1)
		steps = append(steps, st)
		p.steps = append(p.steps, pos)
	}
	return steps
}

// step decodes step number num: one operation and an optional note.
func (p *parser) step(n *yaml.Node, num int) (timeline.Step, stepPos) {
	var st timeline.Step
	pos := stepPos{op: n}
	fs, ok := p.fields(n, fmt.Sprintf("step %d", num), "a mapping with one operation, such as {add: f}")
	if !ok {
		return st, pos
	}
	ctx := fmt.Sprintf("step %d: ", num)
	var op *field
	unknown, clear := false, true // clear: no key that could be another operation
	for _, f := range fs {
		switch k := f.key.Value; {
		case k == "note":
			st.Note = p.note(f.val, ctx)
		case !slices.Contains(opKeys, k):
			p.unknownOp(f.key, ctx)
			unknown = true
			clear = clear && suggest(k, []string{"note"}) != ""
		case op != nil:
			p.errorf(f.key, "step %d has two operations, %s and %s; split them into two steps", num, op.key.Value, k)
			clear = false
		default:
			op = &f
		}
	}
	if op == nil {
		if !unknown {
			p.errorf(n, "step %d has no operation; want one of %s", num, strings.Join(opKeys, ", "))
		}
		return st, pos
	}
	pos.op = op.key
	pos.entries, pos.intact = p.operation(&st, *op, ctx)
	pos.intact = pos.intact && clear
	return st, pos
}

// note validates a step's note: plain text (the report escapes it) of at
// most MaxNoteLen bytes.
func (p *parser) note(n *yaml.Node, ctx string) string {
	s, ok := p.str(n, ctx+"note")
	switch {
	case !ok || !p.checkProse(n, ctx+"note", s):
		return ""
	case len(s) > MaxNoteLen:
		p.errorf(n, "%snote is %s bytes long; at most %s are allowed (put longer text in about)", ctx, text.Count(len(s)), text.Count(MaxNoteLen))
		return ""
	}
	return s
}

// unknownOp reports a step key that is neither an operation nor note.
func (p *parser) unknownOp(k *yaml.Node, ctx string) {
	if suggest(k.Value, []string{"note"}) != "" {
		p.errorf(k, "%sunknown key %q; did you mean \"note\"?", ctx, k.Value)
		return
	}
	p.errorf(k, "%sunknown operation %q%s; want one of %s", ctx, clip(k.Value), didYouMean(k.Value, opKeys), strings.Join(opKeys, ", "))
}

// operation decodes the operation f into st and returns the YAML entry
// behind each of st.Nodes, and whether the nodes it acts on are known
// (a wrong value of vnodes, replicas, partitions, shards or a weight
// changes no membership).
func (p *parser) operation(st *timeline.Step, f field, ctx string) ([]*yaml.Node, bool) {
	st.Op = timeline.Op(slices.Index(opKeys, f.key.Value) + 1)
	v := f.val
	switch st.Op {
	case timeline.OpVNodes:
		st.Value, _ = p.intIn(v, ctx+"vnodes", 1, MaxVNodes)
		p.noteVNodes(v, st.Value)
	case timeline.OpReplicas:
		st.Value, _ = p.intIn(v, ctx+"replicas", 1, MaxReplicas)
	case timeline.OpPartitions:
		st.Value, _ = p.intIn(v, ctx+"partitions", 1, 1_000_000)
	case timeline.OpShards:
		st.Value, _ = p.intIn(v, ctx+"shards", 1, 1024)
	case timeline.OpWeight:
		var entries []*yaml.Node
		st.Nodes, entries = p.weights(v, ctx)
		return entries, true
	case timeline.OpRemove, timeline.OpFail:
		st.Random = isWord(v, "random")
	case timeline.OpRecover:
		st.All = isWord(v, "all")
	}
	if st.Op == timeline.OpVNodes || st.Op == timeline.OpReplicas || st.Op == timeline.OpPartitions || st.Op == timeline.OpShards || st.Random || st.All {
		return nil, true
	}
	if v.Kind == yaml.MappingNode && st.Op != timeline.OpAdd {
		var ok bool
		st.Where, ok = p.selector(v, ctx, st.Op)
		return nil, ok
	}
	return p.targets(v, ctx, st.Op, &st.Nodes)
}

// isWord reports whether n is the plain string word.
func isWord(n *yaml.Node, word string) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == tagStr && n.Value == word
}

// targets decodes into nodes the nodes an add, remove, fail or recover
// step names: one entry or a non-empty list of them; only add takes
// weights. It returns the entry behind each node and whether every
// entry named one.
func (p *parser) targets(v *yaml.Node, ctx string, op timeline.Op, nodes *[]timeline.NodeSpec) ([]*yaml.Node, bool) {
	weighted := op == timeline.OpAdd
	list := []*yaml.Node{v}
	switch {
	case v.Kind == yaml.SequenceNode && len(v.Content) == 0:
		p.errorf(v, "%s%s needs at least one node; got an empty list", ctx, op)
		return nil, false
	case v.Kind == yaml.SequenceNode:
		list = v.Content
	case v.Kind == yaml.ScalarNode, v.Kind == yaml.MappingNode && weighted:
	default:
		p.typeError(v, ctx+op.String(), targetsWant(op))
		return nil, false
	}
	specs, entries, intact := p.entries(list, ctx, weighted)
	*nodes = specs
	return entries, intact
}

// targetsWant describes what an operation takes, for messages.
func targetsWant(op timeline.Op) string {
	switch op {
	case timeline.OpAdd:
		return "a name, a list of names or {name: <name>, weight: <weight>}"
	case timeline.OpRecover:
		return "a name, a list of names, all, or {zone: <zone>}"
	}
	return "a name, a list of names, random, or {zone: <zone>}"
}

// weights decodes a weight step: a non-empty mapping from name to weight.
func (p *parser) weights(v *yaml.Node, ctx string) ([]timeline.NodeSpec, []*yaml.Node) {
	fs, ok := p.fields(v, ctx+"weight", "a mapping from node name to weight, such as {a: 2}")
	if !ok {
		return nil, nil
	}
	if len(fs) == 0 {
		p.errorf(v, "%sweight needs at least one node, such as {a: 2}", ctx)
	}
	var specs []timeline.NodeSpec
	var entries []*yaml.Node
	for _, f := range fs {
		name, ok1 := p.nodeName(f.key, ctx)
		w, ok2 := p.intIn(f.val, fmt.Sprintf("%sweight of %q", ctx, clip(f.key.Value)), 1, MaxNodeWeight)
		p.noteWeight(f.val, w)
		if ok1 && ok2 {
			specs = append(specs, timeline.NodeSpec{Name: name, Weight: w})
			entries = append(entries, f.key)
		}
	}
	return specs, entries
}

// checkResizes checks the steps that resize a product's units (partitions,
// shards) against the rules that have them: a step no rule takes, and a
// resize the product refuses, are errors at the step.
func (p *parser) checkResizes(s *sim.Scenario) {
	for i, st := range s.Steps {
		if st.Op != timeline.OpPartitions && st.Op != timeline.OpShards {
			continue
		}
		if !slices.ContainsFunc(s.Rules, func(r placer.RuleSpec) bool { return registry.KindOf(r.Kind).Resizes() == st.Op }) && i < len(p.steps) {
			var takers []string
			for _, k := range registry.Kinds {
				if k.Resizes() == st.Op {
					takers = append(takers, k.Name)
				}
			}
			p.errorf(p.steps[i].op, "step %d: %s applies to %s rules; the scenario has none", i+1, st.Op, strings.Join(takers, " and "))
		}
	}
	for _, r := range s.Rules {
		if n, err := registry.KindOf(r.Kind).CheckResizes(r, s.Steps); err != nil && n-1 < len(p.steps) {
			p.errorf(p.steps[n-1].op, "step %d: %s for rule %s: %v", n, s.Steps[n-1].Op, r.Label, err)
		}
	}
}
