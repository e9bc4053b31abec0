package sim

import (
	"fmt"
	"strconv"
	"sync"
)

// Replay runs every rule of a scenario over its membership timeline. The
// scenario must be valid (see NewTimeline); Replay returns an error rather
// than a partial result when it is not. Rules run concurrently; the result
// does not depend on scheduling.
func Replay(s *Scenario) (*Result, error) {
	tl, errs := NewTimeline(s)
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid scenario: %w", errs[0])
	}
	res := &Result{Scenario: s, Keys: NewKeySet(s.Keys, s.Seed), Timeline: tl}
	specs := labelRules(s.Rules)
	res.Rules = make([]RuleResult, len(specs))
	errc := make([]error, len(specs))
	var wg sync.WaitGroup
	for i, spec := range specs {
		wg.Go(func() {
			res.Rules[i], errc[i] = replayRule(res, spec)
		})
	}
	wg.Wait()
	for _, err := range errc {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// labelRules fills empty labels: the kind alone, or the kind with its
// position when the kind repeats.
func labelRules(rules []RuleSpec) []RuleSpec {
	out := append([]RuleSpec(nil), rules...)
	count := map[string]int{}
	for _, r := range rules {
		count[r.Kind]++
	}
	for i := range out {
		if out[i].Label == "" {
			out[i].Label = out[i].Kind
			if count[out[i].Kind] > 1 {
				out[i].Label += "-" + strconv.Itoa(i+1)
			}
		}
	}
	return out
}

// replayRule runs one rule through every state of the timeline.
func replayRule(res *Result, spec RuleSpec) (RuleResult, error) {
	e := &env{keys: res.Keys, nodes: res.Timeline.Nodes}
	p, err := newPlacer(spec, e)
	if err != nil {
		return RuleResult{}, err
	}
	rr := RuleResult{Spec: spec, Steps: make([]StepResult, len(res.Timeline.States))}
	t := newTracker(res, p.order())
	for i := range res.Timeline.States {
		st := &res.Timeline.States[i]
		notes := p.update(st)
		lists := t.next(st.Replicas)
		p.assign(lists)
		sr := t.measure(i)
		sr.Notes = notes
		sr.Arcs, sr.Points = p.geometry()
		sr.Probes = probes(p, res.Scenario.Probes, st.Replicas)
		sr.Recurs = t.recurs(i, sr.Fingerprint, func(step int) [][]NodeID { return replayTo(spec, e, res.Timeline, step) })
		rr.Steps[i] = sr
	}
	return rr, nil
}

func probes(p placer, keys []string, r int) []Probe {
	out := make([]Probe, len(keys))
	for i, k := range keys {
		out[i].Position, out[i].Owners = p.probe(k, r)
	}
	return out
}

// replayTo recomputes a rule's assignment at an earlier step from scratch;
// it serves exact recurrence checks when snapshots would cost too much.
func replayTo(spec RuleSpec, e *env, tl *Timeline, step int) [][]NodeID {
	p, _ := newPlacer(spec, e)
	for i := 0; i <= step; i++ {
		p.update(&tl.States[i])
	}
	lists := make([][]NodeID, tl.States[step].Replicas)
	for k := range lists {
		lists[k] = make([]NodeID, e.keys.Len())
	}
	p.assign(lists)
	return lists
}
