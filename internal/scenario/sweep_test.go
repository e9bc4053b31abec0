package scenario

import (
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/sweep"
)

func TestParseStudy(t *testing.T) {
	const head = "title: T\nkeys: 100\nnodes: 4\nrules: [ring, maglev, bounded]\n"
	tests := []struct {
		name, yaml string
		want       sweep.Plan
	}{
		{"none", "", sweep.Plan{}},
		{"vnodes and seeds", "sweep: {vnodes: [1, 2, 4]}\nseeds: 20\n", sweep.Plan{Param: "vnodes", Values: []float64{1, 2, 4}, Seeds: 20}},
		{"nodes", "sweep: {nodes: [2, 8]}\n", sweep.Plan{Param: "nodes", Values: []float64{2, 8}}},
		{"m", "sweep: {m: [7, 65537]}\n", sweep.Plan{Param: "m", Values: []float64{7, 65537}}},
		{"epsilon", "sweep: {epsilon: [0.05, 0.5]}\n", sweep.Plan{Param: "epsilon", Values: []float64{0.05, 0.5}}},
		{"replicas", "sweep: {replicas: [1, 3]}\n", sweep.Plan{Param: "replicas", Values: []float64{1, 3}}},
		{"seeds only", "seeds: 3\n", sweep.Plan{Seeds: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, plan, err := ParseStudy("t.yaml", []byte(head+tt.yaml), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(plan, tt.want) {
				t.Errorf("plan %+v, want %+v", plan, tt.want)
			}
			if _, err := Parse("t.yaml", []byte(head+tt.yaml), Options{}); err != nil || s == nil {
				t.Errorf("Parse: %v", err)
			}
		})
	}
}
