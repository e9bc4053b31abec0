package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/text"
)

// TestJSONMatchesReference requires the streaming encoder to write what
// the reflection-based reference (json_ref_test.go) writes, byte for
// byte, over scenarios that between them use every member of data.json:
// weights, replicas, probes, hostile names, request counts and hot keys,
// expectations, compared rules, more transfer pairs than data.json keeps,
// and sweeps over integer and epsilon values and seeds alone.
func TestJSONMatchesReference(t *testing.T) {
	migrating := studyScenario("migrating")
	migrating.Keys = keys.KeySpec{Count: 2000, Zipf: 1.1, Requests: 50000}
	migrating.Migrations = []sim.Migration{{From: "ring", To: "modulo"}}
	bounded := studyScenario("bounded")
	bounded.Rules = []placer.RuleSpec{{Kind: "bounded", Label: "b"}, {Kind: "multiprobe", Label: "mp"}, {Kind: "maglev", Label: "mg"}}
	cases := []struct {
		s    *sim.Scenario
		plan sweep.Plan
	}{
		{ringWalkthrough(), sweep.Plan{}},
		{replicated(), sweep.Plan{}},
		{hostile(), sweep.Plan{}},
		{exampleScenario(t, "hot-keys"), sweep.Plan{}},
		{migrating, sweep.Plan{}},
		{scaleModulo(3000, 15, 6), sweep.Plan{}},
		{studyScenario("sweep"), sweep.Plan{Param: sweep.VNodes, Values: []float64{1, 8, 64}, Seeds: 3}},
		{studyScenario("seeds"), sweep.Plan{Seeds: 2}},
		{bounded, sweep.Plan{Param: sweep.Epsilon, Values: []float64{0.1, 0.25}, Seeds: 2}},
	}
	for _, c := range cases {
		t.Run(c.s.Name, func(t *testing.T) {
			var st *sweep.Result
			if c.plan.Active() {
				var err error
				if st, err = sweep.Execute(c.s, c.plan, sweep.Options{}); err != nil {
					t.Fatal(err)
				}
			}
			res := replay(t, c.s)
			want, err := refJSON(res, st)
			if err != nil {
				t.Fatal(err)
			}
			got, err := JSONStudy(res, st)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("data.json differs from the reference encoder's at byte %d:\n got: %s\nwant: %s",
					firstDiff(got, want), around(got, firstDiff(got, want)), around(want, firstDiff(got, want)))
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(b []byte, i int) string {
	return string(b[max(0, i-120):min(len(b), i+120)])
}

// TestJSONString checks the string escaping against encoding/json.
func TestJSONString(t *testing.T) {
	var all strings.Builder
	for b := range 256 {
		all.WriteByte(byte(b))
	}
	for _, s := range []string{"", "plain", `"quoted" \back\slash`, "<b>&amp;</b>", "tab\tline\nret\r\b\f\x00\x1f\x7f",
		"nœud → ✓", "\u2028\u2029", "bad \xff\xfe utf-8 \xe2\x82", "emoji 🙂", all.String()} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("appendJSONString(%q) = %s, want %s", s, got, want.String())
		}
	}
}

// TestAppendFixed checks the float format against text.Fixed.
func TestAppendFixed(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), -1e-9, -0.0000004, -0.0000005, 0.0666666666, 1, -2.5, 1e20, 123456.7654321} {
		if got, want := string(appendFixed(nil, x)), text.Fixed(FloatDecimals, x); got != want {
			t.Errorf("appendFixed(%g) = %s, want %s", x, got, want)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(appendFixed(nil, x)); got != "null" {
			t.Errorf("appendFixed(%g) = %s, want null", x, got)
		}
	}
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return 0, errors.New("disk full")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteJSONErrors: a write error is returned, and a result that
// cannot be reported writes nothing.
func TestWriteJSONErrors(t *testing.T) {
	res := replay(t, scaleModulo(3000, 15, 6))
	if err := WriteJSON(&failingWriter{n: 1000}, res, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("WriteJSON to a failing writer: %v, want disk full", err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, &sim.Result{}, nil); err == nil || buf.Len() != 0 {
		t.Errorf("WriteJSON of an empty result: %v and %d bytes, want an error and nothing", err, buf.Len())
	}
}
