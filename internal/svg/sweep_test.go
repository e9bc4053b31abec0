package svg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
)

// sweepStudy is a small points-per-node sweep: 8 nodes, 4,000 keys, a
// ring beside modulo, adding a ninth node, over 5 seeds.
func sweepStudy(t testing.TB, seeds int) *sweep.Result {
	t.Helper()
	base := &sim.Scenario{
		Name: "sweep", Title: "Points per node", Seed: 1, Keys: keys.KeySpec{Count: 4000},
		Nodes: sweep.GeneratedNodes(8), Replicas: 1,
		Rules: []placer.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "modulo", Label: "modulo"}},
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: nodes("node-9")}},
	}
	st, err := sweep.Execute(base, sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 4, 16, 64, 256}, Seeds: seeds}, sweep.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSweepGolden(t *testing.T) {
	figs := SweepFigures(sweepStudy(t, 5))
	if len(figs) != 3 {
		t.Fatalf("%d sweep figures, want 3", len(figs))
	}
	for _, f := range figs {
		checkFigure(t, f)
		golden.Check(t, filepath.Join("testdata", "golden", "sweep", f.Name), f.File(Light))
		if *dump != "" {
			if err := os.WriteFile(filepath.Join(*dump, f.Name), f.File(Light), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestSweepFiguresNone(t *testing.T) {
	if figs := SweepFigures(nil); figs != nil {
		t.Errorf("SweepFigures(nil) = %d figures", len(figs))
	}
}

// TestSweepMovedNamesTheOptimum: the 1/(n+1) curve of the moved chart is
// the classic optimum of adding a node, and says so in its legend, its
// end label and the caption; nothing calls it ideal (the `ideal` metric
// is another quantity) or the fewest moves any rule must make.
func TestSweepMovedNamesTheOptimum(t *testing.T) {
	var moved string
	for _, f := range SweepFigures(sweepStudy(t, 2)) {
		if f.Name == "sweep-moved.svg" {
			moved = string(f.File(Light))
		}
	}
	for _, want := range []string{">optimum 1/(n+1)</text>", ">optimum</text>", "marked optimum is 1/(n+1), the classic optimum of adding a node", "It is not a floor"} {
		if !strings.Contains(moved, want) {
			t.Errorf("the moved chart lacks %q", want)
		}
	}
	for _, bad := range []string{"ideal", "fewest keys any rule"} {
		if strings.Contains(moved, bad) {
			t.Errorf("the moved chart still says %q", bad)
		}
	}
}
