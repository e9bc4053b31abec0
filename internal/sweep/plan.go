package sweep

import (
	"slices"
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The parameters a plan can sweep, by their scenario spelling.
const (
	VNodes   = "vnodes"   // points per node of every ring and bounded rule
	Nodes    = "nodes"    // the starting cluster: node-1 .. node-N, weight 1
	M        = "m"        // the table size of every maglev rule (a prime)
	Epsilon  = "epsilon"  // the slack ε of every bounded rule
	Replicas = "replicas" // the preference-list length at step 0
)

// Params lists the parameters a plan can sweep, in documentation order.
var Params = []string{VNodes, Nodes, M, Epsilon, Replicas}

// Plan says which variants of a scenario to replay: every value of Param
// (or the scenario as written when Param is empty), each with Seeds
// consecutive seeds.
type Plan struct {
	// Param is one of Params, or "" for no sweep.
	Param string
	// Values are the parameter's values, strictly increasing; whole
	// numbers for every parameter but epsilon. Empty when Param is "".
	Values []float64
	// Seeds is the number of seeds per value, ≥ 1; 0 means 1.
	Seeds int
}

// Active reports whether the plan asks for anything beyond the scenario
// as written: a sweep, or more than one seed.
func (p Plan) Active() bool { return p.Param != "" || p.Seeds > 1 }

// Points returns the number of sweep values, 1 when there is no sweep.
func (p Plan) Points() int { return max(len(p.Values), 1) }

// SeedCount returns the number of seeds per value, at least 1.
func (p Plan) SeedCount() int { return max(p.Seeds, 1) }

// Variants returns Points × SeedCount, the number of replays.
func (p Plan) Variants() int { return p.Points() * p.SeedCount() }

// Seed returns seed j of a plan over base: base + j, wrapping at 2^64.
func Seed(base uint64, j int) uint64 { return base + uint64(j) }

// LogScale reports whether the parameter's values are best read on a
// logarithmic axis: points per node and table sizes grow in powers.
func (p Plan) LogScale() bool { return p.Param == VNodes || p.Param == M }

// Applies reports whether the parameter changes rule r: it belongs to
// the scenario (nodes, replicas) or r is of a kind that takes it.
func Applies(param string, r placer.RuleSpec) bool {
	if param == Nodes || param == Replicas {
		return true
	}
	return registry.KindOf(r.Kind).Param(param) != nil
}

// Scenario returns the variant of base for sweep value i and seed j: a
// copy with the parameter set, the seed moved on (Seed) and, for j ≥ 1,
// every node renamed (Rename), without probes, expectations and
// migrations (only the scenario as written is checked and compared, and
// a sweep reads none of them). The keys are base's: no parameter
// changes them, so the variants of one seed share one key set (Execute).
// base is not changed.
func (p Plan) Scenario(base *sim.Scenario, i, j int) *sim.Scenario {
	s := *base
	s.Seed = Seed(base.Seed, j)
	s.Probes, s.Expect, s.Migrations = nil, nil, nil
	s.Rules = slices.Clone(base.Rules)
	if p.Param != "" && i < len(p.Values) {
		p.set(&s, p.Values[i])
	}
	if j > 0 {
		rename(&s, j)
	}
	return &s
}

// Rename returns the name that node name has under seed j ≥ 1:
// name + "~" + j. It is injective, so steps that name nodes still
// name the same ones, and it redraws everything a rule derives from
// names: ring and ketama points, maglev permutations, rendezvous
// scores, multi-probe points.
func Rename(name string, j int) string { return name + "~" + strconv.Itoa(j) }

func rename(s *sim.Scenario, j int) {
	s.Nodes = renamed(s.Nodes, j)
	s.Steps = slices.Clone(s.Steps)
	for k := range s.Steps {
		s.Steps[k].Nodes = renamed(s.Steps[k].Nodes, j)
	}
}

func renamed(ns []timeline.NodeSpec, j int) []timeline.NodeSpec {
	if ns == nil {
		return nil
	}
	out := make([]timeline.NodeSpec, len(ns))
	for k, n := range ns {
		out[k] = timeline.NodeSpec{Name: Rename(n.Name, j), Weight: n.Weight}
	}
	return out
}

// set gives s the parameter value v.
func (p Plan) set(s *sim.Scenario, v float64) {
	switch p.Param {
	case Nodes:
		s.Nodes = GeneratedNodes(int(v))
	case Replicas:
		s.Replicas = int(v)
	}
	for r := range s.Rules {
		if !Applies(p.Param, s.Rules[r]) {
			continue
		}
		switch p.Param {
		case VNodes:
			s.Rules[r].VNodes = int(v)
		case M:
			s.Rules[r].M = int(v)
		case Epsilon:
			s.Rules[r].Epsilon = v
		}
	}
}

// GeneratedNodes returns node-1 .. node-n with weight 1: the nodes of
// "nodes: n", and of every value n of a nodes sweep.
func GeneratedNodes(n int) []timeline.NodeSpec {
	out := make([]timeline.NodeSpec, n)
	for i := range out {
		out[i].Name = "node-" + strconv.Itoa(i+1)
	}
	return out
}

// ValueText formats a sweep value as the scenario would write it.
func ValueText(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// ParamText names a parameter in words, for axes and headings.
func ParamText(param string) string {
	switch param {
	case VNodes:
		return "points per node"
	case Nodes:
		return "nodes"
	case M:
		return "maglev table size M"
	case Epsilon:
		return "bounded-load slack ε"
	case Replicas:
		return "replicas"
	}
	return param
}
