package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runSafely calls run and turns a panic into a test failure, so that one
// bad input cannot hide the others.
func runSafely(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("ringreport %s panicked: %v\n%s", strings.Join(args, " "), p, debug.Stack())
				code = -1
			}
		}()
		code = run(args, &out, &errOut)
	}()
	return code, out.String(), errOut.String()
}

// TestBadCorpus runs every input of internal/scenario/testdata/bad through
// validate, build and render: each must exit with status 1, without a
// panic, with every problem placed as file:line:col (or file: for the
// file as a whole), and build must not write anything.
func TestBadCorpus(t *testing.T) {
	files, err := filepath.Glob("../../internal/scenario/testdata/bad/*.yaml")
	if err != nil || len(files) < 60 {
		t.Fatalf("found %d bad inputs (%v); want the whole corpus", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			for _, args := range [][]string{
				{"validate", file},
				{"build", "-o", out, file},
				{"render", "data", file},
			} {
				code, stdout, stderr := runSafely(t, args...)
				if code != exitError {
					t.Errorf("ringreport %s: exit %d, want %d\n%s", args[0], code, exitError, stderr)
				}
				if args[0] != "render" && stdout != "" {
					t.Errorf("ringreport %s wrote to stdout: %q", args[0], stdout)
				}
				for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
					if !strings.HasPrefix(line, filepath.ToSlash(file)+":") {
						t.Errorf("ringreport %s: message not placed in the file: %q", args[0], line)
					}
				}
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("build of a bad input wrote %s", out)
			}
		})
	}
}

// TestSpecialFiles checks that a scenario or keys file that is a FIFO
// (which would block a plain read for ever) or a device is refused at
// once, and that a scenario folder may not hold a symlink out of itself;
// validate, build, check and render open files alike, and say so alike.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "s", "keys.yaml"), []byte("title: K\nkeys: {file: k.txt}\nnodes: [a]\n"))
	if err := syscall.Mkfifo(filepath.Join(dir, "s", "k.txt"), 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "outside.yaml"), []byte("title: O\nkeys: 10\nnodes: [a]\n"))
	if err := os.Symlink("../outside.yaml", filepath.Join(dir, "s", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	tests := []struct{ arg, want string }{
		{filepath.Join(dir, "fifo.yaml"), "is not a regular file (p---------)"},
		{filepath.Join(dir, "zero.yaml"), "is not a regular file (Dc---------)"},
		{filepath.Join(dir, "s", "keys.yaml"), `cannot read keys file "k.txt": k.txt is not a regular file`},
		{filepath.Join(dir, "s"), "link.yaml: path escapes from parent"},
	}
	for _, tt := range tests {
		cmds := [][]string{{"validate", tt.arg}, {"build", "-o", out, tt.arg}, {"check", "-o", out, tt.arg}}
		if strings.HasSuffix(tt.arg, ".yaml") {
			cmds = append(cmds, []string{"render", "data", tt.arg})
		}
		for _, args := range cmds {
			done := make(chan string, 1)
			go func() {
				code, _, stderr := runSafely(t, args...)
				done <- fmt.Sprintf("%d %s", code, stderr)
			}()
			select {
			case got := <-done:
				if !strings.HasPrefix(got, "1 ") || !strings.Contains(got, tt.want) {
					t.Errorf("%s %s: %s\nwant exit 1 and %q", args[0], tt.arg, got, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s %s hangs", args[0], tt.arg)
			}
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a build of an unreadable input wrote its output")
	}
}
