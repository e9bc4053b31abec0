package outdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// within5s fails the test when f does not return within five seconds:
// a read of a FIFO or of /dev/zero would never return.
func within5s(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not finish in 5 s", what)
	}
}

// TestDiffSpecialFiles puts a FIFO, a symlink to /dev/zero, a symlink to
// a folder outside, a socket-free directory and an oversized file where
// a build writes files: each is a difference, found without reading it.
func TestDiffSpecialFiles(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	if err := Write(dir, files("fifo.html", "x", "zero.svg", "x", "big.json", "x", "sub/a.txt", "x", "same.txt", "x"), false); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"fifo.html", "zero.svg", "big.json", "sub/a.txt"} {
		os.Remove(filepath.Join(dir, n))
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.html"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.svg")); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "sub"), 0); err == nil {
		t.Fatal("truncated a directory")
	}
	os.Remove(filepath.Join(dir, "sub"))
	outside := filepath.Join(base, "outside")
	os.Mkdir(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "a.txt"), []byte("x"), 0o644)
	if err := os.Symlink("../outside", filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "big.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(64 << 20); err != nil { // sparse: 64 MiB of zeros
		t.Fatal(err)
	}
	big.Close()
	var got []string
	var before, after runtime.MemStats
	within5s(t, "Diff", func() {
		runtime.ReadMemStats(&before)
		got, err = Diff(dir, files("fifo.html", "x", "zero.svg", "x", "big.json", "x", "sub/a.txt", "x", "same.txt", "x"))
		runtime.ReadMemStats(&after)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"changed: big.json",
		"changed: fifo.html (a FIFO, not a regular file)",
		"changed: zero.svg (a symlink, not a regular file)",
		"extra: sub (a symlink)",
		"missing: sub/a.txt",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Diff =\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Diff allocated %d bytes: it read a file it should have told apart by its size", n)
	}
}

// TestDiffReadsExpectedSizePlusOne: a file listed at the expected size
// is read no further than one byte past it, even when it has grown since
// it was listed.
func TestDiffReadsExpectedSizePlusOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if err := Write(dir, files("a.txt", "abc", "b.txt", "abc"), false); err != nil {
		t.Fatal(err)
	}
	d := NewDiffer(dir)
	if err := d.Add(File{Path: "b.txt", Data: []byte("abd")}); err != nil {
		t.Fatal(err)
	}
	fi := d.entries["a.txt"]
	if err := os.Truncate(filepath.Join(dir, "a.txt"), 64<<20); err != nil { // grows after the listing
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	same, err := d.same(File{Path: "a.txt", Data: []byte("abc")}, fi)
	runtime.ReadMemStats(&after)
	if err != nil || same {
		t.Errorf("same = %v, %v; want false", same, err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("comparing 3 bytes allocated %d bytes", n)
	}
	got, err := d.Result()
	if err != nil || !slices.Equal(got, []string{"changed: b.txt", "extra: a.txt"}) {
		t.Errorf("Result = %q, %v", got, err)
	}
}

// TestDiffOutNotADirectory: check of an -o that is a symlink or a file
// is an error, as build refuses to replace it.
func TestDiffOutNotADirectory(t *testing.T) {
	base := t.TempDir()
	os.Mkdir(filepath.Join(base, "real"), 0o755)
	os.Symlink("real", filepath.Join(base, "link"))
	os.WriteFile(filepath.Join(base, "file"), nil, 0o644)
	for _, n := range []string{"link", "file"} {
		_, err := Diff(filepath.Join(base, n), files("a.txt", "x"))
		if err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Errorf("Diff(%s) = %v, want not a directory", n, err)
		}
	}
}

// TestConcurrentCreate: while one Writer is open, a second Create of the
// same directory is refused, and the first one's temporary folder is not
// touched; once the first commits, the directory can be written again.
func TestConcurrentCreate(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	w, err := Create(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add(File{Path: "a.txt", Data: []byte("1")}); err != nil {
		t.Fatal(err)
	}
	_, err = Create(dir, false)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "another ringreport build is writing it") {
		t.Fatalf("second Create = %v, want ErrLocked", err)
	}
	if _, err := os.Stat(filepath.Join(w.Temp(), "a.txt")); err != nil {
		t.Fatalf("the live build's temporary folder was touched: %v", err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dir, "a.txt")); got != "1" {
		t.Errorf("a.txt = %q", got)
	}
	if err := Write(dir, files("b.txt", "2"), false); err != nil {
		t.Fatalf("Write after the first build ended: %v", err)
	}
	entries, _ := os.ReadDir(base)
	if len(entries) != 1 {
		t.Errorf("beside out/: %v, want nothing (no lock file, no temporary folder)", entries)
	}
}

// TestLeftoversOnlyOurs: a dead build's temporary folders and its stale
// lock file are removed; folders whose names ringreport does not make are
// kept, even when they start like its own.
func TestLeftoversOnlyOurs(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "out")
	for _, n := range []string{".out.tmp-123", ".out.tmp-9.old", ".out.tmp-keep", ".out.tmp-1.tmp-2", ".out.tmp-", ".out.lockdir"} {
		os.MkdirAll(filepath.Join(base, n, "x"), 0o755)
	}
	os.WriteFile(filepath.Join(base, ".out.lock"), []byte("999999999\n"), 0o644) // left by a killed build
	if err := Write(dir, files("a.txt", "1"), false); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{".out.lockdir", ".out.tmp-", ".out.tmp-1.tmp-2", ".out.tmp-keep", "out"}
	if !slices.Equal(names, want) {
		t.Errorf("after Write the parent holds %q, want %q", names, want)
	}
}

// TestOutputMode: the output directory gets 0777 less the umask, as
// mkdir would make it (not os.MkdirTemp's 0700).
func TestOutputMode(t *testing.T) {
	for _, umask := range []int{0o022, 0o027} {
		old := unix.Umask(umask)
		dir := filepath.Join(t.TempDir(), "out")
		err := Write(dir, files("a/b.txt", "1"), false)
		unix.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{dir, filepath.Join(dir, "a")} {
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := fs.FileMode(0o755 &^ umask); fi.Mode().Perm() != want {
				t.Errorf("umask %03o: %s has mode %v, want %v", umask, p, fi.Mode().Perm(), want)
			}
		}
	}
}

// TestForceReplacesOnlyADirectory: even with force, an -o that is a
// regular file, a device, a FIFO or a symlink is refused and left as it
// was.
func TestForceReplacesOnlyADirectory(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	os.WriteFile(file, []byte("keep"), 0o644)
	fifo := filepath.Join(base, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	link := filepath.Join(base, "link")
	os.Mkdir(filepath.Join(base, "real"), 0o755)
	os.WriteFile(filepath.Join(base, "real", "keep.txt"), []byte("keep"), 0o644)
	os.Symlink("real", link)
	cases := map[string]string{file: "a regular file", fifo: "a FIFO", link: "a symlink"}
	dev := filepath.Join(base, "null")
	if err := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err == nil {
		cases[dev] = "a device"
	} else {
		t.Logf("no device node (%v): the device case is not run", err)
	}
	for p, what := range cases {
		before, _ := os.Lstat(p)
		err := Write(p, files("a.txt", "1"), true)
		if err == nil || !strings.Contains(err.Error(), "it is "+what+", not a directory") {
			t.Errorf("Write(%s, force) = %v, want a refusal naming %s", filepath.Base(p), err, what)
		}
		after, err := os.Lstat(p)
		if err != nil || !os.SameFile(before, after) || after.Mode() != before.Mode() {
			t.Errorf("%s was replaced", filepath.Base(p))
		}
	}
	if got := read(t, file); got != "keep" {
		t.Errorf("file = %q", got)
	}
	if got := read(t, filepath.Join(base, "real", "keep.txt")); got != "keep" {
		t.Errorf("the symlink's target changed: %q", got)
	}
}

// TestForceSparesInputs: even with force, -o may not be a scenarios
// folder being built, the folder of a scenario file, or an ancestor of
// either, however the paths are spelled (through symlinks).
func TestForceSparesInputs(t *testing.T) {
	base := t.TempDir()
	scen := filepath.Join(base, "proj", "scenarios")
	os.MkdirAll(filepath.Join(scen, "data"), 0o755)
	os.WriteFile(filepath.Join(scen, "a.yaml"), []byte("x"), 0o644)
	os.Symlink(filepath.Join(base, "proj"), filepath.Join(base, "plink"))
	t.Chdir(base)
	for _, tc := range []struct {
		dir    string
		inputs []string
	}{
		{scen, []string{scen}},
		{filepath.Join(base, "proj"), []string{scen}},
		{"proj/scenarios", []string{"plink/scenarios"}},
		{"plink/scenarios", []string{scen}},
		{scen, []string{filepath.Join(scen, "a.yaml")}},
		{"proj", []string{"plink/scenarios/a.yaml"}},
	} {
		w, err := CreateWith(tc.dir, Options{Force: true, Inputs: tc.inputs})
		if err == nil {
			w.Abort()
		}
		if err == nil || !strings.Contains(err.Error(), "it holds the scenarios of") {
			t.Errorf("CreateWith(%s, inputs %q) = %v, want a refusal", tc.dir, tc.inputs, err)
		}
	}
	if got := read(t, filepath.Join(scen, "a.yaml")); got != "x" {
		t.Errorf("a.yaml = %q", got)
	}
	// A sibling, or a folder inside the scenarios folder, is fine.
	for _, dir := range []string{"proj/out", "proj/scenarios/data/out"} {
		w, err := CreateWith(dir, Options{Inputs: []string{scen}})
		if err != nil {
			t.Errorf("CreateWith(%s): %v", dir, err)
			continue
		}
		w.Abort()
	}
}

// TestForceSparesWorkingDirThroughSymlinks: the working directory guard
// holds when $PWD is a symlink into the output directory, and when the
// working directory is a folder named ..cache inside it.
func TestForceSparesWorkingDirThroughSymlinks(t *testing.T) {
	base := t.TempDir()
	out := filepath.Join(base, "real", "out")
	for _, d := range []string{"sub", "..cache"} {
		if err := os.MkdirAll(filepath.Join(out, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(out, "keep.txt"), []byte("k"), 0o644)
	link := filepath.Join(base, "link")
	os.Symlink(filepath.Join(out, "sub"), link)
	for _, wd := range []string{link, filepath.Join(out, "..cache")} {
		t.Run(filepath.Base(wd), func(t *testing.T) {
			t.Chdir(wd)
			for _, dir := range []string{out, "..", "../../out", filepath.Join(base, "real")} {
				err := Write(dir, files("a.txt", "1"), true)
				if err == nil || !strings.Contains(err.Error(), "holds the current directory") {
					t.Errorf("in %s, Write(%s, force) = %v, want a refusal", wd, dir, err)
				}
			}
		})
	}
	if got := read(t, filepath.Join(out, "keep.txt")); got != "k" {
		t.Errorf("keep.txt = %q", got)
	}
}
