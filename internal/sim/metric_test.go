package sim

import "testing"

func TestMetricMatchesResult(t *testing.T) {
	res := mustReplay(t, walkthrough(add("f"), fail("b"), recover_("b")))
	sr := res.Rules[0].Steps[3]
	b := res.Balance(0, 3)
	for name, want := range map[string]float64{
		"moved": float64(sr.Moved), "moved_fraction": float64(sr.Moved) / 900, "collateral": 0,
		"recurs": 1, "total_moved": float64(sr.TotalMoved), "worst_deviation": b.WorstDeviation, "cv": b.CV,
	} {
		if got, ok := res.Metric(name, 0, 3); !ok || got != want {
			t.Errorf("Metric(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	for _, name := range MetricNames {
		if _, ok := res.Metric(name, 1, 1); !ok && !RequestMetric(name) {
			t.Errorf("Metric(%q) unknown, but listed in MetricNames", name)
		}
	}
	if _, ok := res.Metric("nosuch", 0, 0); ok {
		t.Error("an unknown metric was accepted")
	}
}

func TestExpectationHolds(t *testing.T) {
	for _, tc := range []struct {
		op   string
		v    float64
		want bool
	}{
		{"<", 0.2, false}, {"<=", 0.2, true}, {">", 0.3, true}, {">=", 0.1, false}, {"==", 0.2, true}, {"!=", 0.2, false},
	} {
		e := Expectation{Op: tc.op, Value: 0.2}
		if got := e.Holds(tc.v); got != tc.want {
			t.Errorf("%v %s 0.2 = %v, want %v", tc.v, tc.op, got, tc.want)
		}
	}
}

func TestCheck(t *testing.T) {
	s := walkthrough(add("f"), fail("b"), recover_("b"))
	s.Expect = []Expectation{
		{Step: 1, Rule: "ring", Metric: "collateral", Op: "==", Value: 0},
		{Step: -1, Rule: "modulo", Metric: "moved_fraction", Op: "<=", Value: 0.5},
		{Step: 3, Metric: "recurs", Op: "==", Value: 1},
		{Step: -1, Rule: "ring", Metric: "moved", Op: "<", Value: 1000},
	}
	res := mustReplay(t, s)
	got := res.Check()
	type verdict struct {
		checked, failed, step int
		rule                  string
	}
	want := []verdict{{1, 0, 1, "ring"}, {4, 3, 1, "modulo"}, {2, 0, 3, "ring"}, {4, 0, 1, "ring"}} // the closest call: step 1 moved 167
	for i, w := range want {
		o := got[i]
		if v := (verdict{o.Checked, o.Failed, o.Step, o.Rule}); v != w {
			t.Errorf("expectation %d: %+v, want %+v", i, v, w)
		}
	}
	if m := res.Rules[1].Steps[1].Moved; got[1].Value != float64(m)/900 {
		t.Errorf("first failure value %v, want modulo's step-1 moved fraction %v", got[1].Value, float64(m)/900)
	}
}
