package safefs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fixture is a folder with a regular file, a FIFO, a symlink to
// /dev/zero, a symlink to the regular file and a big file.
func fixture(t *testing.T) (dir string, root *os.Root) {
	t.Helper()
	dir = t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "zero"))
	os.Symlink("a.txt", filepath.Join(dir, "link"))
	os.Symlink("fifo", filepath.Join(dir, "fifolink"))
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return dir, root
}

func fast(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s did not return in 5 s", what)
	}
}

// TestReadFile: only regular files are read, through the root or not,
// and never more than the limit plus one byte.
func TestReadFile(t *testing.T) {
	dir, root := fixture(t)
	for _, r := range []*os.Root{root, nil} {
		name := func(n string) string {
			if r == nil {
				return filepath.Join(dir, n)
			}
			return n
		}
		fast(t, "ReadFile", func() {
			for _, n := range []string{"fifo", "fifolink", "zero"} {
				_, err := ReadFile(r, name(n), 10)
				if r == nil || n != "zero" {
					if !errors.Is(err, ErrNotRegular) {
						t.Errorf("ReadFile(%s, root %v) = %v, want ErrNotRegular", n, r != nil, err)
					}
				} else if err == nil || !strings.Contains(err.Error(), "escapes") {
					t.Errorf("ReadFile(zero) through the root = %v, want an escape refused", err)
				}
			}
		})
		for _, n := range []string{"a.txt", "link"} {
			if data, err := ReadFile(r, name(n), 10); err != nil || string(data) != "hello" {
				t.Errorf("ReadFile(%s) = %q, %v", n, data, err)
			}
		}
		if data, err := ReadFile(r, name("big"), 10); err != nil || len(data) != 11 {
			t.Errorf("ReadFile(big, 10) read %d bytes, %v; want 11", len(data), err)
		}
	}
}

// TestFS: the fs.FS serves regular files within the limit and refuses
// the rest, as templates are read.
func TestFS(t *testing.T) {
	_, root := fixture(t)
	fsys := FS(root, 100)
	if data, err := fs.ReadFile(fsys, "link"); err != nil || string(data) != "hello" {
		t.Errorf("ReadFile(link) = %q, %v", data, err)
	}
	fast(t, "fs.ReadFile", func() {
		for _, n := range []string{"fifo", "zero", "big", "../a.txt", "nosuch"} {
			if _, err := fs.ReadFile(fsys, n); err == nil {
				t.Errorf("fs.ReadFile(%s) succeeded", n)
			}
		}
	})
	if _, err := fsys.Open("nosuch"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(nosuch) = %v, want fs.ErrNotExist (templates fall back on it)", err)
	}
	// A file that grows past the limit once open fails when read.
	f, err := fsys.Open("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.WriteFile(filepath.Join(root.Name(), "a.txt"), make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err == nil || len(data) > 101 {
		t.Errorf("reading a file grown past the limit: %d bytes, %v", len(data), err)
	}
}
