package scenario

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/cost"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/tablerules"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
	"go.yaml.in/yaml/v3"
)

// Limits of sweep: and seeds:.
const (
	MaxSweepValues = 64   // values in a sweep
	MaxSeeds       = 1000 // seeds:
	// maxStudyTimelines bounds the node-steps of the variant timelines
	// that Parse builds to check a sweep or seeds; past it, a variant
	// that cannot be replayed fails the build instead.
	maxStudyTimelines = 20 * MaxNodeSteps
)

// studyState holds sweep: and seeds: between reading them and checking
// them against the rest of the scenario.
type studyState struct {
	sweepKey, sweepVal, seedsVal *yaml.Node
	plan                         sweep.Plan
}

// ParseStudy is Parse that also returns what the scenario's sweep: and
// seeds: ask for (a zero Plan when it has neither). Parse checks both
// keys the same way and ignores the plan.
func ParseStudy(name string, src []byte, opts Options) (*sim.Scenario, sweep.Plan, error) {
	return parse(name, src, opts)
}

// studyField records sweep: or seeds: for checkStudy.
func (p *parser) studyField(f field) {
	st := &p.study
	if f.key.Value == "seeds" {
		st.seedsVal = f.val
		return
	}
	st.sweepKey, st.sweepVal = f.key, f.val
}

const sweepWant = "a mapping with one parameter and its values, such as {vnodes: [1, 4, 16, 64]}"

// checkStudy decodes sweep: and seeds: once the rules and nodes are
// known, and checks every variant's membership timeline.
func (p *parser) checkStudy(s *sim.Scenario, membershipOK bool) {
	st := &p.study
	before := len(p.errs)
	if st.seedsVal != nil {
		st.plan.Seeds, _ = p.intIn(st.seedsVal, "seeds", 1, MaxSeeds)
	}
	if st.sweepVal != nil {
		st.plan.Param, st.plan.Values = p.sweepSpec(s, st.sweepVal)
	}
	if len(p.errs) > before || !st.plan.Active() || s == nil {
		return
	}
	clean := len(p.errs) == 0
	at := st.sweepKey
	if at == nil {
		at = st.seedsVal
	}
	if e := cost.Study(cost.Of(s), s, st.plan); e.Work() > p.lim.Work && e.Work()-e.Study <= p.lim.Work {
		p.errorf(at, "work: %s is %s replays of %s keys × %s × %s beside the scenario itself, about %s key-steps with it, over the limit of %s; raise it with -max-work, or use fewer values, seeds or keys",
			studyText(st.plan), text.Count(st.plan.Variants()), count64(e.Keys),
			text.Plural(int(e.States), "state", "states"), text.Plural(int(e.Rules), "rule", "rules"), count64(e.Work()), count64(p.lim.Work))
		return
	}
	if clean && membershipOK && !p.aliased {
		p.checkVariants(s, st)
	}
}

// studyText says what a plan replays, for messages: "sweep × seeds".
func studyText(pl sweep.Plan) string {
	switch {
	case pl.Param != "" && pl.Seeds > 1:
		return fmt.Sprintf("sweep %s × seeds", pl.Param)
	case pl.Param != "":
		return "sweep " + pl.Param
	}
	return "seeds"
}

// sweepSpec decodes {param: [values]} and checks that some rule takes
// the parameter.
func (p *parser) sweepSpec(s *sim.Scenario, n *yaml.Node) (string, []float64) {
	fs, ok := p.fields(n, "sweep", sweepWant)
	switch {
	case !ok:
		return "", nil
	case len(fs) == 0:
		p.errorf(n, "sweep names no parameter; want %s", sweepWant)
		return "", nil
	case len(fs) > 1:
		p.errorf(fs[1].key, "a sweep varies exactly one parameter; %s and %s are both here: make one scenario per parameter", fs[0].key.Value, fs[1].key.Value)
		return "", nil
	}
	f := fs[0]
	param := f.key.Value
	if !strings.Contains(" "+strings.Join(sweep.Params, " ")+" ", " "+param+" ") {
		p.unknownKey(f.key, "sweep: ", sweep.Params)
		return "", nil
	}
	if !p.sweepApplies(s, f.key, param) {
		return "", nil
	}
	vals, ok := p.sweepValues(f.val, param)
	if !ok {
		return "", nil
	}
	return param, vals
}

// sweepApplies reports whether some rule takes param, and for nodes
// that the starting nodes are a count that can be regenerated.
func (p *parser) sweepApplies(s *sim.Scenario, key *yaml.Node, param string) bool {
	if param == sweep.Nodes && p.nodesVal != nil && !isInt(p.nodesVal) {
		p.errorf(key, "sweep: nodes needs nodes: <count>, whose nodes node-1 .. node-N each value regenerates; here nodes is %s, so write it as a count", describe(p.nodesVal))
		return false
	}
	if s == nil || len(s.Rules) == 0 {
		return true
	}
	for _, r := range s.Rules {
		if sweep.Applies(param, r) {
			return true
		}
	}
	p.errorf(key, "sweep: no rule takes %s (it applies to %s); add such a rule or sweep another parameter", param, rulesFor(param))
	return false
}

// sweepValues decodes the list of values, each valid for param, at least
// two and strictly increasing.
func (p *parser) sweepValues(n *yaml.Node, param string) ([]float64, bool) {
	ctx := "sweep " + param
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, ctx, "a list of values, such as [1, 4, 16, 64]")
		return nil, false
	}
	switch {
	case len(n.Content) < 2:
		p.errorf(n, "%s lists %s; a sweep needs at least two values (set a single value in the rule or scenario instead)", ctx, text.Plural(len(n.Content), "value", "values"))
		return nil, false
	case len(n.Content) > MaxSweepValues:
		p.errorf(n, "%s lists %d values; at most %d (MaxSweepValues) are allowed", ctx, len(n.Content), MaxSweepValues)
		return nil, false
	}
	var out []float64
	ok := true
	for _, e := range n.Content {
		v, good := p.sweepValue(e, param, ctx)
		if !good {
			ok = false
			continue
		}
		if len(out) > 0 && v <= out[len(out)-1] {
			p.errorf(e, "%s values must increase; %s follows %s", ctx, sweep.ValueText(v), sweep.ValueText(out[len(out)-1]))
			ok = false
			continue
		}
		out = append(out, v)
	}
	return out, ok
}

func (p *parser) sweepValue(e *yaml.Node, param, ctx string) (float64, bool) {
	var v int
	var ok bool
	switch param {
	case sweep.VNodes:
		v, ok = p.intIn(e, ctx+" value", 1, MaxVNodes)
		p.noteVNodes(e, v) // within -max-points like the rules' own vnodes
	case sweep.Nodes:
		v, ok = p.intIn(e, ctx+" value", 1, MaxNodes)
	case sweep.M:
		v, ok = p.prime(e, "sweep: m", 2, tablerules.MaxMaglevM)
	case sweep.Replicas:
		v, ok = p.intIn(e, ctx+" value", 1, MaxReplicas)
	case sweep.Epsilon:
		f, ok := p.positive(e, ctx+" value")
		if limit := anyParam(sweep.Epsilon).Max; ok && f > float64(limit) {
			p.errorf(e, "%s value must be at most %d; got %s", ctx, limit, e.Value)
			return 0, false
		}
		return f, ok
	}
	return float64(v), ok
}

// checkVariants builds the membership timeline of every variant that
// can differ from the scenario's own (another node count, other random
// choices, other replicas) and reports the first problem of each sweep
// value and of the seeds at the value or at seeds:.
func (p *parser) checkVariants(s *sim.Scenario, st *studyState) {
	pl := st.plan
	random := false
	for _, step := range s.Steps {
		random = random || step.Random
	}
	seeds := 1
	if random {
		seeds = pl.SeedCount()
	}
	if pl.Param != sweep.Nodes && pl.Param != sweep.Replicas && seeds == 1 {
		return
	}
	nodeSteps := (len(s.Nodes) + len(s.Steps)) * (len(s.Steps) + 1)
	if pl.Param == sweep.Nodes {
		nodeSteps = (int(pl.Values[len(pl.Values)-1]) + len(s.Steps)) * (len(s.Steps) + 1)
	}
	if nodeSteps*pl.Points()*seeds > maxStudyTimelines {
		return
	}
	seedFailed := false
	for i := range pl.Points() {
		for j := range seeds {
			v := pl.Scenario(s, i, 0) // renaming cannot break a timeline, and would show in messages
			v.Seed = sweep.Seed(s.Seed, j)
			_, errs := timeline.NewTimeline(v.Seed, v.Nodes, v.Replicas, v.Steps)
			if len(errs) == 0 {
				continue
			}
			if j == 0 && pl.Param != "" {
				p.errorf(st.sweepVal.Content[i], "sweep %s %s: %s", pl.Param, sweep.ValueText(pl.Values[i]), errs[0].Error())
				break
			}
			if !seedFailed {
				p.errorf(st.seedsVal, "seeds: with seed %d (run %d of %d), %s; a random step picks another node under each seed, so later steps must not name the node it picked",
					sweep.Seed(s.Seed, j), j+1, seeds, errs[0].Error())
				seedFailed = true
			}
			break
		}
	}
}
