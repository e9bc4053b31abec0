package lab

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestCached checks that a build runs once per set of inputs, that other
// inputs get another folder, and that a failed build is never kept.
func TestCached(t *testing.T) {
	t.Setenv("RINGREPORT_LAB_CACHE", t.TempDir())
	rootOnce, rootDir = sync.Once{}, "" // the root is read once per binary: read it again here
	tool := os.Args[0]
	builds := 0
	build := func(content string) func(dir string) error {
		return func(dir string) error {
			builds++
			return os.WriteFile(filepath.Join(dir, "out"), []byte(content), 0o644)
		}
	}
	get := func(parts ...string) string {
		t.Helper()
		dir, err := Cached(t, tool, parts, "out", build(parts[0]))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, "out"))
		if err != nil || string(b) != parts[0] {
			t.Fatalf("%s/out holds %q (%v), want %q", dir, b, err, parts[0])
		}
		return dir
	}
	a := get("a")
	if again := get("a"); again != a || builds != 1 {
		t.Errorf("same inputs: folder %s then %s, %d builds; want one folder, one build", a, again, builds)
	}
	if b := get("b"); b == a || builds != 2 {
		t.Errorf("other inputs: folder %s (a's is %s), %d builds; want a new folder and a second build", b, a, builds)
	}
	broken := errors.New("compiler failed")
	for range 2 {
		_, err := Cached(t, tool, []string{"c"}, "out", func(dir string) error {
			builds++
			os.WriteFile(filepath.Join(dir, "out"), nil, 0o644)
			return broken
		})
		if !errors.Is(err, broken) {
			t.Fatalf("failed build: error %v, want %v", err, broken)
		}
	}
	if builds != 4 {
		t.Errorf("a failed build was kept: %d builds, want 4 (it is tried again)", builds)
	}
}
