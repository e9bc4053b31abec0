package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// exampleScenario parses scenarios/<name>.yaml, the example a user sees.
func exampleScenario(t *testing.T, name string) *sim.Scenario {
	t.Helper()
	file := filepath.Join("..", "..", "scenarios", name+".yaml")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(name+".yaml", src, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestGoldenHotKeys renders the hot-keys example (Zipf-weighted keys) and
// compares report.md, data.json and steps.csv with
// testdata/golden/hot-keys.*: request loads, hot keys and transfers.
func TestGoldenHotKeys(t *testing.T) {
	res := replay(t, exampleScenario(t, "hot-keys"))
	files, err := Files(res, testFigures(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	golden.Tables(t, toHTML(t, files[0].Data))
	for _, f := range files {
		ext := f.Name[strings.LastIndexByte(f.Name, '.'):]
		golden.Check(t, filepath.Join("testdata", "golden", "hot-keys"+ext), f.Data)
	}
	// The about text quotes these numbers; keep it honest.
	ketama := res.Rules[0].Steps
	mc12, mc13 := nodeID(t, res, "mc-12"), nodeID(t, res, "mc-13")
	hot := res.Keys.Hot[0]
	got := []int64{res.Keys.Requests, int64(res.Keys.Weight[hot]), ketama[0].Requests[mc12], int64(ketama[0].Loads[mc12]),
		ketama[1].MovedRequests, int64(ketama[1].Moved)}
	want := []int64{1_004_524, 134_731, 183_353, 8_385, 302_839, 14_213}
	for j := range want {
		if got[j] != want[j] {
			t.Errorf("figure %d quoted in about: %d, replay %d", j, want[j], got[j])
		}
	}
	if ketama[1].HotOwners[0] != mc13 || res.Keys.Name(hot) != "item:3611792566" {
		t.Errorf("the hot item is %s, owned by %d after step 1", res.Keys.Name(hot), ketama[1].HotOwners[0])
	}
}

func nodeID(t *testing.T, res *sim.Result, name string) timeline.NodeID {
	t.Helper()
	for id, n := range res.Timeline.Nodes {
		if n == name {
			return timeline.NodeID(id)
		}
	}
	t.Fatalf("no node %s", name)
	return 0
}
