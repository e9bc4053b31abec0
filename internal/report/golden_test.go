package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/rogpeppe/go-internal/diff"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden renders every test scenario and compares each file with
// testdata/golden/<scenario>.<ext>.
func TestGolden(t *testing.T) {
	for _, s := range []*sim.Scenario{ringWalkthrough(), replicated()} {
		t.Run(s.Name, func(t *testing.T) {
			files, err := Files(replay(t, s), testFigures(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkTableShapes(t, toHTML(t, files[0].Data))
			for _, f := range files {
				ext := f.Name[strings.LastIndexByte(f.Name, '.'):]
				checkGolden(t, filepath.Join("testdata", "golden", s.Name+ext), f.Data)
			}
		})
	}
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update to accept):\n%s", path, diff.Diff(path, want, "got", got))
	}
}
