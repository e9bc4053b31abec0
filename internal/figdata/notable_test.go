package figdata

import (
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestNotable checks Notable against a brute-force ranking: with weights,
// the extremes are by load over fair share, not by load; the nodes a step
// acts on come first, then the failed ones, then each rule's extremes;
// and the limit keeps the higher priorities.
func TestNotable(t *testing.T) {
	nodes := nodeNames(30)
	for j := range nodes {
		nodes[j].Weight = 1 + j%3
	}
	s := &sim.Scenario{Name: "n", Title: "N", Seed: 3, Keys: keys.KeySpec{Count: 6000}, Nodes: nodes, Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "ring", VNodes: 8}, {Kind: "rendezvous"}},
		Steps: []timeline.Step{fail("node-4", "node-9"), add("x", "y")}}
	res := mustReplay(t, s)
	for i, st := range res.Timeline.States {
		for _, limit := range []int{1, 3, 6, 40} {
			got := Notable(res, i, []int{0, 1}, 2, limit)
			want := bruteNotable(res, i, []int{0, 1}, 2, limit)
			if !slices.Equal(got, want) {
				t.Errorf("step %d limit %d: got %v, want %v", i, limit, got, want)
			}
			if len(got) > limit || len(got) > len(st.Members) {
				t.Errorf("step %d limit %d: %d members", i, limit, len(got))
			}
		}
	}
	// Step 2 adds x and y, node-4 and node-9 stay failed: with a limit of
	// 3, both added nodes and the first failed one, in join order.
	got := Notable(res, 2, []int{0, 1}, 2, 3)
	var gotNames []string
	for _, m := range got {
		gotNames = append(gotNames, res.Timeline.Nodes[m.ID])
	}
	if want := []string{"node-4", "x", "y"}; !slices.Equal(gotNames, want) {
		t.Errorf("step 2, limit 3: %v, want %v", gotNames, want)
	}
}

// bruteNotable ranks every live member against every other for each rule
// and fills the limit in priority order.
func bruteNotable(res *sim.Result, i int, rules []int, extremes, limit int) []timeline.Member {
	st := &res.Timeline.States[i]
	var order []int // member indices by priority, repeats allowed
	for j, m := range st.Members {
		if slices.Contains(st.Named, m.ID) {
			order = append(order, j)
		}
	}
	for j, m := range st.Members {
		if m.Failed {
			order = append(order, j)
		}
	}
	for _, r := range rules {
		rel := func(m timeline.Member) float64 {
			return float64(res.Rules[r].Steps[i].Loads[m.ID]) / res.FairShare(m.ID, i)
		}
		rank := map[int][2]int{} // member index → (place from the top, place from the bottom)
		for j, m := range st.Members {
			if m.Failed {
				continue
			}
			above, below := 0, 0
			for jj, o := range st.Members {
				if o.Failed || jj == j {
					continue
				}
				if rel(o) > rel(m) || rel(o) == rel(m) && jj < j {
					above++
				}
				if rel(o) < rel(m) || rel(o) == rel(m) && jj > j {
					below++
				}
			}
			rank[j] = [2]int{above, below}
		}
		for e := range extremes {
			for _, end := range []int{0, 1} {
				for j, p := range rank {
					if p[end] == e {
						order = append(order, j)
					}
				}
			}
		}
	}
	keep := map[int]bool{}
	for _, j := range order {
		if len(keep) < limit {
			keep[j] = true
		}
	}
	var out []timeline.Member
	for j, m := range st.Members {
		if keep[j] {
			out = append(out, m)
		}
	}
	return out
}
