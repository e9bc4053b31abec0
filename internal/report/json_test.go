package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"testing"
)

// decoded mirrors the parts of data.json that the tests check.
type decoded struct {
	Scenario string `json:"scenario"`
	Keys     int    `json:"keys"`
	Rules    []struct {
		Label string `json:"label"`
	} `json:"rules"`
	Steps []struct {
		Step  int      `json:"step"`
		Nodes []string `json:"nodes"`
		Rules map[string]struct {
			Moved         int            `json:"moved"`
			MovedFraction float64        `json:"moved_fraction"`
			Loads         map[string]int `json:"loads"`
			TotalMoved    int            `json:"total_moved"`
			Fingerprint   string         `json:"fingerprint"`
			Recurs        *int           `json:"recurs"`
			Notes         []string       `json:"notes"`
		} `json:"rules"`
		Probes map[string]map[string]struct {
			Position uint64   `json:"position"`
			Owners   []string `json:"owners"`
		} `json:"probes"`
	} `json:"steps"`
}

// TestJSONRoundTrip decodes data.json and checks it against the replay.
func TestJSONRoundTrip(t *testing.T) {
	res := replay(t, replicated())
	data, err := JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) || !bytes.HasSuffix(data, []byte("}\n")) {
		t.Fatalf("data.json is not one valid JSON document ending in a newline")
	}
	var d decoded
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Keys != 600 || len(d.Steps) != len(res.Timeline.States) || len(d.Rules) != len(res.Rules) {
		t.Fatalf("keys %d, %d steps, %d rules", d.Keys, len(d.Steps), len(d.Rules))
	}
	for i, step := range d.Steps {
		for r, rr := range res.Rules {
			got, ok := step.Rules[rr.Spec.Label]
			if !ok {
				t.Fatalf("step %d: no rule %q", i, rr.Spec.Label)
			}
			sr := rr.Steps[i]
			if got.Moved != sr.Moved || got.TotalMoved != sr.TotalMoved {
				t.Errorf("step %d rule %d: moved %d/%d, want %d/%d", i, r, got.Moved, got.TotalMoved, sr.Moved, sr.TotalMoved)
			}
			if sum := sumLoads(got.Loads); sum != d.Keys || len(got.Loads) != len(step.Nodes) {
				t.Errorf("step %d rule %d: loads sum to %d over %d nodes", i, r, sum, len(got.Loads))
			}
			if (got.Recurs == nil) != (sr.Recurs < 0) || (got.Recurs != nil && *got.Recurs != sr.Recurs) {
				t.Errorf("step %d rule %d: recurs %v, want %d", i, r, got.Recurs, sr.Recurs)
			}
			if fp, _ := strconv.ParseUint(got.Fingerprint, 16, 64); len(got.Fingerprint) != 16 || fp != sr.Fingerprint {
				t.Errorf("step %d rule %d: fingerprint %q, want %016x", i, r, got.Fingerprint, sr.Fingerprint)
			}
			if got.Notes == nil {
				t.Errorf("step %d rule %d: notes is null, want a list", i, r)
			}
		}
		if owners := step.Probes["user:42"]["ring-100"].Owners; len(owners) != res.Timeline.States[i].Replicas {
			t.Errorf("step %d: probe owners %v, want %d", i, owners, res.Timeline.States[i].Replicas)
		}
	}
	if r := d.Steps[3].Rules["ring-100"].Recurs; r == nil || *r != 1 {
		t.Errorf("step 3 ring-100 recurs %v, want 1 (recovering every failed node restores step 1)", r)
	}
}

func sumLoads(loads map[string]int) int {
	n := 0
	for _, l := range loads {
		n += l
	}
	return n
}

// TestCSV parses steps.csv back and checks its shape and a few cells.
func TestCSV(t *testing.T) {
	res := replay(t, ringWalkthrough())
	data, err := CSV(res)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + len(res.Timeline.States)*len(res.Rules); len(rows) != want {
		t.Fatalf("%d rows, want %d", len(rows), want)
	}
	last := rows[len(rows)-1]
	rr := res.Rules[len(res.Rules)-1]
	sr := rr.Steps[len(rr.Steps)-1]
	if last[2] != rr.Spec.Label || last[3] != strconv.Itoa(sr.Moved) || last[12] != strconv.Itoa(sr.TotalMoved) {
		t.Errorf("last row %q, want rule %s moved %d total %d", last, rr.Spec.Label, sr.Moved, sr.TotalMoved)
	}
	if rows[1][14] != "" {
		t.Errorf("step 0 recurs = %q, want empty", rows[1][14])
	}
}
