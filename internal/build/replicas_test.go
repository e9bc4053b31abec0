package build

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestReplicasOverLiveNodes checks, end to end, that asking for more
// replicas than there are live nodes is not an error: the site builds,
// the report warns at each such step, and data.json counts every key as
// under-replicated.
func TestReplicasOverLiveNodes(t *testing.T) {
	src := "title: More replicas than nodes\nkeys: 100\nnodes: [a, b]\nreplicas: 3\nrules: [ring, rendezvous, jump, slots]\nsteps:\n  - fail: a\n  - add: c\n  - replicas: 2\n"
	files, err := Build([]Input{{Path: "rep.yaml", Src: []byte(src)}}, Options{})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	m := fileMap(t, files)
	md := string(m["rep/report.md"])
	for _, want := range []string{
		"> **Warning:** replicas is 3 but only 2 nodes are live, so every key has fewer than 3 live copies: see under-replicated.",
		"> **Warning:** replicas is 3 but only 1 node is live, so every key has fewer than 3 live copies: see under-replicated.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	if n := strings.Count(md, "**Warning:** replicas"); n != 3 {
		t.Errorf("report.md warns %d times, want 3 (steps 0, 1 and 2)", n)
	}
	if !strings.Contains(string(m["rep/index.html"]), "<strong>Warning:</strong> replicas is 3 but only 1 node is live") {
		t.Errorf("index.html lacks the warning")
	}
	var data struct {
		Steps []struct {
			Rules map[string]struct {
				UnderReplicated *int `json:"under_replicated"`
			} `json:"rules"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(m["rep/data.json"], &data); err != nil {
		t.Fatal(err)
	}
	for _, rule := range []string{"ring", "rendezvous", "jump"} {
		for i, want := range []int{100, 100, 100, 0} {
			got := data.Steps[i].Rules[rule].UnderReplicated
			if got == nil || *got != want {
				t.Errorf("step %d, %s: under_replicated = %v, want %d", i, rule, got, want)
			}
		}
	}
}
