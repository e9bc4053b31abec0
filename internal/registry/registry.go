package registry

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/productrules"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/tablerules"
)

// Kinds are the placement rules, in documentation order. Each rule
// declares its Kind beside its placer (internal/ringrules,
// internal/tablerules, internal/productrules); adding a rule is that file
// and one line here.
var Kinds = []rulekind.Kind{
	ringrules.RingKind,
	tablerules.ModuloKind,
	tablerules.JumpKind,
	tablerules.RendezvousKind,
	tablerules.MaglevKind,
	ringrules.MultiprobeKind,
	ringrules.BoundedKind,
	ringrules.LibketamaKind,
	tablerules.SlotsKind,
	productrules.LibmemcachedKind,
	productrules.TwemproxyKind,
	productrules.NginxKind,
	productrules.NginxHashKind,
	productrules.HAProxyKind,
	productrules.EnvoyRingKind,
	productrules.EnvoyMaglevKind,
	productrules.RedisKind,
	productrules.CassandraKind,
	productrules.KafkaKind,
	productrules.ElasticsearchKind,
	productrules.CephKind,
}

// DefaultRules are the rules of a scenario that names none.
var DefaultRules = []string{Kinds[0].Name, Kinds[1].Name}

// KindOf returns the kind a scenario calls name (its name or an alias),
// or nil.
func KindOf(name string) *rulekind.Kind {
	for i := range Kinds {
		if Kinds[i].Name == name || slices.Contains(Kinds[i].Aliases, name) {
			return &Kinds[i]
		}
	}
	return nil
}

// NewPlacer returns the placer for a rule. The spec must be validated.
func NewPlacer(spec placer.RuleSpec, env *placer.Env) (placer.Placer, error) {
	k := KindOf(spec.Kind)
	if k == nil {
		return nil, fmt.Errorf("rule %q is not implemented", spec.Kind)
	}
	return k.Build(spec, env)
}

// ParamNames lists every parameter any kind accepts, in the order of
// first appearance.
func ParamNames() []string {
	var names []string
	for _, k := range Kinds {
		for _, p := range k.Params {
			if !slices.Contains(names, p.Name) {
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// Effective returns the spec with every parameter the rule uses filled in
// with its default, and its fixed parameters set. Parameters a rule does
// not use stay zero. Reports show this, so a reader sees what ran, not
// what was typed.
func Effective(s placer.RuleSpec) placer.RuleSpec {
	k := KindOf(s.Kind)
	if k == nil {
		return s
	}
	s = rulekind.WithDefaults(k.Params, s)
	for _, p := range k.Fixed {
		p.Set(&s, p.Default)
	}
	if k.Effective != nil {
		s = k.Effective(s)
	}
	return s
}

// Values lists a rule's effective parameters with their values, in
// report order: the fixed ones, then the accepted ones.
func Values(s placer.RuleSpec) []rulekind.ParamValue {
	e := Effective(s)
	k := KindOf(s.Kind)
	if k == nil {
		return nil
	}
	var out []rulekind.ParamValue
	for _, p := range slices.Concat(k.Fixed, k.Params) {
		if v := p.Get(e); v != "" {
			out = append(out, rulekind.ParamValue{Param: p, Value: v})
		}
	}
	return out
}
