package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/cost"
	"github.com/ringreport/ringreport/internal/scenario"
)

// gridShape is one adversarial shape of TestEstimateGrid: a scenario
// (and its keys file), what it stresses, and the flag that refuses it,
// or "" when it must build.
type gridShape struct {
	name, stresses string
	src            string
	keys           string // keys.txt, when src reads one
	refused        string
}

// gridBuildTime bounds a build of the grid on the loaded 2-core
// reference machine; the memory and output bounds are the estimate's.
const gridBuildTime = 60 * time.Second

// keyStep is the time of one key-step on the reference machine (see
// internal/cost), and gridCPUSlack how much more CPU a build of the grid
// may take than its estimated work: the shapes build side by side on a
// shared machine, whose neighbours slow every process alike (the CPU
// time of one build varied by up to 30% between runs).
const (
	keyStep      = 5 * time.Nanosecond
	gridCPUSlack = 1.5
)

// TestEstimateGrid builds a grid of adversarial shapes (issue 18) with
// the built command at the default limits. A shape the estimate accepts
// must build with a peak RSS (peakProcess) at most the estimate's Memory, an
// output folder at most its Output, CPU time (the command's and its
// children's, as the kernel counts it) at most its Work at keyStep with
// gridCPUSlack, within gridBuildTime; a shape it
// refuses must be refused, at a position and naming the flag, without
// writing anything. The shapes are small enough to build in about 6 s
// of CPU in all; cost's own doc names the bigger measurements behind its
// constants. The shapes build side by side, and beside the other process
// tests: the time bound is loose enough for a shared machine, and a
// process's peak RSS is its own whatever runs beside it (the largest
// two together hold under 500 MiB).
func TestEstimateGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every shape with the command")
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from Linux's rusage or GNU time")
	}
	t.Parallel()
	bin := binary(t)
	for _, sh := range gridShapes() {
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			runShape(t, bin, sh)
		})
	}
}

// runShape estimates sh in process and builds it with bin.
func runShape(t *testing.T, bin string, sh gridShape) {
	dir := t.TempDir()
	file := sh.name + ".yaml"
	writeFile(t, filepath.Join(dir, file), []byte(sh.src))
	if sh.keys != "" {
		writeFile(t, filepath.Join(dir, "keys.txt"), []byte(sh.keys))
	}
	opts := scenario.Options{ReadFile: func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(dir, name)) }}
	s, plan, perr := scenario.ParseStudy(file, []byte(sh.src), opts)
	cmd := newPeakProcess(t, context.Background(), dir, 0, bin, "build", "-o", "out", file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	rss, perr2 := cmd.Peak()
	if perr2 != nil {
		t.Fatalf("%v (%v)", perr2, err)
	}
	if sh.refused != "" {
		want := regexp.MustCompile("^" + regexp.QuoteMeta(file) + `:\d+:\d+: .*raise it with ` + regexp.QuoteMeta(sh.refused) + `\b`)
		if perr == nil || !want.MatchString(stderr.String()) || cmd.ProcessState.ExitCode() != exitError {
			t.Errorf("%s: want it refused at a position naming %s; exit %d:\n%s", sh.stresses, sh.refused, cmd.ProcessState.ExitCode(), clip(stderr.String()))
		}
		if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
			t.Error("a refused build wrote out/")
		}
		t.Logf("refused in %.2f s, peak RSS %d MiB", took.Seconds(), rss>>20)
		return
	}
	if perr != nil || err != nil {
		t.Fatalf("%s: want it built: parse: %v; build: %v\n%s", sh.stresses, perr, err, clip(stderr.String()))
	}
	e := cost.Study(cost.Of(s), s, plan)
	out := dirBytes(t, filepath.Join(dir, "out", sh.name))
	cpu, work := cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime(), time.Duration(e.Work())*keyStep
	t.Logf("%s: %.1f s, %.2f s of CPU of %.2f s estimated (%.3g key-steps), peak RSS %d MiB of %d estimated, output %d KiB of %d estimated",
		sh.stresses, took.Seconds(), cpu.Seconds(), work.Seconds(), float64(e.Work()), rss>>20, e.Memory>>20, out>>10, e.Output>>10)
	if cpu.Seconds() > work.Seconds()*gridCPUSlack {
		t.Errorf("took %.2f s of CPU, over the estimate of %.2f s (%.3g key-steps) by more than %.1f×", cpu.Seconds(), work.Seconds(), float64(e.Work()), gridCPUSlack)
	}
	if rss > e.Memory {
		t.Errorf("peak RSS %d MiB is over the estimate of %d MiB", rss>>20, e.Memory>>20)
	}
	if out > e.Output {
		t.Errorf("wrote %d KiB, over the estimate of %d KiB", out>>10, e.Output>>10)
	}
	if took > gridBuildTime {
		t.Errorf("took %.1f s, over %s", took.Seconds(), gridBuildTime)
	}
}

// dirBytes is the bytes of the regular files under dir.
func dirBytes(t *testing.T, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		fi, err := d.Info()
		n += fi.Size()
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "..."
	}
	return s
}

// gridNames returns n node names of size bytes (at least 12).
func gridNames(n, size int) []string {
	names := make([]string, n)
	for i := range names {
		p := fmt.Sprintf("n%05d-", i)
		names[i] = p + strings.Repeat("x", size-len(p))
	}
	return names
}

// failRecover writes steps that fail and recover the names in turn.
func failRecover(b *strings.Builder, names []string, steps int) {
	b.WriteString("steps:\n")
	for i := range steps / 2 {
		n := names[i%len(names)]
		fmt.Fprintf(b, "  - fail: %s\n  - recover: %s\n", n, n)
	}
}

// heavy is a scenario of rule over keys keys in which a node of weight
// 100 beside two of weight 1 fails and recovers at each of steps steps:
// every step moves nearly every key.
func heavy(title, rule string, keys, steps int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title: %s\nkeys: %d\nrules: [%s]\nnodes: [{name: a, weight: 100}, b, c]\nsteps:\n", title, keys, rule)
	for range steps / 2 {
		b.WriteString("  - {fail: a}\n  - {recover: a}\n")
	}
	return b.String()
}

// gridShapes are the shapes of TestEstimateGrid.
func gridShapes() []gridShape {
	var shapes []gridShape
	add := func(name, stresses, refused string, src string) {
		shapes = append(shapes, gridShape{name: name, stresses: stresses, src: src, refused: refused})
	}

	var b strings.Builder
	names := gridNames(30, 200)
	fmt.Fprintf(&b, "title: Probes\nkeys: 300\nreplicas: 8\nnodes: [%s]\nprobes: [", strings.Join(names, ", "))
	for i := range 16 {
		fmt.Fprintf(&b, "p%d, ", i)
	}
	b.WriteString("]\n")
	failRecover(&b, names, 200)
	add("probes", "200 steps × 30 names of 200 bytes × 8 replicas × 16 probes: member lists, probe tables, preference lists", "", b.String())

	b.Reset()
	fmt.Fprintf(&b, "title: Nodes\nkeys: 10000\nnodes: 10000\nsteps: [{add: x}, {remove: node-1}]\n")
	add("nodes", "10⁴ nodes over three states: loads, legends, a wheel tick a node, transfers per node", "", b.String())

	b.Reset()
	b.WriteString("title: Points\nkeys: 1000\nrules: [{rule: ring, vnodes: 100}]\nnodes:\n")
	for i := range 300 {
		fmt.Fprintf(&b, "  - {name: n%d, weight: 100}\n", i)
	}
	b.WriteString("steps: [{fail: n1}, {recover: n1}]\n")
	add("points", "3·10⁶ ring points over three states: the ring's build and its per-step points", "", b.String())

	add("maglev", "a maglev table of 10⁶ entries over 100 nodes, rebuilt at every state",
		"", "title: Maglev\nkeys: 10000\nnodes: 100\nrules: [{rule: maglev, m: 1000003}]\nsteps: [{add: x}, {remove: node-1}]\n")
	add("modulo", "modulo over 2·10⁵ keys and 300 nodes: nearly every key moves between 10⁵ pairs",
		"", "title: Modulo\nkeys: 200000\nnodes: 300\nrules: [modulo]\nsteps: [{add: x}]\n")
	b.Reset()
	b.WriteString("title: Pairs\nkeys: 200000\nnodes: 1000\nrules: [modulo]\nsteps:\n")
	for range 15 {
		b.WriteString("  - {add: extra}\n  - {remove: extra}\n")
	}
	add("pairs", "modulo over 1,000 nodes and 2·10⁵ keys, 30 steps: the result keeps a transfer pair per moved key at every state", "", b.String())
	add("sweep", "a vnodes sweep under 10 seeds: 30 replays beside the scenario",
		"", "title: Sweep\nkeys: 20000\nnodes: 10\nrules: [ring]\nsweep: {vnodes: [1, 16, 256]}\nseeds: 10\nsteps: [{add: x}]\n")

	var k strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&k, "key-%06d-%s\n", i, strings.Repeat("k", 100))
	}
	k.WriteString(strings.Repeat("h", 1<<20) + "\n") // one key of 1 MiB
	shapes = append(shapes, gridShape{name: "keysfile", stresses: "a keys file of 10⁵ keys of 112 bytes and one of 1 MiB",
		src: "title: Keys file\nkeys: {file: keys.txt}\nnodes: 10\nsteps: [{add: x}]\n", keys: k.String()})

	b.Reset()
	b.WriteString("title: Steps\nkeys: 1000\nnodes: 10\n")
	// 2,000 steps are 20 times the steps shown in full, and past what the
	// undo logs of 1,000 keys keep (undolog.Budget): the regime of 10⁴
	// steps, which cost five times the CPU (3.4 s) and memory (714 MiB).
	failRecover(&b, gridNames(10, 12), 2_000)
	add("steps", "2·10³ steps: figures for the 101 states shown in full, every state in data.json, steps.csv and the table of moves (all in full, 20 times the figures)",
		"", strings.Replace(b.String(), "nodes: 10\n", "nodes: ["+strings.Join(gridNames(10, 12), ", ")+"]\n", 1))

	add("moves", "a ring whose every step moves nearly every key (a heavy node fails and recovers): the moved keys' term",
		"", heavy("Moves", "ring", 200_000, 20))
	add("weighted-ranks", "rendezvous with weights, whose every step ranks every key afresh, a logarithm a pair",
		"", heavy("Weighted ranks", "rendezvous", 200_000, 30))
	b.Reset()
	b.WriteString("title: MD5\nkeys: 200000\nnodes: 3\nrules: [ketama]\nsteps:\n")
	for range 10 {
		b.WriteString("  - {add: x}\n  - {remove: x}\n")
	}
	add("md5-recur", "ketama (MD5) recomputing earlier placements, every key placed again at each with the rule's own hashes", "", b.String())
	arcs := gridNames(62, 200)
	add("arcs", "the densest ring wheel drawn arc by arc: 62 names of 200 bytes × 160 points, 9,982 arcs and ticks",
		"", "title: Arcs\nkeys: 2000\nrules: [ring]\nnodes: ["+strings.Join(arcs, ", ")+"]\nsteps: [{fail: "+arcs[0]+"}, {recover: "+arcs[0]+"}]\n")
	sampled := gridNames(1440, 200)
	add("sampled", "sampled wheels of as many arcs as samples: four rules over 1,440 names of 200 bytes",
		"", "title: Sampled\nkeys: 2000\nrules: [modulo, jump, rendezvous, maglev]\nnodes: ["+strings.Join(sampled, ", ")+"]\nsteps: [{fail: "+sampled[0]+"}, {recover: "+sampled[0]+"}]\n")

	b.Reset()
	b.WriteString("title: Wide steps\nkeys: 10000\nrules: [ring, modulo, jump, rendezvous, maglev]\nnodes: 150\n")
	b.WriteString("steps:\n")
	for range 5000 {
		b.WriteString("  - {add: extra}\n  - {remove: extra}\n")
	}
	add("steps-wide", "10⁴ steps of five rules over 150 nodes: 100 transfer pairs a state and rule in data.json", "-max-memory", b.String())

	b.Reset()
	b.WriteString("title: Ring points\nkeys: 1000\nrules: [{rule: ring, vnodes: 10}]\nnodes:\n")
	for i := range 1300 {
		fmt.Fprintf(&b, "  - {name: n%d, weight: 10000}\n", i)
	}
	add("ring-points", "1.3·10⁸ ring points (out of memory at 3.4 GB)", "-max-memory", b.String())
	add("maglev-huge", "the largest maglev table over 10⁴ nodes (20 s a table)", "-max-work",
		"title: Maglev\nkeys: 100000\nnodes: 10000\nrules: [{rule: maglev, m: 16777213}]\nsteps: [{add: x}, {remove: node-1}, {add: y}, {remove: node-2}]\n")
	add("seeds", "a vnodes sweep under 1,000 seeds: 5,000 replays", "-max-work",
		"title: Seeds\nkeys: 100000\nnodes: 10\nrules: [ring]\nsweep: {vnodes: [1, 4, 16, 64, 256]}\nseeds: 1000\nsteps: [{add: x}]\n")
	return shapes
}
