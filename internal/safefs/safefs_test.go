package safefs

import (
	"errors"
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
