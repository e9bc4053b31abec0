package build

import (
	"bytes"
	"testing"
)

// TestSweepJobs builds a scenario with a sweep and seeds with one job and
// with eight, and checks that every file is the same byte for byte.
func TestSweepJobs(t *testing.T) {
	src := []byte(`title: Sweep
keys: 2000
nodes: 6
rules: [ring, jump]
steps:
  - add: node-7
  - remove: random
sweep: {vnodes: [1, 4, 16, 64]}
seeds: 6
`)
	in := []Input{{Path: "sweep.yaml", Src: src}, {Path: "seeds.yaml", Src: bytes.Replace(src, []byte("sweep: {vnodes: [1, 4, 16, 64]}\n"), nil, 1)}}
	one, err := Build(in, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := Build(in, Options{Jobs: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != len(many) {
		t.Fatalf("%d files with one job, %d with eight", len(one), len(many))
	}
	found := false
	for i := range one {
		if one[i].Path != many[i].Path || !bytes.Equal(one[i].Data, many[i].Data) {
			t.Errorf("%s differs between one job and eight", one[i].Path)
		}
		found = found || one[i].Path == "sweep/sweep-cv.svg"
	}
	if !found {
		t.Errorf("no sweep/sweep-cv.svg")
	}
}
