package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/tablerules"
	"go.yaml.in/yaml/v3"
)

// HashNames are the key hashes a rule's hash parameter may name.
var HashNames = keys.HashNames

// ruleMapKeys are every key a rule mapping may hold.
func ruleMapKeys() []string { return append([]string{"rule", "label"}, registry.ParamNames()...) }

// defaultRules are the rules of a scenario that names none.
func defaultRules() []placer.RuleSpec {
	out := make([]placer.RuleSpec, len(registry.DefaultRules))
	for i, k := range registry.DefaultRules {
		out[i] = placer.RuleSpec{Kind: k, Label: k}
	}
	return out
}

func ruleNames() []string {
	names := make([]string, len(registry.Kinds))
	for i, k := range registry.Kinds {
		names[i] = k.Name
	}
	return names
}

// rulesFor lists the rules that accept param, for messages.
func rulesFor(param string) string {
	var names []string
	for i := range registry.Kinds {
		if registry.Kinds[i].Param(param) != nil {
			names = append(names, registry.Kinds[i].Name)
		}
	}
	return strings.Join(names, ", ")
}

// rules decodes the list of rules and checks that labels are distinct.
func (p *parser) rules(n *yaml.Node) []placer.RuleSpec {
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "rules", "a list such as [ring, modulo]")
		return nil
	}
	if len(n.Content) == 0 {
		p.errorf(n, "rules must list at least one rule, such as [ring, modulo]")
		return nil
	}
	var out []placer.RuleSpec
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
func (p *parser) rule(e *yaml.Node, ctx string) (placer.RuleSpec, bool) {
	if e.Kind == yaml.ScalarNode {
		kind, ok := p.ruleName(e, ctx)
		if ok {
			ok = p.requiredParams(e, registry.KindOf(kind), nil, ctx)
		}
		return placer.RuleSpec{Kind: kind, Label: e.Value}, ok
	}
	fs, ok := p.fields(e, ctx+"a rule", "a name such as ring or a mapping such as {rule: ring, vnodes: 40}")
	if !ok {
		return placer.RuleSpec{}, false
	}
	var rs placer.RuleSpec
	var kind *rulekind.Kind
	var typed string // the rule's name as written, an alias or not
	i := slices.IndexFunc(fs, func(f field) bool { return f.key.Value == "rule" })
	if i < 0 {
		p.errorf(e, "%sa rule mapping needs rule: <name>, such as {rule: ring, vnodes: 40}", ctx)
		ok = false
	} else if rs.Kind, ok = p.ruleName(fs[i].val, ctx); ok {
		kind = registry.KindOf(rs.Kind)
		typed = fs[i].val.Value
	}
	for _, f := range fs {
		ok = p.ruleParam(&rs, kind, f, ctx) && ok
	}
	ok = p.requiredParams(e, kind, fs, ctx) && ok
	if ok && kind != nil {
		if err := kind.Validate(rs); err != nil {
			p.errorf(e, "%srule %s: %s", ctx, kind.Name, strings.TrimPrefix(err.Error(), kind.Name+": "))
			ok = false
		}
	}
	if rs.Label == "" {
		rs.Label = typed
	}
	return rs, ok
}

// requiredParams reports each parameter the rule needs and the mapping
// fs (nil for a bare name) does not give.
func (p *parser) requiredParams(e *yaml.Node, kind *rulekind.Kind, fs []field, ctx string) bool {
	if kind == nil {
		return true
	}
	ok := true
	for _, param := range kind.Params {
		if param.Required && !slices.ContainsFunc(fs, func(f field) bool { return f.key.Value == param.Name }) {
			p.errorf(e, "%srule %s needs %s (%s); write it as {rule: %s, %s: <value>}", ctx, kind.Name, param.Name, lowerFirst(strings.TrimSuffix(param.Doc, ".")), kind.Name, param.Name)
			ok = false
		}
	}
	return ok
}

// ruleName validates a rule's name.
func (p *parser) ruleName(n *yaml.Node, ctx string) (string, bool) {
	s, ok := p.str(n, ctx+"rule")
	if !ok {
		return "", false
	}
	k := registry.KindOf(s)
	if k == nil {
		p.errorf(n, "%sunknown rule %q%s; want one of %s", ctx, clip(s), didYouMean(s, ruleNames()), strings.Join(ruleNames(), ", "))
		return "", false
	}
	return k.Name, true
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
func (p *parser) ruleParam(rs *placer.RuleSpec, kind *rulekind.Kind, f field, ctx string) bool {
	key := f.key.Value
	switch {
	case key == "rule":
		return true
	case key == "label":
		var ok bool
		rs.Label, ok = p.name(f.val, ctx+"label")
		return ok
	case !slices.Contains(ruleMapKeys(), key):
		keys := ruleMapKeys()
		if kind != nil {
			keys = []string{"rule", "label"}
			for _, param := range kind.Params {
				keys = append(keys, param.Name)
			}
		}
		p.unknownKey(f.key, ctx, keys)
		return false
	}
	param := anyParam(key)
	if kind != nil {
		if param = kind.Param(key); param == nil {
			p.errorf(f.key, "%s%s does not apply to rule %s; it applies to %s", ctx, key, kind.Name, rulesFor(key))
			return false
		}
	}
	v, ok := p.paramValue(f.val, *param, ctx)
	if ok {
		param.Set(rs, v)
	}
	return ok
}

// anyParam returns the first declaration of a parameter, to check its
// value when the rule's name is missing or unknown.
func anyParam(name string) *rulekind.Param {
	for i := range registry.Kinds {
		if p := registry.Kinds[i].Param(name); p != nil {
			return p
		}
	}
	return nil
}

// paramValue validates a rule parameter's value against its declared
// type and returns it as a scenario writes it.
func (p *parser) paramValue(n *yaml.Node, param rulekind.Param, ctx string) (string, bool) {
	what := ctx + param.Name
	switch param.Type {
	case rulekind.ParamInt:
		v, ok := p.intIn(n, what, param.Min, param.Max)
		if param.Name == "vnodes" {
			p.noteVNodes(n, v)
		}
		return strconv.Itoa(v), ok
	case rulekind.ParamPrime:
		v, ok := p.prime(n, what, param.Min, param.Max)
		return strconv.Itoa(v), ok
	case rulekind.ParamFloat:
		v, ok := p.positive(n, what)
		if ok && param.Max > 0 && v > float64(param.Max) {
			p.errorf(n, "%s must be at most %d; got %s", what, param.Max, n.Value)
			return "", false
		}
		return strconv.FormatFloat(v, 'f', -1, 64), ok
	case rulekind.ParamCounts:
		return p.counts(n, what, param.Min, param.Max)
	case rulekind.ParamBool:
		var b bool
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&b) != nil {
			p.typeError(n, what, "true or false")
			return "", false
		}
		return strconv.FormatBool(b), true
	}
	s, ok := p.str(n, what)
	if ok && param.Type == rulekind.ParamString {
		if err := param.Check(s); err != nil {
			p.errorf(n, "%s%v", ctx, err)
			return "", false
		}
		return s, true
	}
	if ok && !slices.Contains(param.Values, s) {
		p.errorf(n, "%sunknown %s %q%s; want one of %s", ctx, param.Name, clip(s), didYouMean(s, param.Values), strings.Join(param.Values, ", "))
		return "", false
	}
	return s, ok
}

// prime validates a prime from lo to hi, such as a maglev table size:
// the permutation of Eisenbud et al. (NSDI 2016) needs m prime.
func (p *parser) prime(n *yaml.Node, what string, lo, hi int) (int, bool) {
	m, ok := p.intIn(n, what, lo, hi)
	if ok && !tablerules.IsPrime(m) {
		p.errorf(n, "%s must be a prime number, such as 65537; got %d", what, m)
		return 0, false
	}
	return m, ok
}

// lowerFirst lowercases a sentence's first letter, to quote it mid-sentence.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// counts decodes a mapping from names to whole numbers, such as a
// per-datacenter replication factor {z1: 3, z2: 3}, as a JSON object.
func (p *parser) counts(n *yaml.Node, what string, lo, hi int) (string, bool) {
	fs, ok := p.fields(n, what, "a mapping from names to numbers, such as {z1: 3, z2: 3}")
	if !ok {
		return "", false
	}
	m := map[string]int{}
	for _, f := range fs {
		name, okName := p.name(f.key, what+" name")
		v, okV := p.intIn(f.val, fmt.Sprintf("%s of %q", what, clip(f.key.Value)), lo, hi)
		if okName && okV {
			m[name] = v
		}
		ok = ok && okName && okV
	}
	if len(fs) == 0 {
		p.errorf(n, "%s needs at least one entry, such as {z1: 3}", what)
		ok = false
	}
	js, _ := json.Marshal(m) // sorted keys: the same bytes for the same mapping
	return string(js), ok
}
