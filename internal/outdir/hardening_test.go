package outdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddStaysInside plants a symlink that leads out of the directory
// being filled, as a racing process could, and checks that writes through
// it are refused by the os.Root rather than landing outside.
func TestAddStaysInside(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "tmp")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{dir, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../outside", filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../outside/b.txt", filepath.Join(dir, "b.txt")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := &Writer{dir: filepath.Join(base, "out"), tmp: dir, root: root}
	defer w.root.Close()
	for _, f := range []File{{Path: "a/x.txt", Data: []byte("x")}, {Path: "b.txt", Data: []byte("b")}} {
		if err := w.Add(f); err == nil {
			t.Errorf("Add wrote %s through a symlink out of the directory", f.Path)
		}
	}
	entries, _ := os.ReadDir(outside)
	if len(entries) != 0 {
		t.Errorf("files were written outside the output directory: %v", entries)
	}
}

// TestWriteRefusesWorkingDir checks that -o . or an ancestor of the
// working directory is refused even with force, and nothing is touched.
func TestWriteRefusesWorkingDir(t *testing.T) {
	base := t.TempDir()
	wd := filepath.Join(base, "project")
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(wd, "keep.txt"), []byte("k"), 0o644)
	t.Chdir(wd)
	for _, dir := range []string{".", "..", base, wd, "/"} {
		err := Write(dir, files("a.txt", "1"), true)
		if err == nil || !strings.Contains(err.Error(), "holds the current directory") {
			t.Errorf("Write(%q, force) = %v, want a refusal", dir, err)
		}
	}
	if got := read(t, filepath.Join(wd, "keep.txt")); got != "k" {
		t.Errorf("keep.txt = %q", got)
	}
	if err := Write("out", files("a.txt", "1"), false); err != nil {
		t.Errorf("Write(out): %v", err)
	}
}
