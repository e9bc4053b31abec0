package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/cost"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// Limits bounds what one scenario may ask of the machine that replays it.
// Parse refuses a scenario over any limit before anything is replayed,
// with a message that names the limit, the value and the ringreport flag
// that raises it. A zero field means the DefaultLimits value.
type Limits struct {
	// FileBytes is the largest scenario file, in bytes (-max-file-size).
	FileBytes int64
	// KeysFileBytes is the largest keys file, in bytes
	// (-max-keys-file-size).
	KeysFileBytes int64
	// Keys is the most keys, generated or read from a keys file
	// (-max-keys).
	Keys int
	// Nodes is the most entries in the starting nodes list, or its count
	// (-max-nodes).
	Nodes int
	// Points is the most points one node may have on a ring: its rule's
	// vnodes (or a vnodes step's value) times its weight (-max-points).
	Points int
	// Steps is the most entries in steps (-max-steps).
	Steps int
	// NodeSteps bounds distinct node names × (steps + 1), the membership
	// entries the timeline of the scenario may hold: it keeps a member
	// list per step (-max-node-steps). A node removed and added again is
	// one name.
	NodeSteps int
	// Work bounds the estimated time of the whole build (the replay, its
	// sweep and seeds, the figures and every file), in key-steps: the
	// time of placing one key at one step, about 5 ns on a 2-core machine
	// (-max-work). internal/cost documents every term.
	Work int64
	// Memory bounds the estimated peak memory of building the scenario,
	// in bytes (-max-memory). The estimate errs high.
	Memory int64
	// Output bounds the estimated bytes the build writes for the
	// scenario (-max-output).
	Output int64
	// AboutBytes is the largest about: text, in bytes (-max-about-size).
	// Its Markdown is nested at most MaxMarkdownDepth levels, which keeps
	// parsing and rendering it linear in its size.
	AboutBytes int64
}

// DefaultLimits are the limits of a Parse whose Options leave them zero.
var DefaultLimits = Limits{
	FileBytes:     4 << 20,
	KeysFileBytes: 256 << 20,
	Keys:          MaxKeys,
	Nodes:         MaxNodes,
	Points:        100_000,
	Steps:         MaxSteps,
	NodeSteps:     MaxNodeSteps,
	Work:          4_000_000_000,
	Memory:        2 << 30,
	Output:        1 << 30,
	AboutBytes:    32 << 10,
}

// withDefaults returns l with zero fields set from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	l.FileBytes = cmpOr(l.FileBytes, d.FileBytes)
	l.KeysFileBytes = cmpOr(l.KeysFileBytes, d.KeysFileBytes)
	l.Keys = cmpOr(l.Keys, d.Keys)
	l.Nodes = cmpOr(l.Nodes, d.Nodes)
	l.Points = cmpOr(l.Points, d.Points)
	l.Steps = cmpOr(l.Steps, d.Steps)
	l.NodeSteps = cmpOr(l.NodeSteps, d.NodeSteps)
	l.Work = cmpOr(l.Work, d.Work)
	l.Memory = cmpOr(l.Memory, d.Memory)
	l.Output = cmpOr(l.Output, d.Output)
	l.AboutBytes = cmpOr(l.AboutBytes, d.AboutBytes)
	return l
}

func cmpOr[T int | int64](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Bytes formats a size in bytes for messages: "256 MiB", "1.5 GiB",
// "4,096 bytes".
func Bytes(n int64) string {
	for _, u := range []struct {
		name  string
		shift uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}} {
		if n >= 1<<u.shift {
			v := float64(n) / float64(int64(1)<<u.shift)
			s := strconv.FormatFloat(v, 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return text.Count(int(n)) + " bytes"
}

// count64 formats n with thousands separators.
func count64(n int64) string { return text.Count(int(n)) }

// overLimit reports a value over a limit: "keys: 60,000,000 keys exceed
// the limit of 50,000,000; raise it with -max-keys".
func (p *parser) overLimit(n *yaml.Node, what, value, unit string, limit int, flag string) {
	p.errorf(n, "%s: %s %s exceed the limit of %s; raise it with %s", what, value, unit, text.Count(limit), flag)
}

// limited returns n's value when it is a whole number from 1 to limit.
// A value over the limit is reported with overLimit.
func (p *parser) limited(n *yaml.Node, what, unit string, limit int, flag string) (int, bool) {
	if !isInt(n) {
		p.typeError(n, what, fmt.Sprintf("a whole number from 1 to %s", text.Count(limit)))
		return 0, false
	}
	raw := strings.ReplaceAll(n.Value, "_", "")
	v, err := strconv.ParseInt(raw, 0, 64)
	switch {
	case strings.HasPrefix(raw, "-") || (err == nil && v < 1):
		p.errorf(n, "%s must be at least 1; got %s", what, n.Value)
	case err != nil:
		p.overLimit(n, what, n.Value, unit, limit, flag)
	case v > int64(limit):
		p.overLimit(n, what, text.Count(int(v)), unit, limit, flag)
	default:
		return int(v), true
	}
	return 0, false
}

// noteVNodes and noteWeight record the largest points per unit of weight
// and the largest weight seen, with their positions, for checkPoints.
func (p *parser) noteVNodes(n *yaml.Node, v int) {
	if v > p.maxVNodes {
		p.maxVNodes, p.maxVNodesAt = v, n
	}
}

func (p *parser) noteWeight(n *yaml.Node, v int) {
	if v > p.maxWeight {
		p.maxWeight, p.maxWeightAt = v, n
	}
}

// usesPoints reports whether a rule places points per node and weight.
func usesPoints(kind string) bool { return registry.KindOf(kind).Param("vnodes") != nil }

// checkPoints reports a ring node with more points than Limits.Points.
func (p *parser) checkPoints(s *sim.Scenario) {
	if !slices.ContainsFunc(s.Rules, func(r placer.RuleSpec) bool { return usesPoints(r.Kind) }) {
		return
	}
	vnodes, at := p.maxVNodes, p.maxVNodesAt
	if vnodes < placer.DefaultVNodes && slices.ContainsFunc(s.Rules, func(r placer.RuleSpec) bool { return usesPoints(r.Kind) && r.VNodes == 0 }) {
		vnodes, at = placer.DefaultVNodes, nil
	}
	weight := max(p.maxWeight, 1)
	if at == nil {
		at = p.maxWeightAt
	}
	if at == nil {
		at = p.nodesVal
	}
	if pts := int64(vnodes) * int64(weight); pts > int64(p.lim.Points) && at != nil {
		p.errorf(at, "points: %s points per unit of weight × weight %s = %s points on one node exceed the limit of %s; raise it with -max-points",
			text.Count(vnodes), text.Count(weight), count64(pts), text.Count(p.lim.Points))
	}
}

// checkCost refuses a scenario whose estimated work, memory or output
// (internal/cost) is over the limits, before anything is replayed, in
// one error at its keys that names every limit it is over and the flag
// that raises each (its sweep and seeds are checkStudy's).
func (p *parser) checkCost(s *sim.Scenario) {
	p.reportCost(p.costAt(), cost.Of(s), "replaying")
}

// costAt is where a cost error points: the keys, else the nodes.
func (p *parser) costAt() *yaml.Node {
	if p.keysVal != nil {
		return p.keysVal
	}
	return p.nodesVal
}

// reportCost reports the limits e is over at n, doing what the scenario
// asks ("replaying", or a sweep's replays).
func (p *parser) reportCost(n *yaml.Node, e cost.Estimate, doing string) {
	shape := fmt.Sprintf("%s %s keys over %s under %s", doing, count64(e.Keys), text.Plural(int(e.States), "step", "steps"), text.Plural(int(e.Rules), "rule", "rules"))
	var over []string
	if w := e.Work(); w > p.lim.Work {
		over = append(over, fmt.Sprintf("work: %s is about %s key-steps, over the limit of %s; raise it with -max-work, or use fewer keys, steps, nodes or rules",
			shape, count64(w), count64(p.lim.Work)))
	}
	if e.Memory > p.lim.Memory {
		over = append(over, fmt.Sprintf("memory: %s would take about %s, over the limit of %s; raise it with -max-memory, or use fewer keys, steps, nodes, rules or points",
			shape, Bytes(e.Memory), Bytes(p.lim.Memory)))
	}
	if e.Output > p.lim.Output {
		over = append(over, fmt.Sprintf("output: %s would write about %s, over the limit of %s; raise it with -max-output, or use fewer steps, nodes, rules, probes or replicas",
			shape, Bytes(e.Output), Bytes(p.lim.Output)))
	}
	if len(over) > 0 {
		p.errorf(n, "%s", strings.Join(over, "; "))
	}
}
