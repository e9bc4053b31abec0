package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"go.yaml.in/yaml/v3"
)

// RuleKind is a placement rule a scenario may name, with the parameters it
// accepts besides rule and label.
type RuleKind struct {
	// Name is the rule's spelling in scenarios and sim.RuleSpec.Kind.
	Name string
	// Params are the parameter keys that apply to the rule.
	Params []string
}

// RuleKinds are the known placement rules, in documentation order. To add
// a rule, append it here with its parameters.
var RuleKinds = []RuleKind{
	{"ring", []string{"vnodes", "hash"}},
	{"modulo", []string{"hash"}},
	{"jump", []string{"hash"}},
	{"rendezvous", []string{"hash"}},
	{"maglev", []string{"m", "hash"}},
	{"multiprobe", []string{"probes", "hash"}},
	{"bounded", []string{"vnodes", "epsilon", "hash"}},
	{"ketama", nil},
	{"slots", nil},
}

// HashNames are the key hashes a rule's hash parameter may name.
var HashNames = []string{"fnv1a-fmix", "xxhash64", "crc32", "md5"}

// ruleMapKeys are every key a rule mapping may hold.
var ruleMapKeys = []string{"rule", "label", "vnodes", "hash", "m", "probes", "epsilon"}

// defaultRules are the rules of a scenario that names none.
func defaultRules() []sim.RuleSpec {
	return []sim.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "modulo", Label: "modulo"}}
}

func ruleNames() []string {
	names := make([]string, len(RuleKinds))
	for i, k := range RuleKinds {
		names[i] = k.Name
	}
	return names
}

// ruleKind returns the kind called name, or nil.
func ruleKind(name string) *RuleKind {
	for i := range RuleKinds {
		if RuleKinds[i].Name == name {
			return &RuleKinds[i]
		}
	}
	return nil
}

// rulesFor lists the rules that accept param, for messages.
func rulesFor(param string) string {
	var names []string
	for _, k := range RuleKinds {
		if slices.Contains(k.Params, param) {
			names = append(names, k.Name)
		}
	}
	return strings.Join(names, ", ")
}

// rules decodes the list of rules and checks that labels are distinct.
func (p *parser) rules(n *yaml.Node) []sim.RuleSpec {
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "rules", "a list such as [ring, modulo]")
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "rules must list at least one rule, such as [ring, modulo]")
		return nil
	}
	var out []sim.RuleSpec
	labels := map[string]int{}
	for i, e := range n.Content {
		ctx := fmt.Sprintf("rule %d: ", i+1)
		rs, ok := p.rule(e, ctx)
		if !ok {
			continue
		}
		if j, dup := labels[rs.Label]; dup {
			p.errorf(e, "%sduplicate label %q (rule %d has it too); give each a distinct label: {rule: %s, label: \"%s 2\"}", ctx, rs.Label, j, rs.Kind, rs.Kind)
			continue
		}
		labels[rs.Label] = i + 1
		out = append(out, rs)
	}
	return out
}

// rule decodes a bare rule name or a mapping with rule and parameters.
func (p *parser) rule(e *yaml.Node, ctx string) (sim.RuleSpec, bool) {
	if e.Kind == yaml.ScalarNode {
		kind, ok := p.ruleName(e, ctx)
		return sim.RuleSpec{Kind: kind, Label: kind}, ok
	}
	fs, ok := p.fields(e, ctx+"a rule", "a name such as ring or a mapping such as {rule: ring, vnodes: 40}")
	if !ok {
		return sim.RuleSpec{}, false
	}
	var rs sim.RuleSpec
	var kind *RuleKind
	i := slices.IndexFunc(fs, func(f field) bool { return f.key.Value == "rule" })
	if i < 0 {
		p.errorf(e, "%sa rule mapping needs rule: <name>, such as {rule: ring, vnodes: 40}", ctx)
		ok = false
	} else if rs.Kind, ok = p.ruleName(fs[i].val, ctx); ok {
		kind = ruleKind(rs.Kind)
	}
	for _, f := range fs {
		ok = p.ruleParam(&rs, kind, f, ctx) && ok
	}
	if rs.Label == "" {
		rs.Label = rs.Kind
	}
	return rs, ok
}

// ruleName validates a rule's name.
func (p *parser) ruleName(n *yaml.Node, ctx string) (string, bool) {
	s, ok := p.str(n, ctx+"rule")
	if !ok {
		return "", false
	}
	if ruleKind(s) == nil {
		p.errorf(n, "%sunknown rule %q%s; want one of %s", ctx, clip(s), didYouMean(s, ruleNames()), strings.Join(ruleNames(), ", "))
		return "", false
	}
	return s, true
}

// didYouMean returns ` (did you mean "x"?)` for an obvious typo, or "".
func didYouMean(word string, candidates []string) string {
	if s := suggest(word, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// ruleParam decodes one key of a rule mapping into rs. kind is nil when
// the rule's name is missing or unknown.
func (p *parser) ruleParam(rs *sim.RuleSpec, kind *RuleKind, f field, ctx string) bool {
	key := f.key.Value
	if key == "rule" {
		return true
	}
	if !slices.Contains(ruleMapKeys, key) {
		p.unknownKey(f.key, ctx, ruleMapKeys)
		return false
	}
	if key != "label" && kind != nil && !slices.Contains(kind.Params, key) {
		p.errorf(f.key, "%s%s does not apply to rule %s; it applies to %s", ctx, key, kind.Name, rulesFor(key))
		return false
	}
	var ok bool
	switch key {
	case "label":
		rs.Label, ok = p.name(f.val, ctx+"label")
	case "vnodes":
		rs.VNodes, ok = p.intIn(f.val, ctx+"vnodes", 1, MaxVNodes)
		p.noteVNodes(f.val, rs.VNodes)
	case "hash":
		rs.Hash, ok = p.hash(f.val, ctx)
	case "m":
		rs.M, ok = p.maglevM(f.val, ctx)
	case "probes":
		rs.Probes, ok = p.intIn(f.val, ctx+"probes", 1, MaxProbes)
	case "epsilon":
		rs.Epsilon, ok = p.positive(f.val, ctx+"epsilon")
	}
	return ok
}

func (p *parser) hash(n *yaml.Node, ctx string) (string, bool) {
	s, ok := p.str(n, ctx+"hash")
	if ok && !slices.Contains(HashNames, s) {
		p.errorf(n, "%sunknown hash %q%s; want one of %s", ctx, clip(s), didYouMean(s, HashNames), strings.Join(HashNames, ", "))
		return "", false
	}
	return s, ok
}

// maglevM validates a maglev table size: a prime up to MaxM, since the
// permutation of Eisenbud et al. (NSDI 2016) needs M prime.
func (p *parser) maglevM(n *yaml.Node, ctx string) (int, bool) {
	m, ok := p.intIn(n, ctx+"m", 2, MaxM)
	if ok && !sim.IsPrime(m) {
		p.errorf(n, "%sm must be a prime number, such as 65537; got %d", ctx, m)
		return 0, false
	}
	return m, ok
}
