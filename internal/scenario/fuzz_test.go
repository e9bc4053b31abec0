package scenario

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/sim"
)

// FuzzParse checks that Parse never panics, that it is deterministic, and
// that a failure is a non-empty ErrorList sorted by position; and, when
// the input parses within small limits, that replaying it twice gives
// the same data.json bytes.
func FuzzParse(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{"../../scenarios/*.yaml", "testdata/valid/*.yaml", "testdata/bad/*.yaml"} {
		files, _ := filepath.Glob(pattern)
		seeds = append(seeds, files...)
	}
	for _, file := range seeds {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(fullSrc))
	opts := Options{ReadFile: func(rel string) ([]byte, error) {
		if rel == "keys.txt" {
			return []byte("a\nb\r\n\nc\n"), nil
		}
		return nil, errors.New("no such file")
	}}
	f.Fuzz(func(t *testing.T, src []byte) {
		s1, err1 := Parse("fuzz.yaml", src, opts)
		s2, err2 := Parse("fuzz.yaml", src, opts)
		if !reflect.DeepEqual(s1, s2) || !reflect.DeepEqual(err1, err2) {
			t.Fatalf("Parse is not deterministic")
		}
		if err1 == nil {
			if s1 == nil || s1.Title == "" || len(s1.Nodes) == 0 || len(s1.Rules) == 0 {
				t.Fatalf("Parse succeeded with an invalid scenario %+v", s1)
			}
			replayTwice(t, src, opts)
			return
		}
		checkErrorList(t, err1)
	})
}

// fuzzLimits keep the scenarios that FuzzParse replays small.
var fuzzLimits = Limits{Keys: 2000, Nodes: 64, Points: 2000, Steps: 30, Work: 5_000_000, Memory: 512 << 20}

// replayTwice parses src within fuzzLimits and, when it parses, replays
// it twice from separate parses and compares data.json byte for byte.
func replayTwice(t *testing.T, src []byte, opts Options) {
	opts.Limits = fuzzLimits
	var out [2][]byte
	for i := range out {
		s, err := Parse("fuzz.yaml", src, opts)
		if err != nil {
			return // over the fuzzing limits
		}
		res, err := sim.Replay(s)
		if err != nil {
			t.Fatalf("Replay of a parsed scenario: %v", err)
		}
		if out[i], err = report.JSON(res); err != nil {
			t.Fatalf("report.JSON: %v", err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Fatalf("two replays of the same scenario give different data.json")
	}
}

func checkErrorList(t *testing.T, err error) {
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("Parse error %T %v is not a non-empty ErrorList", err, err)
	}
	for i, e := range list {
		if e.Msg == "" || e.File != "fuzz.yaml" || e.Line < 0 || e.Col < 0 {
			t.Errorf("bad error %+v", e)
		}
		if i > 0 && (e.Line < list[i-1].Line || e.Line == list[i-1].Line && e.Col < list[i-1].Col) {
			t.Errorf("errors not sorted: %v before %v", list[i-1], e)
		}
	}
}
