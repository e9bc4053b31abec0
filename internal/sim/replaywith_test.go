package sim

import (
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
)

// TestReplayWithIsReplay: ReplayWith over a key set built beforehand, and
// with MetricsOnly, gives exactly Replay's result, but for the figure
// data MetricsOnly leaves out (Strip, Arcs, Points), on random scenarios
// of every rule, the churn scenario and a weighted key set.
func TestReplayWithIsReplay(t *testing.T) {
	t.Parallel()
	scens := []*Scenario{churnScenario(700)}
	for seed := range int64(20) {
		scens = append(scens, randomScenario(seed))
	}
	scens = append(scens, &Scenario{Name: "zipf", Title: "zipf", Seed: 3, Keys: keys.KeySpec{Count: 4099, Zipf: 1.1}, Nodes: nodeNames(9), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "ketama"}, {Kind: "rendezvous", Hash: "xxhash64"}, {Kind: "modulo"}}, Steps: scaleSteps(9, 12)})
	for _, s := range scens {
		want, err := Replay(s)
		if err != nil {
			t.Fatal(err)
		}
		shared, err := ReplayWith(s, Options{Keys: keys.NewKeySet(s.Keys, s.Seed)})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(shared.Rules, want.Rules) || !reflect.DeepEqual(shared.Keys, want.Keys) {
			t.Errorf("%s: ReplayWith(Keys) differs from Replay", s.Name)
		}
		lean, err := ReplayWith(s, Options{Keys: want.Keys, MetricsOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(lean.Rules, want.WithoutFigureData().Rules) {
			t.Errorf("%s: ReplayWith(MetricsOnly) differs from Replay without its figure data", s.Name)
		}
	}
}
