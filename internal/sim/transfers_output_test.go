package sim_test

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestTransfersOutputMatchesReference: modulo over more nodes than a
// dense pair table holds, reshuffling its keys at every step, writes the
// same data.json (transfers and transfers_rest included) and the same
// transfers.csv from the fast replay as from the reference replay, which
// counts every pair in a map and picks the largest by a stable sort; with
// request counts too.
func TestTransfersOutputMatchesReference(t *testing.T) {
	t.Parallel()
	nodes := make([]timeline.NodeSpec, 700)
	for i := range nodes {
		nodes[i] = timeline.NodeSpec{Name: "n" + strconv.Itoa(i)}
	}
	node := func(op timeline.Op, name string) timeline.Step {
		return timeline.Step{Op: op, Nodes: []timeline.NodeSpec{{Name: name}}}
	}
	s := &sim.Scenario{Name: "many", Title: "many", Seed: 3, Keys: keys.KeySpec{Count: 60_000}, Nodes: nodes, Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "modulo"}, {Kind: "ring", VNodes: 8}},
		Steps: []timeline.Step{node(timeline.OpAdd, "new"), node(timeline.OpFail, "n2"), node(timeline.OpRecover, "n2"),
			node(timeline.OpRemove, "n3")}}
	for _, weighted := range []bool{false, true} {
		if weighted {
			s.Keys.Zipf, s.Keys.Requests = 1, 100_000
		}
		fast, err := sim.Replay(s)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := sim.ReplayReference(s)
		if err != nil {
			t.Fatal(err)
		}
		if p := fast.Rules[0].Steps[1].Transfers.Pairs(); p < 20*sim.TopTransfers {
			t.Fatalf("modulo moved keys between %d pairs; the test wants a reshuffle", p)
		}
		a, err := report.JSON(fast)
		if err != nil {
			t.Fatal(err)
		}
		b, err := report.JSON(ref)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("weighted %v: data.json differs from the reference's (%d and %d bytes)", weighted, len(a), len(b))
		}
		ca, oka, err := report.TransfersCSV(fast)
		if err != nil {
			t.Fatal(err)
		}
		cb, okb, err := report.TransfersCSV(ref)
		if err != nil {
			t.Fatal(err)
		}
		if !oka || !okb || !bytes.Equal(ca, cb) {
			t.Errorf("weighted %v: transfers.csv written %v, %v (%d and %d bytes), want both and equal", weighted, oka, okb, len(ca), len(cb))
		}
	}
}

// TestTransfersCSVPastTheBudget: a replay with more than sim.MaxKeptPairs
// pairs in all writes no transfers.csv in a build (nothing is rendered),
// and refuses to render it; one step's file comes from a replay keeping
// that step's pairs alone, byte for byte that step of the whole file.
func TestTransfersCSVPastTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 200,000 keys over 800 nodes three times")
	}
	nodes := make([]timeline.NodeSpec, 800)
	for i := range nodes {
		nodes[i] = timeline.NodeSpec{Name: "n" + strconv.Itoa(i)}
	}
	var steps []timeline.Step
	for _, n := range []string{"w", "x", "y", "z"} {
		steps = append(steps, timeline.Step{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: n}}})
	}
	s := &sim.Scenario{Name: "budget", Title: "budget", Seed: 4, Keys: keys.KeySpec{Count: 200_000}, Nodes: nodes, Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "modulo"}}, Steps: steps}
	bounded, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	if data, ok, err := report.TransfersCSV(bounded); ok || data != nil || err != nil {
		t.Errorf("past the budget: transfers.csv written %v (%d bytes, %v)", ok, len(data), err)
	}
	if err := report.WriteTransfersCSV(io.Discard, bounded, 2); err == nil {
		t.Error("rendered step 2 from a replay that kept no pairs")
	}
	all, err := sim.ReplayWith(s, sim.Options{AllPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	one, err := sim.ReplayWith(s, sim.Options{AllPairs: true, AllPairsStep: 2})
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := report.WriteTransfersCSV(&a, all, 2); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteTransfersCSV(&b, one, 2); err != nil {
		t.Fatal(err)
	}
	if a.Len() < 1<<20 || !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("step 2: %d bytes from the replay keeping every step, %d from the one keeping step 2", a.Len(), b.Len())
	}
	if err := report.WriteTransfersCSV(io.Discard, one, 3); err == nil {
		t.Error("rendered step 3 from a replay that kept step 2's pairs alone")
	}
}
