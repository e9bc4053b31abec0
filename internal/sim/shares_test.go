package sim

import "testing"

// TestLoadSharesAreLoadShare: the one-pass shares of a step are, member
// by member and bit for bit, what FairShare and LoadShare give one node at
// a time, over random scenarios with failed members and weights.
func TestLoadSharesAreLoadShare(t *testing.T) {
	t.Parallel()
	compared := 0
	for seed := range int64(40) {
		s := randomScenario(seed)
		for j := range s.Nodes {
			s.Nodes[j].Weight = 1 + j%3
		}
		res, err := Replay(s)
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range res.Timeline.States {
			fair := res.FairShares(i)
			for r := range res.Rules {
				loads := res.LoadShares(r, i)
				for j, m := range st.Members {
					if fair[j] != res.FairShare(m.ID, i) || loads[j] != res.LoadShare(r, i, m.ID) {
						t.Fatalf("seed %d step %d rule %d member %d: shares %v %v, one at a time %v %v",
							seed, i, r, j, fair[j], loads[j], res.FairShare(m.ID, i), res.LoadShare(r, i, m.ID))
					}
					compared++
				}
			}
		}
	}
	if compared < 1000 {
		t.Fatalf("only %d shares compared", compared)
	}
}
