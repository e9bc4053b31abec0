package sweep

import (
	"runtime"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"

	"math"
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/workers"

	"github.com/ringreport/ringreport/internal/sim"
)

// twelve is 12 nodes under a ring, with a thirteenth node joining.
func twelve(n int) *sim.Scenario {
	return &sim.Scenario{Name: "twelve", Title: "Twelve", Seed: 1, Keys: keys.KeySpec{Count: n}, Nodes: GeneratedNodes(12),
		Rules: []placer.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "modulo", Label: "modulo"}}, Replicas: 1,
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "node-13"}}}}}
}

// TestRingTheory checks that the measured ring cv agrees with
// √((n−1)/(n·v+1)) combined with key noise: over 20 seeds the mean of
// cv² must be within 45% of theory² + noise² at every v (20 layouts of
// 12 nodes leave a relative standard error of cv² of about 10%, and
// nine values make a 4σ miss at one of them unlikely), and the mean of
// the nine ratios within 12% of 1.
func TestRingTheory(t *testing.T) {
	values := []float64{1, 4, 16, 64, 128, 256, 512, 1024, 2048}
	st, err := Execute(twelve(20000), Plan{Param: VNodes, Values: values, Seeds: 20}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for i, v := range values {
		mean2 := 0.0
		for _, run := range st.Runs[i] {
			mean2 += run.Metrics[0][0].CV * run.Metrics[0][0].CV
		}
		mean2 /= float64(len(st.Runs[i]))
		want := WithNoise(RingCV(12, int(v)), NoiseCV(12, 20000))
		ratio := mean2 / (want * want)
		sum += ratio
		if ratio < 0.55 || ratio > 1.45 {
			t.Errorf("v=%v: mean cv² %.5f, theory² + noise² %.5f (ratio %.2f)", v, mean2, want*want, ratio)
		}
	}
	if avg := sum / float64(len(values)); math.Abs(avg-1) > 0.12 {
		t.Errorf("mean ratio of measured cv² to theory %.3f, want within 0.12 of 1", avg)
	}
	cs := st.Curves("cv")
	if len(cs) != 2 || cs[0].Rules[0] != "ring" || !cs[1].Noise {
		t.Fatalf("curves %+v, want the ring theory and the noise floor", cs)
	}
}

// TestParallelIsSequential checks that the result does not depend on
// the size of the worker pool.
func TestParallelIsSequential(t *testing.T) {
	defer workers.SetLimit(runtime.GOMAXPROCS(0))
	p := Plan{Param: Nodes, Values: []float64{4, 8, 11}, Seeds: 5}
	workers.SetLimit(1)
	one, err := Execute(twelve(3000), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	workers.SetLimit(8)
	many, err := Execute(twelve(3000), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Runs, many.Runs) || !reflect.DeepEqual(one.Starts, many.Starts) {
		t.Errorf("Execute with 1 and 8 jobs differ")
	}
}

func TestScenarioVariant(t *testing.T) {
	base := twelve(100)
	base.Rules = append(base.Rules, placer.RuleSpec{Kind: "bounded", Label: "bounded"}, placer.RuleSpec{Kind: "maglev", Label: "maglev"})
	base.Probes = []string{"k"}
	check := func(t *testing.T, p Plan, i, j int, want func(s *sim.Scenario) bool) {
		t.Helper()
		s := p.Scenario(base, i, j)
		if !want(s) {
			t.Errorf("variant %d, %d of %+v: %+v", i, j, p, s)
		}
	}
	t.Run("vnodes", func(t *testing.T) {
		check(t, Plan{Param: VNodes, Values: []float64{7, 9}}, 1, 0, func(s *sim.Scenario) bool {
			return s.Rules[0].VNodes == 9 && s.Rules[1].VNodes == 0 && s.Rules[2].VNodes == 9 && s.Probes == nil && s.Nodes[0].Name == "node-1"
		})
	})
	t.Run("nodes and seed", func(t *testing.T) {
		check(t, Plan{Param: Nodes, Values: []float64{3, 5}, Seeds: 4}, 0, 2, func(s *sim.Scenario) bool {
			return len(s.Nodes) == 3 && s.Nodes[2].Name == "node-3~2" && s.Steps[0].Nodes[0].Name == "node-13~2" && s.Seed == 3
		})
	})
	t.Run("m epsilon replicas", func(t *testing.T) {
		check(t, Plan{Param: M, Values: []float64{7, 11}}, 0, 0, func(s *sim.Scenario) bool { return s.Rules[3].M == 7 && s.Rules[0].M == 0 })
		check(t, Plan{Param: Epsilon, Values: []float64{0.1}}, 0, 0, func(s *sim.Scenario) bool { return s.Rules[2].Epsilon == 0.1 })
		check(t, Plan{Param: Replicas, Values: []float64{2, 3}}, 1, 0, func(s *sim.Scenario) bool { return s.Replicas == 3 })
	})
	if base.Steps[0].Nodes[0].Name != "node-13" || base.Rules[0].VNodes != 0 {
		t.Errorf("Scenario changed its base")
	}
}

func TestBand(t *testing.T) {
	b := bandOf([]float64{5, 1, 3, 2, 4})
	if b.Mean != 3 || b.Min != 1 || b.Max != 5 || math.Abs(b.P10-1.4) > 1e-12 || math.Abs(b.P90-4.6) > 1e-12 || b.N != 5 {
		t.Errorf("bandOf = %+v", b)
	}
	if b := bandOf([]float64{2}); b.P10 != 2 || b.P90 != 2 {
		t.Errorf("one seed: %+v", b)
	}
}

func TestTheoryFormulas(t *testing.T) {
	if got := RingCV(2, 1); math.Abs(got-math.Sqrt(1.0/3)) > 1e-15 {
		t.Errorf("RingCV(2, 1) = %v", got)
	}
	if got := NoiseCV(5, 400); got != 0.1 {
		t.Errorf("NoiseCV(5, 400) = %v", got)
	}
}

// TestAddCurves checks the moved-fraction theory of adding a node.
func TestAddCurves(t *testing.T) {
	st, err := Execute(twelve(2000), Plan{Param: Nodes, Values: []float64{4, 9}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := st.Curves("moved_fraction")
	if len(cs) != 2 || cs[0].Name != OptimumCurve || cs[0].Y[0] != 0.2 || cs[1].Name != ModuloCurve || cs[1].Y[1] != 0.9 {
		t.Errorf("curves %+v", cs)
	}
}

// TestExecuteFirstError: when variants cannot be replayed, Execute
// reports the first in variant order (value, then seed), whatever ran
// first.
func TestExecuteFirstError(t *testing.T) {
	base := twelve(500)
	base.Rules = append(base.Rules, placer.RuleSpec{Kind: "ketama", Label: "ketama"})
	base.Steps = []timeline.Step{{Op: timeline.OpRemove, Nodes: []timeline.NodeSpec{{Name: "node-4"}}}}
	for range 3 {
		_, err := Execute(base, Plan{Param: Nodes, Values: []float64{8, 3, 2}, Seeds: 3}, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "sweep value 2, seed 1: ") {
			t.Fatalf("err = %v, want the error of sweep value 2, seed 1", err)
		}
	}
}
