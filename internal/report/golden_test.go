package report

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"

	"github.com/ringreport/ringreport/internal/sim"
)

// TestGolden renders every test scenario and compares each file with
// testdata/golden/<scenario>.<ext>.
func TestGolden(t *testing.T) {
	for _, s := range []*sim.Scenario{ringWalkthrough(), replicated()} {
		t.Run(s.Name, func(t *testing.T) {
			files, err := Files(replay(t, s), testFigures(), Options{})
			if err != nil {
				t.Fatal(err)
			}
			golden.Tables(t, toHTML(t, files[0].Data))
			for _, f := range files {
				ext := f.Name[strings.LastIndexByte(f.Name, '.'):]
				golden.Check(t, filepath.Join("testdata", "golden", s.Name+ext), f.Data)
			}
		})
	}
}
