package sim

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestHistoryFreeRebuild holds every kind that declares itself history
// free (rulekind.Kind.HistoryFree) to it: over random timelines of adds,
// removes, failures, recoveries, vnodes and replica changes (24 seeds,
// about 160 states a kind), a fresh placer brought to each state alone
// assigns every key as the placer that went through every step before
// it. Those seeds find every kind that keeps history (slots, redis,
// cassandra, kafka, elasticsearch, ceph) if it is marked.
//
// Lookup tables (a prime parameter: maglev's m, envoy-maglev's
// table_size) have smalltable entries rather than 65537: both placers
// fill the same size, a table is a function of the live set whatever its
// size, and the fill's every path (its tail of √(m/2) entries included)
// runs at that size, at a sixtieth of the cost.
func TestHistoryFreeRebuild(t *testing.T) {
	t.Parallel()
	type run struct {
		tl *timeline.Timeline
		e  *placer.Env
	}
	var runs []run // one timeline and key set a seed, for every kind
	for seed := range int64(24) {
		s := randomScenario(seed)
		tl, errs := timeline.NewTimeline(s.Seed, s.Nodes, s.Replicas, s.Steps)
		if len(errs) > 0 {
			t.Fatalf("seed %d: %v", seed, errs[0])
		}
		runs = append(runs, run{tl, &placer.Env{Keys: keys.NewKeySet(s.Keys, s.Seed), Nodes: tl.Nodes, Labels: tl.Labels}})
	}
	kinds := 0
	for _, k := range registry.Kinds {
		if !k.HistoryFree {
			continue
		}
		kinds++
		spec := smallTables(k, placer.RuleSpec{Kind: k.Name, Label: k.Name, Opts: required(k)})
		states := 0
		for seed, r := range runs {
			seq, err := registry.NewPlacer(spec, r.e)
			if err != nil {
				t.Fatalf("%s: %v", k.Name, err)
			}
			for j := range r.tl.States {
				st := &r.tl.States[j]
				seq.Update(st)
				want := placer.MakeLists(st.Replicas, r.e.Keys.Len())
				seq.Assign(want)
				fresh, _ := registry.NewPlacer(spec, r.e)
				fresh.Update(st)
				got := placer.MakeLists(st.Replicas, r.e.Keys.Len())
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

// smalltable is the size TestHistoryFreeRebuild gives lookup tables: a
// prime, over 50 times the most nodes of randomScenario's timelines (20),
// so that every live node holds entries.
const smalltable = 1021

// smallTables sets every prime parameter of k (a lookup table's size) in
// spec to smalltable.
func smallTables(k rulekind.Kind, spec placer.RuleSpec) placer.RuleSpec {
	for _, p := range k.Params {
		if p.Type == rulekind.ParamPrime {
			p.Set(&spec, strconv.Itoa(smalltable))
		}
	}
	return spec
}
