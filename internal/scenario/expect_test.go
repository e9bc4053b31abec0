package scenario

import (
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
)

func TestParseExpect(t *testing.T) {
	src := `title: t
keys: 10
nodes: [a, b]
steps:
  - add: c
  - remove: c
expect:
  - {step: 1, rule: ring, moved_fraction: "<= 0.2"}
  - {rule: modulo, peak_to_mean: "< 1.05"}
  - {step: 2, recurs: 0}
  - {recurs: "!= none"}
  - {total_moved: 12}
`
	s, err := Parse("e.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []sim.Expectation{
		{Step: 1, Rule: "ring", Metric: "moved_fraction", Op: "<=", Value: 0.2, Text: "<= 0.2", Where: "e.yaml:8:5"},
		{Step: -1, Rule: "modulo", Metric: "peak_to_mean", Op: "<", Value: 1.05, Text: "< 1.05", Where: "e.yaml:9:5"},
		{Step: 2, Metric: "recurs", Op: "==", Value: 0, Text: "0", Where: "e.yaml:10:5"},
		{Step: -1, Metric: "recurs", Op: "!=", Value: -1, Text: "!= none", Where: "e.yaml:11:5"},
		{Step: -1, Metric: "total_moved", Op: "==", Value: 12, Text: "12", Where: "e.yaml:12:5"},
	}
	if !reflect.DeepEqual(s.Expect, want) {
		t.Errorf("Expect =\n%+v\nwant\n%+v", s.Expect, want)
	}
}
