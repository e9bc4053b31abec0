package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
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
	// Work bounds the replay's time: keys × steps × rules, in key-steps,
	// where a rule's table (ring points, maglev entries, ...) counts as
	// that many more keys, each step's figures count as FigureWork keys
	// per rule, rendezvous adds keys × nodes for ranking every key, and
	// multiprobe counts each key once per four probes (-max-work).
	Work int64
	// Memory bounds the estimated peak memory of replaying and rendering
	// the scenario, in bytes (-max-memory). The estimate errs high.
	Memory int64
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
	Work:          2_000_000_000,
	Memory:        4 << 30,
	AboutBytes:    32 << 10,
}

// FigureWork is what the figures and tables of one step of one rule cost
// to render, in key-steps (see Limits.Work).
const FigureWork = 100_000

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

// cost is the estimated work and peak memory of replaying a scenario.
type cost struct {
	keys, states, rules int64
	work, memory        int64
}

// renderBytes is what rendering one step of one rule takes at its peak:
// its figures, tables and page text, measured on builds of many steps.
const renderBytes = 300 << 10

// estimate computes the cost of replaying and rendering s over its
// timeline tl: memory is sim.EstimateMemory plus the rendering.
func estimate(s *sim.Scenario, tl *timeline.Timeline) cost {
	c := cost{keys: int64(keyCount(s.Keys)), states: int64(len(tl.States)), rules: int64(len(s.Rules))}
	var maxWeight, vnodeSteps, weightSteps int64 // the most weight on the ring at any step
	for _, st := range tl.States {
		w := int64(0)
		for _, m := range st.Members {
			w += int64(max(m.Weight, 1))
		}
		maxWeight = max(maxWeight, w)
		vnodeSteps = max(vnodeSteps, int64(st.VNodes))
		if st.Op == timeline.OpWeight {
			weightSteps++
		}
	}
	nodes, points := int64(len(tl.Nodes)), int64(0)
	for _, r := range s.Rules {
		rc := registry.KindOf(r.Kind).Cost(r, maxWeight, vnodeSteps)
		if rc.Ranks {
			c.work = addSat(c.work, mulSat(c.keys, nodes, 1+weightSteps))
		}
		c.work = addSat(c.work, mulSat(addSat(mulSat(c.keys, rc.PerKey), rc.Table+FigureWork), c.states))
		if rc.Points {
			points = addSat(points, mulSat(rc.Table, c.states))
		}
	}
	// Point rules keep about 8 bytes a point a step more than
	// sim.EstimateMemory counts (measured with 10⁶ points over 200 steps).
	// sim.EstimateMemory wraps around on absurd counts; at least 16
	// bytes a key and a rule is a floor that saturates instead.
	replay := max(sim.EstimateMemory(s), mulSat(c.keys, 16*(c.rules+1)))
	c.memory = addSat(replay, addSat(mulSat(c.states, c.rules, renderBytes), mulSat(points, 8)))
	return c
}

// keyCount is the number of keys a KeySpec describes.
func keyCount(k keys.KeySpec) int {
	if k.List != nil {
		return len(k.List)
	}
	return k.Count
}

// mulSat multiplies non-negative numbers, saturating at MaxInt64.
func mulSat(xs ...int64) int64 {
	r := int64(1)
	for _, x := range xs {
		if x != 0 && r > math.MaxInt64/x {
			return math.MaxInt64
		}
		r *= x
	}
	return r
}

// addSat adds non-negative numbers, saturating at MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// checkCost refuses a scenario whose estimated work or memory is over
// the limits, before anything is replayed.
func (p *parser) checkCost(s *sim.Scenario, tl *timeline.Timeline) {
	at := p.keysVal
	if at == nil {
		at = p.nodesVal
	}
	c := estimate(s, tl)
	if c.work > p.lim.Work {
		p.errorf(at, "work: replaying %s keys over %s under %s is about %s key-steps, over the limit of %s; raise it with -max-work, or use fewer keys, steps or rules",
			count64(c.keys), text.Plural(int(c.states), "step", "steps"), text.Plural(int(c.rules), "rule", "rules"), count64(c.work), count64(p.lim.Work))
	}
	if c.memory > p.lim.Memory {
		p.errorf(at, "memory: replaying %s keys over %s under %s would take about %s, over the limit of %s; raise it with -max-memory, or use fewer keys, steps, rules or points",
			count64(c.keys), text.Plural(int(c.states), "step", "steps"), text.Plural(int(c.rules), "rule", "rules"), Bytes(c.memory), Bytes(p.lim.Memory))
	}
}
