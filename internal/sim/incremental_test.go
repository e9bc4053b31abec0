package sim

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/ringrules"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
	"github.com/ringreport/ringreport/internal/undolog"
)

// TestIncrementalMatchesFull: the fast replay (placer deltas, metrics
// updated from the changed keys, recurrences through undo logs) gives
// exactly the StepResults of the reference replay, which assigns every key
// and recomputes every metric at every step, on random scenarios of every
// rule and on the churn scenario (weights, replicas, vnodes steps).
func TestIncrementalMatchesFull(t *testing.T) {
	t.Parallel()
	scens := []*Scenario{churnScenario(700)}
	for seed := range int64(40) {
		scens = append(scens, randomScenario(seed))
	}
	for _, s := range scens {
		compareReplays(t, s)
	}
}

// TestIncrementalMatchesFullOneReplica: the same on the single-replica
// paths of the tracker, with strip cells of several keys (K > 2,048),
// weighted keys, rule orders other than the canonical one, and the issue's
// timeline of adds, random failures, recoveries and random removals, under
// which jump renumbers and modulo moves most keys at every step.
func TestIncrementalMatchesFullOneReplica(t *testing.T) {
	t.Parallel()
	var rules []placer.RuleSpec
	for _, kind := range []string{"modulo", "jump", "rendezvous"} {
		for _, h := range []string{"fnv1a-fmix", "xxhash64"} {
			rules = append(rules, placer.RuleSpec{Kind: kind, Hash: h, Label: kind + "/" + h})
		}
	}
	rules = append(rules, placer.RuleSpec{Kind: "ketama"}, placer.RuleSpec{Kind: "ring", VNodes: 20})
	for _, keys := range []keys.KeySpec{{Count: 5003}, {Count: 4099, Zipf: 1.1}} {
		s := &Scenario{Name: "one", Title: "one", Seed: 3, Keys: keys, Nodes: nodeNames(9), Replicas: 1,
			Rules: rules, Steps: scaleSteps(9, 24)}
		compareReplays(t, s)
	}
}

// TestRecurrenceUnderLogBudget: with the undo-log budget of a large key
// set (4 bytes per key), so that logs are dropped, recurrences found
// through the kept logs, straight across earlier recurrences, or by
// recomputing match the reference replay's at every step. Removing a node
// just added after a failure and its recovery returns to the step before
// the add, four steps back, past two logs of most keys under modulo and
// jump: the recovery's recurrence leads there without them, and no step is
// recomputed.
func TestRecurrenceUnderLogBudget(t *testing.T) {
	var steps []timeline.Step
	for i := range 3 {
		x := benchNode(100 + i)
		steps = append(steps, add(x), fail(benchNode(1)), recover_(benchNode(1)), remove(x))
	}
	steps = append(steps, scaleSteps(9, 40)...)
	s := &Scenario{Name: "b", Title: "b", Seed: 5, Keys: keys.KeySpec{Count: 3000}, Nodes: nodeNames(9), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "modulo"}, {Kind: "jump"}, {Kind: "rendezvous"}, {Kind: "ring", VNodes: 20}},
		Steps: steps}
	full, err := replay(s, replayOptions{full: true})
	if err != nil {
		t.Fatal(err)
	}
	for r, spec := range full.Rules {
		e := &placer.Env{Keys: full.Keys, Nodes: full.Timeline.Nodes}
		p, _ := registry.NewPlacer(spec.Spec, e)
		recomputed := 0
		run := newRuleRun(full, p, func(step int) [][]timeline.NodeID {
			recomputed++
			return replayTo(spec.Spec, e, full.Timeline, step)
		})
		run.t.hist = undolog.New(full.Keys.Len(), undolog.BytesPerKey*full.Keys.Len())
		for i := range full.Timeline.States {
			if got, want := run.step(i).Recurs, full.Rules[r].Steps[i].Recurs; got != want {
				t.Fatalf("%s step %d: recurs %d, reference %d", spec.Spec.Kind, i, got, want)
			}
		}
		if recomputed > 0 {
			t.Errorf("%s: %d steps recomputed, want none", spec.Spec.Kind, recomputed)
		}
	}
}

// compareReplays fails on the first StepResult field where the fast and
// reference replays of s differ.
func compareReplays(t *testing.T, s *Scenario) {
	t.Helper()
	fast, err := replay(s, replayOptions{counts: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := replay(s, replayOptions{full: true, counts: true})
	if err != nil {
		t.Fatal(err)
	}
	for r := range full.Rules {
		if !reflect.DeepEqual(fast.Rules[r].NodeTransfers, full.Rules[r].NodeTransfers) {
			t.Fatalf("scenario seed %d, %s: node transfers over the run differ from the reference's", s.Seed, full.Rules[r].Spec.Label)
		}
		for i := range full.Rules[r].Steps {
			a, b := fast.Rules[r].Steps[i], full.Rules[r].Steps[i]
			if a.counts == nil || !equalCounts(a.counts, b.counts) {
				t.Fatalf("scenario seed %d, %s step %d (%v): strip counts differ from the reference's", s.Seed, full.Rules[r].Spec.Label, i,
					full.Timeline.States[i].Op)
			}
			va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
			for f := range va.NumField() {
				if !va.Type().Field(f).IsExported() {
					continue
				}
				if !reflect.DeepEqual(va.Field(f).Interface(), vb.Field(f).Interface()) {
					t.Fatalf("scenario seed %d, %s step %d (%v): %s = %v, reference %v", s.Seed, full.Rules[r].Spec.Label, i,
						full.Timeline.States[i].Op, va.Type().Field(f).Name, va.Field(f).Interface(), vb.Field(f).Interface())
				}
			}
		}
	}
}

// equalCounts reports whether two strips' counts are equal cell for
// cell: what reflect.DeepEqual says of them, at a tenth of its cost over
// thousands of cells a step (cells are arrays, compared whole).
func equalCounts(a, b *strips.Counts) bool {
	return b != nil && slices.Equal(a.KeyOrder, b.KeyOrder) && slices.Equal(a.HashOrder, b.HashOrder)
}

// TestRingMergeMatchesSort: the ring's points after every update, merged
// incrementally, equal the points of every member sorted from scratch.
func TestRingMergeMatchesSort(t *testing.T) {
	scens := []*Scenario{churnScenario(100)}
	for seed := range int64(30) {
		scens = append(scens, randomScenario(seed))
	}
	for _, s := range scens {
		tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
		if len(errs) > 0 {
			t.Fatal(errs[0])
		}
		e := &placer.Env{Keys: keys.NewKeySet(s.Keys, s.Seed), Nodes: tl.Nodes}
		for _, spec := range []placer.RuleSpec{{Kind: "ring", VNodes: 7}, {Kind: "ketama"}} {
			p, _ := registry.NewPlacer(spec, e)
			for i := range tl.States {
				p.Update(&tl.States[i])
				r := ringOf(p)
				fresh := &ringrules.Ring{Env: e, Live: r.Live}
				var all []ringrules.RingEntry
				for j, pt := range r.Pts {
					all = append(all, ringrules.RingEntry{Pos: pt.Pos, Node: pt.Node, Index: r.Idx[j]})
				}
				fresh.SetPoints(all)
				if !reflect.DeepEqual(fresh.Pts, r.Pts) || !reflect.DeepEqual(fresh.Idx, r.Idx) {
					t.Fatalf("seed %d, %s step %d: merged points differ from sorted ones", s.Seed, spec.Kind, i)
				}
				if want := wantPoints(p, &tl.States[i]); len(r.Pts) != want {
					t.Fatalf("seed %d, %s step %d: %d points, want %d", s.Seed, spec.Kind, i, len(r.Pts), want)
				}
			}
		}
	}
}

func ringOf(p placer.Placer) *ringrules.Ring {
	if k, ok := p.(*ringrules.Ketama); ok {
		return k.R
	}
	return p.(*ringrules.Ring)
}

// wantPoints counts the points the members of st should have.
func wantPoints(p placer.Placer, st *timeline.State) int {
	n := 0
	live := placer.LiveList(st)
	for _, m := range st.Members {
		switch r := p.(type) {
		case *ringrules.Ring:
			v := r.Vnodes
			if st.VNodes > 0 {
				v = st.VNodes
			}
			n += v * m.Weight
		case *ringrules.Ketama:
			if !m.Failed {
				n += 4 * ringrules.KetamaCount(m.Weight, totalWeight(st), len(live))
			}
		}
	}
	return n
}
