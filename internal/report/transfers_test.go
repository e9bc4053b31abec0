package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// reshuffle is modulo on 100 nodes through an add, a failure, a recovery
// and a removal: about 10,000 transfer pairs per step, with request
// counts.
func reshuffle(steps int) *sim.Scenario {
	s := scaleModulo(100_000, 100, steps)
	s.Keys.Zipf = 1
	return s
}

// TestJSONTransfersBounded: data.json keeps at most MaxJSONTransfers
// pairs per step and rule, the ones that moved the most keys, and
// transfers_rest sums the others exactly.
func TestJSONTransfersBounded(t *testing.T) {
	res := replay(t, reshuffle(4))
	data, err := JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct {
		From     string `json:"from"`
		To       string `json:"to"`
		Keys     int    `json:"keys"`
		Requests int64  `json:"requests"`
	}
	var d struct {
		Steps []struct {
			Rules map[string]struct {
				Moved         int    `json:"moved"`
				MovedRequests int64  `json:"moved_requests"`
				Transfers     []pair `json:"transfers"`
				Rest          *struct {
					Pairs    int    `json:"pairs"`
					Keys     int    `json:"keys"`
					Requests *int64 `json:"requests"`
				} `json:"transfers_rest"`
			} `json:"rules"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	t.Logf("data.json: %d bytes for %d steps", len(data), len(d.Steps))
	names := res.Timeline.Nodes
	for i, step := range d.Steps {
		sr := &res.Rules[0].Steps[i]
		got := step.Rules["modulo"]
		full := sr.Transfers.All
		if !res.AllTransfers() {
			t.Fatal("the replay dropped its pairs")
		}
		if i > 0 && len(full) < 9000 {
			t.Fatalf("step %d has %d pairs; the test wants a reshuffle of about 10,000", i, len(full))
		}
		if len(got.Transfers) > MaxJSONTransfers || len(got.Transfers) != min(len(full), MaxJSONTransfers) {
			t.Fatalf("step %d: %d pairs of %d, want %d", i, len(got.Transfers), len(full), min(len(full), MaxJSONTransfers))
		}
		if got.Rest == nil || got.Rest.Requests == nil {
			t.Fatalf("step %d: transfers_rest %+v, want pairs, keys and requests", i, got.Rest)
		}
		keys, reqs := got.Rest.Keys, *got.Rest.Requests
		// kept: the indices in full of the pairs data.json lists.
		var kept []int
		for _, p := range got.Transfers {
			j := slices.IndexFunc(full, func(t sim.Transfer) bool { return names[t.From] == p.From && names[t.To] == p.To })
			if j < 0 || full[j].Keys != p.Keys || full[j].Requests != p.Requests {
				t.Fatalf("step %d: pair %+v is not in the replay's transfers", i, p)
			}
			kept = append(kept, j)
			keys += p.Keys
			reqs += p.Requests
		}
		if !slices.IsSorted(kept) {
			t.Errorf("step %d: pairs not in from-then-to order: %v", i, kept)
		}
		if keys != sr.Moved || keys != got.Moved || reqs != sr.MovedRequests || reqs != got.MovedRequests {
			t.Errorf("step %d: kept + rest = %d keys and %d requests, want moved %d and %d", i, keys, reqs, sr.Moved, sr.MovedRequests)
		}
		if got.Rest.Pairs+len(kept) != len(full) {
			t.Errorf("step %d: %d kept + %d rest pairs, want %d", i, len(kept), got.Rest.Pairs, len(full))
		}
		// No left-out pair outranks a kept one: more keys, or as many
		// and earlier.
		for j, tr := range full {
			if slices.Contains(kept, j) {
				continue
			}
			for _, k := range kept {
				if tr.Keys > full[k].Keys || tr.Keys == full[k].Keys && j < k {
					t.Fatalf("step %d: left out %v (index %d) but kept %v (index %d)", i, tr, j, full[k], k)
				}
			}
		}
	}
}

// TestTransfersCSV: transfers.csv is the whole pair matrix, row for row,
// and -step selects one step.
func TestTransfersCSV(t *testing.T) {
	res := replay(t, reshuffle(4))
	var buf bytes.Buffer
	if err := WriteTransfersCSV(&buf, res, -1); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rows[0], TransfersCSVHeader) {
		t.Fatalf("header %q", rows[0])
	}
	var want [][]string
	for i := range res.Timeline.States {
		for _, rr := range res.Rules {
			for _, tr := range rr.Steps[i].Transfers.All {
				want = append(want, []string{strconv.Itoa(i), rr.Spec.Label, res.Timeline.Nodes[tr.From], res.Timeline.Nodes[tr.To],
					strconv.Itoa(tr.Keys), strconv.FormatInt(tr.Requests, 10)})
			}
		}
	}
	if !slices.EqualFunc(rows[1:], want, slices.Equal) {
		t.Fatalf("transfers.csv has %d rows, not the %d pairs of the replay", len(rows)-1, len(want))
	}
	buf.Reset()
	if err := WriteTransfersCSV(&buf, res, 2); err != nil {
		t.Fatal(err)
	}
	rows, _ = csv.NewReader(&buf).ReadAll()
	if n := len(res.Rules[0].Steps[2].Transfers.All); len(rows) != 1+n || rows[1][0] != "2" || rows[n][0] != "2" {
		t.Errorf("step 2: %d rows, want 1 + %d of step 2", len(rows), n)
	}
	if err := WriteTransfersCSV(io.Discard, res, 5); err == nil {
		t.Errorf("step 5 of 0..4: no error")
	}
}

// TestTransfersCSVCells: names that a spreadsheet would run or that need
// quoting read back as CSVCell makes them, byte for byte what
// encoding/csv writes; without request counts the column is empty.
func TestTransfersCSVCells(t *testing.T) {
	s := &sim.Scenario{Name: "cells", Title: "cells", Seed: 1, Keys: keys.KeySpec{Count: 500}, Replicas: 1,
		Nodes: names("=1+1", "-2", "a,b", `"q"`, " lead", "+x", "@sum", `\.`, "plain", "multi\nline"),
		Rules: []placer.RuleSpec{{Kind: "modulo", Label: "=HYPERLINK(1)"}, {Kind: "ring", Label: "ring, 8", VNodes: 8}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: names("\tnew")}, {Op: timeline.OpRemove, Nodes: names("-2")}}}
	res := replay(t, s)
	var got, want bytes.Buffer
	if err := WriteTransfersCSV(&got, res, -1); err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(&want)
	w.Write(TransfersCSVHeader)
	for i := range res.Timeline.States {
		for _, rr := range res.Rules {
			for _, tr := range rr.Steps[i].Transfers.All {
				w.Write([]string{strconv.Itoa(i), CSVCell(rr.Spec.Label), CSVCell(res.Timeline.Nodes[tr.From]),
					CSVCell(res.Timeline.Nodes[tr.To]), strconv.Itoa(tr.Keys), ""})
			}
		}
	}
	w.Flush()
	if got.String() != want.String() {
		t.Errorf("transfers.csv:\n%s\nwant (encoding/csv):\n%s", got.String(), want.String())
	}
	if !bytes.Contains(got.Bytes(), []byte(`'=HYPERLINK(1)`)) || !bytes.Contains(got.Bytes(), []byte(`,'-2,`)) {
		t.Errorf("formula cells not neutralised:\n%s", got.String())
	}
}

// TestTransfersCSVLimit: the build's transfers.csv is written exactly
// while it fits its limit, and never grows past it.
func TestTransfersCSVLimit(t *testing.T) {
	res := replay(t, reshuffle(4))
	var full bytes.Buffer
	if err := WriteTransfersCSV(&full, res, -1); err != nil {
		t.Fatal(err)
	}
	if data, ok, err := transfersCSV(res, full.Len()); !ok || err != nil || !bytes.Equal(data, full.Bytes()) {
		t.Errorf("limit = size: written %v (%v)", ok, err)
	}
	if data, ok, err := transfersCSV(res, full.Len()-1); ok || err != nil || data != nil {
		t.Errorf("limit = size − 1: written %v (%v)", ok, err)
	}
	if data, ok, _ := TransfersCSV(res); !ok || len(data) > TransfersCSVLimit {
		t.Errorf("%d bytes under a limit of %d: written %v", full.Len(), TransfersCSVLimit, ok)
	}
	big := replay(t, reshuffle(24))
	var n countingWriter
	if err := WriteTransfersCSV(&n, big, -1); err != nil {
		t.Fatal(err)
	}
	if n <= TransfersCSVLimit {
		t.Fatalf("24 steps: %d bytes; the test wants more than %d", n, TransfersCSVLimit)
	}
	if data, ok, err := TransfersCSV(big); ok || data != nil || err != nil {
		t.Errorf("%d bytes over a limit of %d: written %v (%v)", n, TransfersCSVLimit, ok, err)
	}
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
