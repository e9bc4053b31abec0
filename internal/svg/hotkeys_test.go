package svg

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
	"github.com/ringreport/ringreport/internal/scenario"
)

// TestGoldenHotKeys draws the whole-run figures of the hot-keys example
// (Zipf-weighted keys, 14 memcached servers under ketama, ring and
// rendezvous) and compares them with testdata/golden/hot-keys/.
func TestGoldenHotKeys(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "hot-keys.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse("hot-keys.yaml", src, scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range replay(t, s) {
		if f.Step >= 0 {
			continue
		}
		checkFigure(t, f)
		golden.Check(t, filepath.Join("testdata", "golden", "hot-keys", f.Name), f.File(Light))
	}
}
