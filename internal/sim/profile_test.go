package sim

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/haproxy"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// TestProfilesThroughTheReplay checks the generic placer: for every
// production profile in the registry, every key's preference list in a
// replay with adds, removes, failures, recoveries and weight changes is
// exactly what the profile's own package gives for the same servers in
// join order. internal/conformance checks each package against the real
// product; this closes the chain from the product to ringreport's output.
func TestProfilesThroughTheReplay(t *testing.T) {
	for _, k := range registry.Kinds {
		if k.Profile == nil {
			continue
		}
		t.Run(k.Name, func(t *testing.T) {
			s := &Scenario{Name: "p", Title: "p", Seed: 5, Keys: keys.KeySpec{List: append(sequentialKeys(600), "", "{user1}.x", "日本語", "🎉")},
				Nodes: []timeline.NodeSpec{{Name: "10.0.0.1:11211", Weight: 2}, {Name: "10.0.0.2:11211", Weight: 1}, {Name: "10.0.0.3:11212", Weight: 3}, {Name: "10.0.0.4:11211", Weight: 1}},
				Rules: []placer.RuleSpec{{Kind: k.Name, Label: k.Name, Opts: required(k)}}, Replicas: 2,
				Steps: []timeline.Step{add("10.0.0.5:11211"), fail("10.0.0.2:11211"), recover_("10.0.0.2:11211"),
					{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "10.0.0.3:11212", Weight: 1}}}, remove("10.0.0.1:11211")}}
			res := mustReplay(t, s)
			rule, err := k.Profile.New(rulekind.WithDefaults(k.Params, s.Rules[0]))
			if err != nil {
				t.Fatal(err)
			}
			var prev profile.Placement
			held := make([]timeline.NodeID, res.Keys.Len())
			for i := range res.Timeline.States {
				st := &res.Timeline.States[i]
				var servers []profile.Server
				for _, m := range st.Members {
					servers = append(servers, profile.Server{Name: res.Timeline.Nodes[m.ID], Weight: max(m.Weight, 1), Down: m.Failed})
				}
				pl, err := rule.Build(servers, prev)
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				prev = pl
				e := res.env()
				got := replayTo(res.Rules[0].Spec, e, res.Timeline, i)
				bad := 0
				for key := range res.Keys.Len() {
					want := pl.Owners(rule.Hash(res.Keys.AppendName(nil, key)), st.Replicas, nil)
					if len(want) == 0 {
						// No live replica: the key stays where it was.
						if got[0][key] != held[key] && bad < 3 {
							bad++
							t.Errorf("step %d key %q: no live replica, replay moved it from %d to %d", i, res.Keys.Name(key), held[key], got[0][key])
						}
						continue
					}
					held[key] = got[0][key]
					var have []int
					for r := range got {
						if got[r][key] != timeline.NoNode {
							have = append(have, slices.IndexFunc(st.Members, func(m timeline.Member) bool { return m.ID == got[r][key] }))
						}
					}
					if !slices.Equal(have, want) && bad < 3 {
						bad++
						t.Errorf("step %d key %q: replay %v, package %v", i, res.Keys.Name(key), have, want)
					}
				}
			}
		})
	}
}

// required gives every required parameter of k a value: its maximum,
// capped at 12 (a topic of 12 partitions).
func required(k rulekind.Kind) map[string]string {
	opts := map[string]string{}
	for _, p := range k.Params {
		if p.Required {
			opts[p.Name] = strconv.Itoa(min(p.Max, 12))
		}
	}
	return opts
}

// TestHAProxyDefaultAvalanche pins the one parameter whose default must
// stay unset: plain hash-type consistent is sdbm with the avalanche, but
// naming sdbm turns it off, so the rule a scenario names bare must hash
// keys as the package does with no options.
func TestHAProxyDefaultAvalanche(t *testing.T) {
	k := registry.KindOf("haproxy")
	r, err := k.Profile.New(rulekind.WithDefaults(k.Params, placer.RuleSpec{Kind: "haproxy"}))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := haproxy.New(haproxy.Options{})
	if key := []byte("user:42"); r.Hash(key) != want.Hash(key) {
		t.Errorf("bare haproxy hashes %q to %d; HAProxy's default gives %d", key, r.Hash(key), want.Hash(key))
	}
	if e := registry.Effective(placer.RuleSpec{Kind: "haproxy"}); e.Opts["avalanche"] != "true" || e.Opts["hash_function"] != "sdbm" {
		t.Errorf("effective options %v; want sdbm with avalanche", e.Opts)
	}
}
