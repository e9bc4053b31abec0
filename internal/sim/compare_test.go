package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/keys"
import "testing"

// TestMigrations checks every migration count against the two rules'
// whole assignments recomputed from scratch, key by key, and that a rule
// compared with an identical copy of itself never differs.
func TestMigrations(t *testing.T) {
	s := &Scenario{Name: "m", Title: "m", Seed: 3, Keys: keys.KeySpec{Count: 3000, Zipf: 1.1},
		Nodes: names("a", "b", "c", "d"),
		Rules: []placer.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "ketama", Label: "ketama"},
			{Kind: "ring", Label: "ring copy"}, {Kind: "modulo", Label: "modulo"}},
		Steps:      []timeline.Step{add("e"), fail("b"), recover_("b"), remove("a"), {Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "c", Weight: 3}}}},
		Migrations: []Migration{{"ring", "ketama"}, {"ring", "ring copy"}, {"ketama", "modulo"}}}
	res := mustReplay(t, s)
	if len(res.Migrations) != 3 {
		t.Fatalf("%d migrations, want 3", len(res.Migrations))
	}
	label := map[string]int{}
	for r, rr := range res.Rules {
		label[rr.Spec.Label] = r
	}
	for _, mr := range res.Migrations {
		for i, st := range mr.Steps {
			a, b := ownersAt(res, label[mr.From], i), ownersAt(res, label[mr.To], i)
			differ, reqs := 0, int64(0)
			for k := range a {
				if a[k] != b[k] {
					differ++
					reqs += int64(res.Keys.Weight[k])
				}
			}
			if st.Differ != differ || st.DifferRequests != reqs {
				t.Errorf("%s → %s step %d: %d keys, %d requests; recomputed %d, %d", mr.From, mr.To, i, st.Differ, st.DifferRequests, differ, reqs)
			}
			if mr.To == "ring copy" && st.Differ != 0 {
				t.Errorf("ring and its copy differ on %d keys at step %d", st.Differ, i)
			}
			if mr.To != "ring copy" && st.Differ < 1000 {
				t.Errorf("%s → %s step %d: only %d of 3000 keys differ; two unrelated rules agree on about 1/n", mr.From, mr.To, i, st.Differ)
			}
		}
	}
}
