package sim

import (
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestHistoryFreeRebuild holds every kind that declares itself history
// free (rulekind.Kind.HistoryFree) to it: over random timelines of adds,
// removes, failures, recoveries, vnodes and replica changes (24 seeds,
// about 160 states a kind), a fresh placer brought to each state alone
// assigns every key as the placer that went through every step before
// it. Those seeds find every kind that keeps history (slots, redis,
// cassandra, kafka, elasticsearch, ceph) if it is marked.
func TestHistoryFreeRebuild(t *testing.T) {
	t.Parallel()
	kinds := 0
	for _, k := range registry.Kinds {
		if !k.HistoryFree {
			continue
		}
		kinds++
		spec := placer.RuleSpec{Kind: k.Name, Label: k.Name, Opts: required(k)}
		states := 0
		for seed := range int64(24) {
			s := randomScenario(seed)
			tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
			if len(errs) > 0 {
				t.Fatalf("seed %d: %v", seed, errs[0])
			}
			e := &placer.Env{Keys: keys.NewKeySet(s.Keys, s.Seed), Nodes: tl.Nodes, Labels: tl.Labels}
			seq, err := registry.NewPlacer(spec, e)
			if err != nil {
				t.Fatalf("%s: %v", k.Name, err)
			}
			for j := range tl.States {
				st := &tl.States[j]
				seq.Update(st)
				want := placer.MakeLists(st.Replicas, e.Keys.Len())
				seq.Assign(want)
				fresh, _ := registry.NewPlacer(spec, e)
				fresh.Update(st)
				got := placer.MakeLists(st.Replicas, e.Keys.Len())
				fresh.Assign(got)
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Fatalf("%s, seed %d, step %d (%v): a placer brought to the state alone assigns differently from one that took every step", k.Name, seed, j, st.Op)
				}
				states++
			}
		}
		if states < 120 {
			t.Errorf("%s: only %d states compared", k.Name, states)
		}
	}
	if kinds < 10 {
		t.Errorf("only %d history-free kinds", kinds)
	}
}
