package outdir

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
)

func files(kv ...string) []File {
	var out []File
	for i := 0; i < len(kv); i += 2 {
		out = append(out, File{Path: kv[i], Data: []byte(kv[i+1])})
	}
	return out
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteReplacesWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, files("a/x.txt", "1", "b.txt", "2"), false); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, files("a/y.txt", "3"), false); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "a/y.txt")); got != "3" {
		t.Errorf("a/y.txt = %q", got)
	}
	for _, gone := range []string{"a/x.txt", "b.txt"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); err == nil {
			t.Errorf("%s survived a rebuild", gone)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("leftovers beside out/: %v", entries)
	}
}

func TestWriteRefusesForeignDir(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644)
	err := Write(dir, files("a.txt", "1"), false)
	if err == nil || !strings.Contains(err.Error(), "was not written by ringreport") {
		t.Fatalf("Write into a foreign dir: %v", err)
	}
	if got := read(t, filepath.Join(dir, "mine.txt")); got != "x" {
		t.Error("foreign file changed")
	}
	if err := Write(dir, files("a.txt", "1"), true); err != nil {
		t.Fatalf("forced Write: %v", err)
	}
}

func TestWriteRejectsEscapingPaths(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	for _, p := range []string{"../evil.txt", "/abs.txt", "a/../../evil.txt", `a\b.txt`, ""} {
		if err := Write(dir, files(p, "x"), false); err == nil {
			t.Errorf("Write accepted path %q", p)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "evil.txt")); err == nil {
		t.Error("a file was written outside the output directory")
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a failed Write created the output directory")
	}
}

func TestWriteCleansLeftovers(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	for _, n := range []string{".out.tmp-123", ".out.tmp-9.old", ".out.old-1"} {
		os.MkdirAll(filepath.Join(base, n, "x"), 0o755)
	}
	if err := Write(dir, files("a.txt", "1"), false); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 1 || entries[0].Name() != "out" {
		t.Errorf("after Write the parent holds %v, want only out", entries)
	}
}

func TestDiff(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, files("a.txt", "1", "b/c.txt", "2", "d.txt", "3"), false); err != nil {
		t.Fatal(err)
	}
	got, err := Diff(dir, files("a.txt", "1", "b/c.txt", "changed", "e.txt", "new"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"changed: b/c.txt", "extra: d.txt", "missing: e.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	missing, err := Diff(filepath.Join(dir, "nosuch"), files("a.txt", "1"))
	if err != nil || !slices.Equal(missing, []string{"missing: a.txt"}) {
		t.Errorf("Diff of a missing dir = %q, %v", missing, err)
	}
}

// TestWriterAbort: a Writer that is aborted, or that fails midway,
// leaves the directory as it was and no temporary sibling behind.
func TestWriterAbort(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	if err := Write(dir, files("a.txt", "old"), false); err != nil {
		t.Fatal(err)
	}
	w, err := Create(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(File{Path: "a.txt", Data: []byte("new")}); err != nil {
		t.Fatal(err)
	}
	if err := w.Add(File{Path: "../escape.txt", Data: []byte("x")}); err == nil {
		t.Error("Add accepted a path out of the directory")
	}
	w.Abort()
	if got := read(t, filepath.Join(dir, "a.txt")); got != "old" {
		t.Errorf("after Abort a.txt = %q, want the old contents", got)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 1 {
		t.Errorf("Abort left %d entries beside out/, want none", len(entries)-1)
	}
}

// The -update flag exists in every test binary so that
// `go test ./... -update` works; outdir has no golden files of its own.
var _ = golden.Update
