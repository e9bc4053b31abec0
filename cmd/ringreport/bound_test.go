package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The bound every hostile case runs under (issue 18): a case that takes
// longer, or whose process holds more memory at its peak, fails.
const (
	boundTime = 10 * time.Second
	boundRSS  = 2 << 30 // bytes
	// killAfter and addressLimit keep a case that blows the bound from
	// taking the machine with it: it is killed just past the time bound,
	// and fails to allocate well past the memory bound.
	killAfter    = boundTime + time.Second
	addressLimit = 4 << 30 // bytes of address space (ulimit -v)
)

// boundCase is one hostile input, run as a process of the built command
// in a folder of its own.
type boundCase struct {
	name string
	// files are written into the case's folder, setup prepares the rest
	// (big files, FIFOs, an earlier build).
	files map[string][]byte
	setup func(t *testing.T, bin, dir string)
	// args is the command line (runs: several, started at once).
	args []string
	runs [][]string
	// want is the exit status, stderr a regexp its standard error must
	// match; check looks at what the case left.
	want   int
	stderr string
	check  func(t *testing.T, dir string)
	// known names the issue of a known defect: a case that blows the
	// bound today. It is skipped, saying by how much, while it does, and
	// fails once it no longer does, so that the mark is removed.
	known string
}

// TestHostileBounds runs every hostile case (internal/scenario/testdata/
// hostile, the generated ones below, and every input of testdata/bad)
// as a process of the command, and fails a case that takes more than
// boundTime or a process whose peak RSS is over boundRSS. Each case must
// build, or be refused up front with its position (and, for a limit, the
// flag that raises it). The cases run one at a time, beside the other
// process tests (no case takes a third of boundTime); the bad inputs,
// refused in milliseconds each, are validated by one process, within
// the bound for all of them. The peak RSS is peakProcess's.
func TestHostileBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every hostile case as a process")
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage or GNU time")
	}
	t.Parallel()
	bin := binary(t)
	cases := append(corpusCases(t, "../../internal/scenario/testdata/hostile"), generatedCases()...)
	cases = append(cases, commandCases()...)
	if len(cases) < 20 {
		t.Fatalf("%d hostile cases; want every class of issue 18", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runBounded(t, bin, c) })
	}
	t.Run("bad", func(t *testing.T) { validateBad(t, bin) })
}

// validateBad validates every input of testdata/bad in one process,
// which must be refused with every line of its messages naming one of
// the files first, every file named, and stay within the bound for all
// of them together; when it does not, each file is validated on its own
// to name the ones over the bound. (TestBadCorpus checks each file's
// messages, in the test's process.)
func validateBad(t *testing.T, bin string) {
	bad, err := filepath.Abs("../../internal/scenario/testdata/bad")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(bad, "*.yaml"))
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	over, code, stderr := validateBounded(t, bin, bad, names)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	named := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		name, _, _ := strings.Cut(line, ":")
		if !slices.Contains(names, name) {
			t.Errorf("a message does not name its file first: %q", line)
		}
		named[name] = true
	}
	for _, name := range names {
		if !named[name] {
			t.Errorf("%s: no message names it", name)
		}
	}
	if len(over) == 0 {
		return
	}
	for _, p := range over {
		t.Error(p)
	}
	for _, name := range names {
		over, _, _ := validateBounded(t, bin, bad, []string{name})
		for _, p := range over {
			t.Error(p)
		}
	}
}

// validateBounded runs validate names in dir, and returns how it went
// over the bound (overBound), its exit status and its standard error.
func validateBounded(t *testing.T, bin, dir string, names []string) (over []string, code int, stderr string) {
	start := time.Now()
	cmd := newPeakProcess(t, context.Background(), dir, 0, bin, append([]string{"validate"}, names...)...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	err := cmd.Run()
	what := "validate " + names[0]
	if len(names) > 1 {
		what = fmt.Sprintf("validate of the %d bad inputs", len(names))
	}
	return overBound(t, what, cmd, time.Since(start), err), cmd.ProcessState.ExitCode(), buf.String()
}

// runBounded prepares c's folder, runs its command lines and checks the
// bound, the exit status and the messages.
func runBounded(t *testing.T, bin string, c boundCase) {
	dir := t.TempDir()
	for name, data := range c.files {
		writeFile(t, filepath.Join(dir, name), data)
	}
	if c.setup != nil {
		c.setup(t, bin, dir)
	}
	runs := c.runs
	if runs == nil {
		runs = [][]string{c.args}
	}
	type result struct {
		code     int
		stderr   string
		problems []string
	}
	results := make(chan result, len(runs))
	for _, args := range runs {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), killAfter)
			defer cancel()
			cmd := newPeakProcess(t, ctx, dir, addressLimit, bin, args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			problems := overBound(t, strings.Join(args, " "), cmd, time.Since(start), err)
			results <- result{cmd.ProcessState.ExitCode(), stderr.String(), problems}
		}()
	}
	var over, problems []string
	for range runs {
		r := <-results
		over = append(over, r.problems...)
		switch {
		case c.runs != nil: // concurrent runs: each succeeds or is refused by the lock
			if r.code != exitOK && !strings.Contains(r.stderr, "another ringreport build is writing it") {
				problems = append(problems, fmt.Sprintf("exit %d, want %d or the lock's refusal:\n%s", r.code, exitOK, r.stderr))
			}
		case r.code != c.want:
			problems = append(problems, fmt.Sprintf("exit %d, want %d:\n%s", r.code, c.want, clipText(r.stderr)))
		case c.stderr != "" && !regexp.MustCompile(c.stderr).MatchString(r.stderr):
			problems = append(problems, fmt.Sprintf("stderr does not match %q:\n%s", c.stderr, clipText(r.stderr)))
		}
	}
	switch {
	case c.known != "" && len(over) > 0:
		t.Skipf("known defect (%s), left to the cost model: %s", c.known, strings.Join(over, "; "))
	case c.known != "":
		t.Errorf("the known defect (%s) is gone: remove the case's known mark", c.known)
	}
	problems = append(over, problems...)
	for _, p := range problems {
		t.Error(p)
	}
	if c.check != nil && len(problems) == 0 {
		c.check(t, dir)
	}
}

// overBound says how a process went over the bound (more than boundTime,
// more than boundRSS), and logs what it took.
func overBound(t *testing.T, what string, cmd *peakProcess, took time.Duration, err error) []string {
	if cmd.ProcessState == nil {
		return []string{fmt.Sprintf("%s did not run: %v", what, err)}
	}
	rss, perr := cmd.Peak()
	if perr != nil {
		return []string{fmt.Sprintf("%s: %v (%v, after %.1f s)", clipText(what), perr, err, took.Seconds())}
	}
	t.Logf("%s: %.2f s, peak RSS %d MiB", clipText(what), took.Seconds(), rss>>20)
	var over []string
	if took > boundTime {
		over = append(over, fmt.Sprintf("%s took %.1f s, over the bound of %s", clipText(what), took.Seconds(), boundTime))
	}
	if rss > boundRSS {
		over = append(over, fmt.Sprintf("%s held %d MiB at its peak, over the bound of %d MiB", clipText(what), rss>>20, boundRSS>>20))
	}
	return over
}

// clipText shortens text for a test message.
func clipText(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// corpusCases reads the hostile corpus: each NAME.yaml says on its first
// line what it must do: "# want: build", "# want: refused" (an error at
// a position) or "# want: refused -flag" (and the flag that raises the
// limit it is over); a second line "# known: why" marks a known defect
// (see boundCase.known).
func corpusCases(t *testing.T, dir string) []boundCase {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile corpus in %s: %v", dir, err)
	}
	var cases []boundCase
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitN(string(src), "\n", 3)
		want, ok := strings.CutPrefix(lines[0], "# want: ")
		if !ok || len(lines) < 3 {
			t.Fatalf("%s: the first line must be \"# want: build\" or \"# want: refused [-flag]\"", f)
		}
		c := scenarioCase(filepath.Base(f), src, want)
		if known, ok := strings.CutPrefix(lines[1], "# known: "); ok {
			c.known = known
		}
		cases = append(cases, c)
	}
	return cases
}

// scenarioCase runs build on one scenario file: want is "build",
// "refused" or "refused -flag", as in the corpus's first lines.
func scenarioCase(name string, src []byte, want string) boundCase {
	c := boundCase{name: name, files: map[string][]byte{name: src}, args: []string{"build", "-o", "out", name}}
	switch flag, refused := strings.CutPrefix(want, "refused"); {
	case want == "build":
		c.check = func(t *testing.T, dir string) { checkBuilt(t, dir, strings.TrimSuffix(name, ".yaml")) }
	case refused:
		c.want = exitError
		c.stderr = "^" + regexp.QuoteMeta(name) + `:\d+:\d+: `
		if flag = strings.TrimSpace(flag); flag != "" {
			c.stderr += ".*raise it with " + regexp.QuoteMeta(flag) + `\b`
		}
		c.check = func(t *testing.T, dir string) {
			if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
				t.Error("a refused build wrote out/")
			}
		}
	default:
		panic("bad want: " + want)
	}
	return c
}

// checkBuilt checks that out/ holds the scenario's page and data.
func checkBuilt(t *testing.T, dir, scenario string) {
	t.Helper()
	for _, f := range []string{"index.html", "data.json", "report.md"} {
		if _, err := os.Stat(filepath.Join(dir, "out", scenario, f)); err != nil {
			t.Errorf("the build wrote no %s: %v", f, err)
		}
	}
}

// longNames returns n node names of 200 bytes, the longest allowed.
func longNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		p := fmt.Sprintf("node-%05d-", i)
		names[i] = p + strings.Repeat("x", 200-len(p))
	}
	return names
}

// generatedCases are the hostile inputs too big to keep as files, each
// written by a few lines from issue 18's description of it.
func generatedCases() []boundCase {
	var cases []boundCase
	add := func(name, want string, src string) {
		cases = append(cases, scenarioCase(name, []byte(src), want))
	}

	// 64 probes × 64 replicas × 200-byte names × 2,000 fail/recover steps.
	var b strings.Builder
	names := longNames(70)
	fmt.Fprintf(&b, "title: Probes, replicas, long names, many steps\nkeys: 1000\nreplicas: 64\nnodes: [%s]\nprobes: [", strings.Join(names, ", "))
	for i := range 64 {
		fmt.Fprintf(&b, "p%d, ", i)
	}
	b.WriteString("]\nsteps:\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "  - fail: %s\n  - recover: %s\n", names[i%70], names[i%70])
	}
	cases = append(cases, scenarioCase("probes-replicas-steps.yaml", []byte(b.String()), "refused -max-work"))

	// 991 nodes with 200-byte names × 1,999 steps × 3 rules.
	b.Reset()
	names = longNames(991)
	fmt.Fprintf(&b, "title: Long names over many steps\nkeys: 10000\nrules: [ring, modulo, jump]\nnodes: [%s]\nsteps:\n", strings.Join(names, ", "))
	for i := range 1999 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "  - fail: %s\n", names[i%991])
		} else {
			fmt.Fprintf(&b, "  - recover: %s\n", names[(i-1)%991])
		}
	}
	add("long-names-steps.yaml", "refused -max-memory", b.String())

	// 1.3 × 10⁸ ring points: 1,300 nodes × weight 10,000 × vnodes 10.
	b.Reset()
	b.WriteString("title: A hundred million ring points\nkeys: 1000\nrules: [{rule: ring, vnodes: 10}]\nnodes:\n")
	for i := range 1300 {
		fmt.Fprintf(&b, "  - {name: n%d, weight: 10000}\n", i)
	}
	cases = append(cases, scenarioCase("ring-points.yaml", []byte(b.String()), "refused -max-memory"))

	// about: at its size limit, paragraphs of CommonMark's pathological
	// inputs at the nesting and emphasis limits, or a figure named on
	// every line.
	about := func(name, title, para string) {
		text := strings.Repeat(para, (32<<10)/len(para))
		add(name, "build", fmt.Sprintf("title: %s\nkeys: 100\nnodes: [a, b]\nsteps: [{add: c}]\nabout: %q\n", title, text))
	}
	about("about-images.yaml", "A figure on every line", "![x](step-0-rings.svg)\n")
	about("about-quotes.yaml", "Quotes at the nesting limit", strings.Repeat("> ", 16)+"a\n\n")
	about("about-brackets.yaml", "Open links at the nesting limit", strings.Repeat("[a](", 16)+"\n\n")
	about("about-emphasis.yaml", "Emphasis runs at the limit", strings.Repeat("*a _b ", 500)+"\n\n")
	about("about-backticks.yaml", "Backticks", "`a ``b ")
	about("about-lists.yaml", "Lists at the nesting limit", "- - - - - - - - - - - - - - - a\n")
	about("about-html.yaml", "Raw HTML everywhere", "<script>alert(1)</script><div onclick=x>")

	// A 200 MB key: a keys file of one huge line and a few small ones.
	cases = append(cases, boundCase{
		name:  "huge-key.yaml",
		files: map[string][]byte{"huge-key.yaml": []byte("title: A 200 MB key\nkeys: {file: keys.txt}\nnodes: [a, b, c]\nprobes: [k1]\n")},
		setup: func(t *testing.T, _, dir string) { writeHugeKeys(t, filepath.Join(dir, "keys.txt"), 200<<20) },
		args:  []string{"build", "-o", "out", "huge-key.yaml"},
		check: func(t *testing.T, dir string) {
			checkBuilt(t, dir, "huge-key")
			if fi, err := os.Stat(filepath.Join(dir, "out", "huge-key", "report.md")); err == nil && fi.Size() > 1<<20 {
				t.Errorf("report.md is %d bytes: the huge key is printed whole", fi.Size())
			}
		},
	})
	return cases
}

// writeHugeKeys writes a keys file whose first key is size bytes long,
// without holding it in memory.
func writeHugeKeys(t *testing.T, name string, size int) {
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	chunk := bytes.Repeat([]byte("k"), 1<<20)
	for n := 0; n < size; n += len(chunk) {
		w.Write(chunk[:min(len(chunk), size-n)])
	}
	for i := range 100 {
		fmt.Fprintf(w, "\nk%d", i)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// commandCases are the hostile classes of issue 18 that are about the
// command and the file system rather than a scenario's contents.
func commandCases() []boundCase {
	buildSmall := func(t *testing.T, bin, dir string) {
		cmd := exec.Command(bin, "build", "-o", "out", "s.yaml")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("build: %v\n%s", err, out)
		}
	}
	forged := "a\n::error file=README.md,line=1::forged\n.yaml"
	escape := "\x1b]8;;evil.example\a\x1b[2J\x1b[31mb.yaml"
	return []boundCase{
		{
			name:  "check-fifo-and-zero",
			files: map[string][]byte{"s.yaml": []byte(small)},
			setup: func(t *testing.T, bin, dir string) {
				buildSmall(t, bin, dir)
				page, data := filepath.Join(dir, "out/s/index.html"), filepath.Join(dir, "out/s/data.json")
				os.Remove(page)
				os.Remove(data)
				if err := syscall.Mkfifo(page, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("/dev/zero", data); err != nil {
					t.Fatal(err)
				}
			},
			args:   []string{"check", "-o", "out", "s.yaml"},
			want:   exitStale,
			stderr: `s/index.html \(a FIFO, not a regular file\)`,
		},
		{
			name:   "force-on-a-file",
			files:  map[string][]byte{"s.yaml": []byte(small), "notes.txt": []byte("keep")},
			args:   []string{"build", "-force", "-o", "notes.txt", "s.yaml"},
			want:   exitError,
			stderr: "refusing to replace notes.txt: it is a regular file",
			check: func(t *testing.T, dir string) {
				if data, err := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "keep" {
					t.Errorf("notes.txt = %q, %v", data, err)
				}
			},
		},
		{
			name:   "control-characters-in-file-names",
			files:  map[string][]byte{"s/" + forged: []byte("title: X\nkeys: 10\nnodes: [a]\nbogus: 1\n"), "s/" + escape: []byte("title: X\nkeys: 10\nnodes: [a]\nbogus: 1\n")},
			args:   []string{"validate", "s"},
			want:   exitError,
			stderr: `^"s/`, // TestFileNamesQuoted checks every line of every command
		},
		{
			name: "two-builds-at-once",
			// Two builds started at once: they overlap, and stay well
			// within the bound on a loaded two-core machine. A build takes
			// the lock once it has replayed, so builds of 5,000 keys (a
			// fifth of a second each) meet at the lock as often as builds
			// of 50,000 (in six runs of each by hand, one of the two was
			// refused by the lock 3 times in 3 at 5,000 keys, 2 in 3 at
			// 50,000), at a third of the CPU.
			files: map[string][]byte{"s.yaml": []byte(slowScenario("S", 5_000))},
			runs:  [][]string{{"build", "-o", "out", "s.yaml"}, {"build", "-o", "out", "s.yaml"}},
			check: func(t *testing.T, dir string) { checkBuilt(t, dir, "s") }, // TestBuildProcesses checks the rest
		},
	}
}
