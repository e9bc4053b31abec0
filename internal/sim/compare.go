package sim

import (
	"fmt"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
)

// Migration names two rules of a scenario, by label, whose placements
// are compared on the same membership at every step: what switching the
// clients from one to the other would move.
type Migration struct {
	From, To string
}

// MigrationResult is one Migration measured at every step.
type MigrationResult struct {
	Migration
	// Steps holds one entry per timeline state.
	Steps []MigrationStep
}

// MigrationStep counts, at one step, the keys whose primary owner under
// To differs from their primary owner under From, and their requests
// (0 when the keys carry no request counts).
type MigrationStep struct {
	Differ         int
	DifferRequests int64
}

// migrate measures every migration of the scenario: both rules are
// replayed afresh, side by side, and their primary owners compared key by
// key at every state.
func migrate(res *Result, specs []placer.RuleSpec) ([]MigrationResult, error) {
	var out []MigrationResult
	for _, m := range res.Scenario.Migrations {
		a, b := specIndex(specs, m.From), specIndex(specs, m.To)
		if a < 0 || b < 0 {
			return nil, fmt.Errorf("compare %s → %s: no rule has that label", m.From, m.To)
		}
		steps, err := migrationSteps(res, specs[a], specs[b])
		if err != nil {
			return nil, err
		}
		out = append(out, MigrationResult{Migration: m, Steps: steps})
	}
	return out, nil
}

func specIndex(specs []placer.RuleSpec, label string) int {
	for i, s := range specs {
		if s.Label == label {
			return i
		}
	}
	return -1
}

func migrationSteps(res *Result, from, to placer.RuleSpec) ([]MigrationStep, error) {
	e := res.env()
	pa, err := registry.NewPlacer(from, e)
	if err != nil {
		return nil, err
	}
	pb, err := registry.NewPlacer(to, e)
	if err != nil {
		return nil, err
	}
	k := res.Keys.Len()
	out := make([]MigrationStep, len(res.Timeline.States))
	for i := range res.Timeline.States {
		st := &res.Timeline.States[i]
		pa.Update(st)
		pb.Update(st)
		la, lb := placer.MakeLists(st.Replicas, k), placer.MakeLists(st.Replicas, k)
		pa.Assign(la)
		pb.Assign(lb)
		for j := range k {
			if la[0][j] != lb[0][j] {
				out[i].Differ++
				if res.Keys.Weight != nil {
					out[i].DifferRequests += int64(res.Keys.Weight[j])
				}
			}
		}
	}
	return out, nil
}
