package build

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRenderStepIsBuildFile renders step figures with One, which replays
// only the states up to the step asked for, and requires each to be the
// build's own file byte for byte: step 0's and a middle step's figure of
// each kind of every example scenario, against out/, which `ringreport
// check` holds to what the examples build (it is their golden).
func TestRenderStepIsBuildFile(t *testing.T) {
	ins := exampleInputs(t)
	built, err := filepath.Glob("../../out/*/step-*-*.svg")
	if err != nil || len(built) == 0 {
		t.Fatalf("no step figures in out/: %v", err)
	}
	name := regexp.MustCompile(`^([^/]+)/step-([0-9]+)-(rings|strips)\.svg$`)
	type want struct {
		path string
		step int
	}
	byKind := map[string][]want{} // "scenario/kind" → its step figures, in file order
	var order []string
	for _, f := range built {
		rel, _ := filepath.Rel("../../out", f)
		m := name.FindStringSubmatch(filepath.ToSlash(rel))
		if m == nil {
			continue
		}
		step, _ := strconv.Atoi(m[2])
		k := m[1] + "/" + m[3]
		if byKind[k] == nil {
			order = append(order, k)
		}
		byKind[k] = append(byKind[k], want{f, step})
	}
	if len(order) < 2*len(ins)-2 {
		t.Fatalf("only %d kinds of step figure in %d scenarios", len(order), len(ins))
	}
	in := map[string]Input{}
	for _, i := range ins {
		in[strings.TrimSuffix(filepath.Base(i.Path), ".yaml")] = i
	}
	for _, k := range order {
		ws := byKind[k]
		scen, kind := path.Split(k)
		picks := []want{ws[len(ws)/2]}
		if ws[0].step == 0 {
			picks = append(picks, ws[0])
		}
		for _, w := range picks {
			target, _ := TargetOf(kind)
			var buf bytes.Buffer
			if err := One(in[path.Clean(scen)], Request{Target: target, Step: w.step}, &buf); err != nil {
				t.Errorf("render %s -step %d: %v", kind, w.step, err)
				continue
			}
			file, err := os.ReadFile(w.path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), file) {
				t.Errorf("render %s -step %d of %s differs from %s (if the build changed, rebuild out/ with go run ./cmd/ringreport)", kind, w.step, scen, w.path)
			}
		}
	}
}
