package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/outdir"
)

// small is a scenario that builds in a moment.
const small = "title: S\nkeys: 10\nnodes: [a]\n"

// slowScenario is a build that takes a noticeable time (about 0.3 s of
// CPU at 10,000 keys on the 2-core reference machine, 0.45 s at 50,000):
// long enough for a test to see its temporary folder appear and stop the
// process (SIGSTOP) before it is done, which its 2 ms polling does a
// hundred times over at 10,000 keys.
func slowScenario(title string, keys int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: %s\nseed: 1\nkeys: %d\nnodes: 8\nrules: [ring, modulo, jump, maglev]\nreplicas: 2\nsteps:\n", title, keys)
	for i := range 12 {
		fmt.Fprintf(&b, "  - add: x%d\n  - remove: random\n", i)
	}
	return b.String()
}

// within10s runs f and fails the test if it takes more than 10 s.
func within10s(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not finish in 10 s", what)
	}
}

// TestCheckSpecialFiles replaces pages of a built site with a FIFO, a
// symlink to /dev/zero and a 1 GiB (sparse) file: check reports each as
// a difference, fast, without reading them. A -templates folder holding
// a FIFO or a symlink to /dev/zero is refused by build and check alike.
func TestCheckSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "s.yaml", []byte(small))
	if code, _, stderr := runSafely(t, "build", "s.yaml"); code != exitOK {
		t.Fatalf("build: %d\n%s", code, stderr)
	}
	for _, p := range []string{"out/s/index.html", "out/s/data.json", "out/s/steps.csv"} {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo("out/s/index.html", 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	if err := os.Symlink("/dev/zero", "out/s/data.json"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("out/s/steps.csv", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate("out/s/steps.csv", 1<<30); err != nil {
		t.Fatal(err)
	}
	var code int
	var stderr string
	within10s(t, "check", func() { code, _, stderr = runSafely(t, "check", "s.yaml") })
	if code != exitStale {
		t.Fatalf("check: exit %d, want %d\n%s", code, exitStale, stderr)
	}
	for _, want := range []string{
		"changed: s/index.html (a FIFO, not a regular file)",
		"changed: s/data.json (a symlink, not a regular file)",
		"changed: s/steps.csv\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("check does not report %q:\n%s", want, stderr)
		}
	}

	// Templates: a symlink out of the folder, and a FIFO.
	os.Mkdir("brand", 0o755)
	if err := os.Symlink("/dev/zero", "brand/page.html.tmpl"); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo("brand/style.css.tmpl", 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ drop, want string }{
		{"", "path escapes from parent"},
		{"brand/page.html.tmpl", "style.css.tmpl is not a regular file (p---------)"},
	} {
		if tc.drop != "" {
			os.Remove(tc.drop)
		}
		for _, cmd := range []string{"build", "check"} {
			within10s(t, cmd+" -templates", func() {
				code, _, stderr = runSafely(t, cmd, "-o", "site", "-templates", "brand", "s.yaml")
			})
			if code != exitError || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s -templates: exit %d, want %d and %q\n%s", cmd, code, exitError, tc.want, stderr)
			}
		}
	}
	if _, err := os.Stat("site"); err == nil {
		t.Error("a build with unreadable templates wrote its output")
	}
}

// TestForceGuards: even with -force, build does not replace a regular
// file, the scenarios folder it reads (named or the default), the folder
// of a scenario file, or the working directory.
func TestForceGuards(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "scenarios/s.yaml", []byte(small))
	writeFile(t, "notes.txt", []byte("keep"))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", "notes.txt", "scenarios"}, "refusing to replace notes.txt: it is a regular file, not a directory"},
		{[]string{"-o", "scenarios", "scenarios"}, "refusing to replace scenarios: it holds the scenarios of"},
		{[]string{"-o", "scenarios"}, "refusing to replace scenarios: it holds the scenarios of"},
		{[]string{"-o", "scenarios", "scenarios/s.yaml"}, "refusing to replace scenarios: it holds the scenarios of"},
		{[]string{"-o", ".", "scenarios"}, "refusing to replace .: it holds the current directory"},
	} {
		args := append([]string{"build", "-force"}, tc.args...)
		code, _, stderr := runSafely(t, args...)
		if code != exitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("ringreport %s: exit %d, want %d and %q\n%s", strings.Join(args, " "), code, exitError, tc.want, stderr)
		}
	}
	if data, err := os.ReadFile("scenarios/s.yaml"); err != nil || string(data) != small {
		t.Errorf("scenarios/s.yaml = %q, %v", data, err)
	}
	if data, err := os.ReadFile("notes.txt"); err != nil || string(data) != "keep" {
		t.Errorf("notes.txt = %q, %v", data, err)
	}
}

// TestFileNamesQuoted: a scenario file whose name holds a newline and a
// GitHub Actions command, or terminal escape sequences, is named quoted
// and escaped in every message, so no line of the output starts with a
// forged annotation and no escape reaches the terminal.
func TestFileNamesQuoted(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	forged := "a\n::error file=README.md,line=1::forged\n.yaml"
	escape := "\x1b]8;;evil.example\a\x1b[2J\x1b[31mb.yaml"
	bad := []byte("title: X\nkeys: 10\nnodes: [a]\nbogus: 1\n")
	failing := []byte(small + "rules: [ring]\nsteps: [{add: b}]\nexpect: [{step: 1, rule: ring, moved_fraction: \"> 1\"}]\n")
	for _, n := range []string{forged, escape} {
		writeFile(t, filepath.Join("s", n), bad)
		writeFile(t, filepath.Join("one", n), failing)
	}
	for _, args := range [][]string{
		{"validate", "s"}, {"build", "s"}, {"check", "s"},
		{"validate", "s/" + forged}, {"render", "data", "s/" + escape},
		{"build", "one"}, {"render", "-step", "9", "ring", "one/" + forged},
		{"check", "one"}, // after a file with an escape is planted in out/
	} {
		want := exitError
		if args[0] == "check" && args[1] == "one" {
			writeFile(t, filepath.Join("out", forged), nil)
			want = exitStale
		}
		code, _, stderr := runSafely(t, args...)
		if code != want {
			t.Errorf("ringreport %q: exit %d, want %d\n%s", args, code, want, stderr)
		}
		if strings.ContainsAny(stderr, "\x1b\r\a") {
			t.Errorf("ringreport %q wrote a raw escape: %q", args, stderr)
		}
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if strings.HasPrefix(line, "::") || strings.HasPrefix(line, ".yaml") {
				t.Errorf("ringreport %q: a file name broke the line: %q", args, line)
			}
		}
		quoted := 0
		for _, q := range []string{`a\n::error file=README.md,line=1::forged\n.yaml"`, `\x1b]8;;evil.example\a\x1b[2J\x1b[31mb.yaml"`} {
			if strings.Contains(stderr, q) {
				quoted++
			}
		}
		want = 1
		if !strings.Contains(args[len(args)-1], "/") {
			want = 2 // a folder: both files are named
		}
		if quoted != want {
			t.Errorf("ringreport %q: %d file names quoted and escaped, want %d:\n%s", args, quoted, want, stderr)
		}
	}
}

// TestScenarioFolderNames: .YAML is a scenario like .yaml; a hidden file
// (an editor's lock symlink .#s.yaml) and a symlink to nothing are
// skipped with a note, and do not fail the build.
func TestScenarioFolderNames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, "scenarios/Ring.YAML", []byte(small))
	writeFile(t, "scenarios/jump.Yml", []byte(small))
	if err := os.Symlink("root@host.12345:1700000000", "scenarios/.#Ring.YAML"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("gone.yaml", "scenarios/moved.yaml"); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runSafely(t, "validate")
	if code != exitOK || stdout != "2 scenario(s) ok\n" {
		t.Errorf("validate: exit %d, %q\n%s", code, stdout, stderr)
	}
	code, _, stderr = runSafely(t, "build")
	if code != exitOK {
		t.Fatalf("build: exit %d\n%s", code, stderr)
	}
	for _, p := range []string{"out/Ring/index.html", "out/jump/index.html"} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("build wrote no %s: %v", p, err)
		}
	}
	want := "ringreport: note: skipping scenarios/.#Ring.YAML: a hidden file (an editor's lock or backup?)\n" +
		"ringreport: note: skipping scenarios/moved.yaml: a symlink to nothing\n"
	if notes, summary, _ := strings.Cut(stderr, "wrote out/: 2 scenarios, "); notes != want || !strings.HasSuffix(summary, " s\n") {
		t.Errorf("build stderr = %q, want %q", stderr, want)
	}
}

// binary returns the command as a program to run: the copy of the test
// binary that TestMain (through testscript.Main) puts on PATH under the
// name ringreport, which runs main. No test builds the command again.
func binary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("ringreport")
	if err != nil {
		t.Fatalf("TestMain put no ringreport on PATH: %v", err)
	}
	return bin
}

// TestBuildProcesses runs the command as a process: a build interrupted
// by SIGINT or SIGTERM removes its temporary folder and says so in one
// line; a second build into the same out/ while one runs is refused and
// leaves the running one's temporary folder alone; a killed build's
// leftovers are removed by the next build.
//
// The build it interrupts is caught in the middle: with -j 1 its small
// first scenario is written (the temporary folder appears) while the
// slow second one has yet to be replayed, and the test stops the
// process there (SIGSTOP) before it signals it, starts the second
// build or kills it, so that no race with the build's end decides what
// is tested, and the slow scenario needs to be only as slow as the
// test's 2 ms polling needs.
func TestBuildProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command many times")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := binary(t)
	work := filepath.Join(dir, "work")
	writeFile(t, filepath.Join(work, "slow", "a.yaml"), []byte(small))
	writeFile(t, filepath.Join(work, "slow", "b.yaml"), []byte(slowScenario("B", 10_000)))
	writeFile(t, filepath.Join(work, "s.yaml"), []byte(small))
	command := func(args ...string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "CI=true")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		return cmd, &stderr
	}
	if cmd, stderr := command("build", "-o", "out", "s.yaml"); cmd.Run() != nil {
		t.Fatalf("build: %s", stderr)
	}
	before := readTree(t, filepath.Join(work, "out"))
	// startSlow starts a slow build, waits for its temporary folder (with
	// its marker: the folder is opened) and stops the process, which then holds the lock and the folder until
	// it is sent SIGCONT (or killed).
	startSlow := func() (*exec.Cmd, *bytes.Buffer, string) {
		t.Helper()
		old, _ := filepath.Glob(filepath.Join(work, ".out.tmp-*"))
		cmd, stderr := command("build", "-j", "1", "-o", "out", "slow")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
			tmp, _ := filepath.Glob(filepath.Join(work, ".out.tmp-*"))
			for _, p := range tmp {
				// A folder that holds its marker has been opened in full.
				if _, err := os.Stat(filepath.Join(p, outdir.Marker)); err == nil && !slices.Contains(old, p) {
					cmd.Process.Signal(syscall.SIGSTOP)
					return cmd, stderr, p
				}
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the slow build made no temporary folder in 30 s: %s", stderr)
		return nil, nil, ""
	}
	// stillBuilding waits until cmd has stopped, and fails the test if it
	// finished first: what follows would prove nothing about a build in
	// progress.
	stillBuilding := func(cmd *exec.Cmd) {
		t.Helper()
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WUNTRACED, nil); err != nil || !ws.Stopped() {
			t.Fatalf("the slow build was done before it could be stopped (wait4: %v, status %#x): make its scenario slower", err, ws)
		}
	}
	leftovers := func() []string {
		left, _ := filepath.Glob(filepath.Join(work, ".out.*"))
		return left
	}

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd, stderr, _ := startSlow()
		stillBuilding(cmd)
		cmd.Process.Signal(sig)
		cmd.Process.Signal(syscall.SIGCONT)
		err := cmd.Wait()
		name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
		if code := cmd.ProcessState.ExitCode(); code != 128+int(sig) {
			t.Errorf("%s: exit %d (%v), want %d", name, code, err, 128+int(sig))
		}
		if want := "ringreport: interrupted (" + name + "); out is as it was\n"; stderr.String() != want {
			t.Errorf("%s: stderr %q, want %q", name, stderr, want)
		}
		if left := leftovers(); len(left) > 0 {
			t.Errorf("%s: the interrupted build left %v", name, left)
		}
		if !equalTrees(readTree(t, filepath.Join(work, "out")), before) {
			t.Errorf("%s: the interrupted build changed out/", name)
		}
	}

	// Two builds at once: the second is refused, the first completes.
	cmd, stderr, tmp := startSlow()
	stillBuilding(cmd)
	second, stderr2 := command("build", "-o", "out", "s.yaml")
	if err := second.Run(); second.ProcessState.ExitCode() != exitError {
		t.Errorf("second build: %v, want exit 1", err)
	}
	if want := fmt.Sprintf("ringreport: cannot write out: another ringreport build is writing it (process %d holds .out.lock); wait for it to finish, or choose another -o\n", cmd.Process.Pid); stderr2.String() != want {
		t.Errorf("second build: stderr %q, want %q", stderr2, want)
	}
	if _, err := os.Stat(filepath.Join(tmp, outdir.Marker)); err != nil {
		t.Errorf("the second build touched the first one's temporary folder: %v", err)
	}
	cmd.Process.Signal(syscall.SIGCONT)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the first build: %v\n%s", err, stderr)
	}
	if check, stderr := command("check", "-o", "out", "slow"); check.Run() != nil {
		t.Errorf("out/ is not the first build, complete: %s", stderr)
	}
	if left := leftovers(); len(left) > 0 {
		t.Errorf("after two builds: %v", left)
	}

	// A killed build leaves its temporary folder; the next removes it.
	cmd, _, tmp = startSlow()
	stillBuilding(cmd)
	cmd.Process.Kill()
	cmd.Wait()
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed build left no temporary folder (%v): the test proves nothing", err)
	}
	if cmd, stderr := command("build", "-o", "out", "s.yaml"); cmd.Run() != nil {
		t.Fatalf("build after a kill: %s", stderr)
	}
	if left := leftovers(); len(left) > 0 {
		t.Errorf("the build after a kill left %v", left)
	}
}
