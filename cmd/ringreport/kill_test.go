package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killScenario writes 35 files (12 steps of four rules) of 2.5 MB in
// all, so that a build spends a noticeable part of its time (0.1 s of
// CPU on the 2-core reference machine; the kills land in proportion to
// it) writing a folder of many files. More keys, steps or a dearer rule
// would make each build cost more CPU, not the test stronger: what it
// checks is the swap of the folder, whatever the files hold, and the
// files are as many at 1,000 keys as at 5,000, and with rendezvous as
// with maglev, whose table made a third of a build's CPU (0.19 s a
// build at 5,000 keys with maglev, 0.12 at 1,000 with rendezvous).
func killScenario(seed int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: Killed build %d\nseed: %d\nkeys: 1000\nnodes: 8\nrules: [ring, modulo, jump, rendezvous]\nreplicas: 2\nsteps:\n", seed, seed)
	for i := range 6 {
		fmt.Fprintf(&b, "  - add: x%d\n  - remove: random\n", i)
	}
	return b.String()
}

// TestKilledBuild SIGKILLs builds at seeded
// random moments and checks that out/ is always byte for byte one
// complete build or the other, never a mix, and that the next build
// removes the leftovers. Each killed build is of the scenario out/ does
// not hold at the time, so that a mix of the two shows, and a build
// that completes before its kill changes out/.
func TestKilledBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command many times")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := binary(t)
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	build := func(seed int, out string) *exec.Cmd {
		writeFile(t, filepath.Join(work, "s.yaml"), []byte(killScenario(seed)))
		cmd := exec.Command(bin, "build", "-o", out, "s.yaml")
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "CI=true")
		return cmd
	}
	// The two complete builds.
	trees := make([]map[string]string, 2)
	for i := range trees {
		if out, err := build(i+1, "want"+fmt.Sprint(i)).CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		trees[i] = readTree(t, filepath.Join(work, "want"+fmt.Sprint(i)))
	}
	if len(trees[0]) < 20 {
		t.Fatalf("a build wrote only %d files", len(trees[0]))
	}
	// How long a build takes that replaces out/ after a killed one, as
	// the builds below do: nearly twice one into a new folder, as it
	// syncs what the killed one left unsynced (the faster of two).
	full := time.Hour
	for _, seed := range []int{2, 1} {
		killed := build(seed, "out")
		if err := killed.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		killed.Process.Signal(syscall.SIGKILL)
		killed.Wait()
		start := time.Now()
		if out, err := build(seed, "out").CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
		full = min(full, time.Since(start))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int]int{}
	swaps, last := 0, 0 // how often out/ changed from one build to the other; it holds build 1
	for i := range 20 {
		cmd := build(2-last, "out") // the build out/ does not hold
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Half the kills land anywhere in a build; the others from three
		// quarters of its usual time to a quarter past it, around the
		// moment it swaps the new folder in (and some after it is done).
		delay := rng.Int64N(int64(full))
		if i%2 == 0 {
			delay = int64(full)*3/4 + rng.Int64N(int64(full)/2+1)
		}
		time.Sleep(time.Duration(delay))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		got := readTree(t, filepath.Join(work, "out"))
		which := -1
		for j, want := range trees {
			if equalTrees(got, want) {
				which = j
			}
		}
		if which < 0 {
			t.Fatalf("kill %d: out/ is neither complete build (%d files)", i, len(got))
		}
		if which != last {
			swaps++
		}
		last = which
		seen[which]++
	}
	t.Logf("a build takes %v; after 20 kills out/ held build 1 %d times and build 2 %d times, and changed %d times", full, seen[0], seen[1], swaps)
	if out, err := build(2, "out").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if !equalTrees(readTree(t, filepath.Join(work, "out")), trees[1]) {
		t.Errorf("the build after the kills is not complete")
	}
	left, _ := filepath.Glob(filepath.Join(work, ".out.*"))
	if len(left) > 0 {
		t.Errorf("leftovers after a complete build: %v", left)
	}
}

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for p, data := range a {
		if other, ok := b[p]; !ok || !bytes.Equal([]byte(data), []byte(other)) {
			return false
		}
	}
	return true
}
