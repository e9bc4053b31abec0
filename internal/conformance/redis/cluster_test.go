package redis_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile/redis"
)

// node is one redis-server started by the test.
type node struct {
	name string // "127.0.0.1:port", as redis-cli and CLUSTER NODES spell it
	port int
	id   string // CLUSTER MYID
	cmd  *exec.Cmd
	c    *conn
}

// cluster is the test's set of nodes and the tools that drive them.
type cluster struct {
	t     *testing.T
	cli   string
	nodes []*node
	out   string // a folder for redis-cli's output, in memory when it can be
}

// startNodes starts n cluster-enabled redis-servers in the foreground on
// 127.0.0.1, each with its own folder, cluster bus port and no persistence;
// lab stops each by its process id when the test ends. The node timeout
// is 1 s (the default is 15), from the start. It sets what the test
// waits for: a master that joins stays in cluster_state fail for the
// rejoin delay, the node timeout (within 0.5–5 s), after it last saw
// itself in a minority, which a node that joins alone always does; and a
// stopped master is flagged failing after it. On 127.0.0.1 a ping is
// answered in well under a millisecond, so 1 s is no false failure even
// on a loaded machine (2 s made a run 6–8 s longer: 29–36 s against
// 22 s at a load of 6–10).
//
// The nodes start with cluster-require-full-coverage no (fullCoverage
// turns it back on). Only clusterUpdateState (cluster.c) reads it: with
// yes it scans all 16384 slots for an unassigned or failed one each time
// a node re-evaluates its state, which it does after every CLUSTER
// SETSLOT and every gossip packet that changes a slot, several times per
// slot a rebalance moves (7% of redis-server's CPU samples under perf
// during a rebalance; none with no). The setting decides only
// cluster_state, which redis-cli never reads (its --cluster commands look
// at CLUSTER NODES, INFO's cluster_enabled and CLUSTER INFO's
// cluster_known_nodes), and while every slot is assigned to a live master
// both settings give cluster_state ok, so the plans and tables are the
// same; --cluster check in settle still proves every slot covered.
func startNodes(t *testing.T, server, cli string, n int) *cluster {
	ports := lab.FreePorts(t, 2*n)
	cl := &cluster{t: t, cli: cli, out: memDir(t)}
	for i := range n {
		port, bus := ports[i], ports[n+i]
		dir := memDir(t)
		cmd := lab.Start(t, server,
			"--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
			"--dir", dir, "--cluster-enabled", "yes", "--cluster-port", strconv.Itoa(bus),
			"--cluster-config-file", filepath.Join(dir, "nodes.conf"),
			"--cluster-node-timeout", "1000", "--cluster-require-full-coverage", "no",
			"--save", "", "--appendonly", "no",
			"--daemonize", "no", "--maxmemory", "64mb", "--loglevel", "warning")
		cl.nodes = append(cl.nodes, &node{name: fmt.Sprintf("127.0.0.1:%d", port), port: port, cmd: cmd})
	}
	for _, nd := range cl.nodes {
		lab.WaitListen(t, nd.port)
		nd.c = dial(t, nd.port)
		nd.id = nd.c.do(t, "CLUSTER", "MYID").Str
		if len(nd.id) != 40 {
			t.Fatalf("%s: CLUSTER MYID = %q", nd.name, nd.id)
		}
	}
	return cl
}

// memDir returns a new folder for one node's nodes.conf (or for
// redis-cli's output), on /dev/shm
// when it is a memory file system, else t.TempDir(), removed when the
// test ends. Redis rewrites and fsyncs nodes.conf after every CLUSTER
// SETSLOT, several times per slot a rebalance moves: on a disk that is
// a third of the test's time (37 s on disk, 27–29 s here, measured).
func memDir(t *testing.T) string {
	t.Helper()
	var st syscall.Statfs_t
	if syscall.Statfs("/dev/shm", &st) != nil || st.Type != tmpfsMagic {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("/dev/shm", "ringreport-redis-")
	if err != nil {
		return t.TempDir()
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// tmpfsMagic is Linux's TMPFS_MAGIC, the f_type of a tmpfs.
const tmpfsMagic = 0x01021994

// run runs redis-cli and returns its standard output; it fails the test
// with redis-cli's standard error when redis-cli exits non-zero. The
// output goes to a file, not a pipe: a rebalance prints and flushes one
// '#' per slot moved, and through a pipe each of them woke this process
// (measured on a story of 12,155 moves: the test process used 0.96 CPU-s
// with a pipe, 0.10 with a file).
func (cl *cluster) run(args ...string) string {
	cl.t.Helper()
	f, err := os.CreateTemp(cl.out, "redis-cli-*.out")
	if err != nil {
		cl.t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(cl.cli, args...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = f, &stderr
	if err := cmd.Run(); err != nil {
		cl.t.Fatalf("%s %s: %v\n%s", cl.cli, strings.Join(args, " "), err, stderr.String())
	}
	out, err := os.ReadFile(f.Name())
	if err != nil {
		cl.t.Fatal(err)
	}
	return string(out)
}

// addNode runs `redis-cli --cluster add-node n entry` and waits until
// every member, n among them, knows exactly the members and --cluster
// check passes: what the next redis-cli command (another add-node, a
// rebalance) needs. It does not wait for n to leave cluster_state fail,
// which takes the rejoin delay (the node timeout) and is none of redis-cli's
// concern; the settle after the step's rebalance waits for that.
func (cl *cluster) addNode(n, entry *node, members []*node) {
	cl.t.Helper()
	cl.run("--cluster", "add-node", n.name, entry.name)
	cl.wait(entry, members, false)
}

// checkOK reports whether `redis-cli --cluster check entry` finds the
// cluster sane: every node agreeing, no open slot, every slot covered.
func (cl *cluster) checkOK(entry *node) (bool, string) {
	out, err := exec.Command(cl.cli, "--cluster", "check", entry.name).CombinedOutput()
	s := string(out)
	ok := err == nil && strings.Contains(s, "[OK] All nodes agree about slots configuration.") &&
		strings.Contains(s, "[OK] All 16384 slots covered.") && !strings.Contains(s, "[ERR]") &&
		!strings.Contains(s, "[WARNING]")
	return ok, s
}

// settle waits, for at most 15 s, until every member knows exactly the
// other members (no handshake, no failure flag) and reports cluster_state
// ok, and --cluster check from entry passes.
func (cl *cluster) settle(entry *node, members []*node) {
	cl.t.Helper()
	cl.wait(entry, members, true)
}

// wait is settle, with cluster_state ok required only when stateOK is
// set. It polls with a backoff from 5 to 100 ms: most waits end within
// tens of milliseconds, and a fixed 100 ms step added that much to each.
func (cl *cluster) wait(entry *node, members []*node, stateOK bool) {
	cl.t.Helper()
	var last string
	ok := poll(15*time.Second, func() bool {
		if why := cl.disagreement(members, stateOK); why != "" {
			last = why
		} else if ok, out := cl.checkOK(entry); !ok {
			last = out
		} else {
			return true
		}
		return false
	})
	if !ok {
		cl.t.Fatalf("cluster not consistent after 15 s:\n%s", last)
	}
}

// poll calls done until it returns true, sleeping 5 ms after the first
// call and doubling the sleep up to 100 ms, and reports false if done has
// not returned true within limit.
func poll(limit time.Duration, done func() bool) bool {
	deadline := time.Now().Add(limit)
	for sleep := 5 * time.Millisecond; ; sleep = min(2*sleep, 100*time.Millisecond) {
		if done() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(sleep)
	}
}

// disagreement says why some member does not yet list exactly members as
// healthy nodes (or, with stateOK, is not in cluster_state ok), or "" when
// all do.
func (cl *cluster) disagreement(members []*node, stateOK bool) string {
	want := make(map[string]bool)
	for _, m := range members {
		want[m.name] = true
	}
	for _, m := range members {
		if info := m.c.do(cl.t, "CLUSTER", "INFO").Str; stateOK && !strings.Contains(info, "cluster_state:ok\r\n") {
			return m.name + " is not in cluster_state ok"
		}
		lines := clusterNodes(cl.t, m)
		if len(lines) != len(members) {
			return fmt.Sprintf("%s lists %d nodes, want %d", m.name, len(lines), len(members))
		}
		for _, l := range lines {
			if !want[l.addr] || strings.Contains(l.flags, "handshake") ||
				strings.Contains(l.flags, "fail") || strings.Contains(l.flags, "noaddr") {
				return fmt.Sprintf("%s lists %s %s", m.name, l.addr, l.flags)
			}
		}
	}
	return ""
}

// nodeLine is one line of CLUSTER NODES.
type nodeLine struct{ id, addr, flags string }

// clusterNodes returns n's CLUSTER NODES lines in the order n lists them;
// addr is "ip:port" without the bus port.
func clusterNodes(t testing.TB, n *node) []nodeLine {
	t.Helper()
	r := n.c.do(t, "CLUSTER", "NODES")
	if r.Kind != '$' {
		t.Fatalf("%s CLUSTER NODES: %+v", n.name, r)
	}
	var out []nodeLine
	for _, l := range strings.Split(strings.TrimSpace(r.Str), "\n") {
		f := strings.Fields(l)
		if len(f) < 8 {
			t.Fatalf("%s CLUSTER NODES line %q", n.name, l)
		}
		addr, _, _ := strings.Cut(f[1], "@")
		out = append(out, nodeLine{id: f[0], addr: addr, flags: f[2]})
	}
	return out
}

// plannerOrder is the node order redis-cli's planner sees when entry is
// its entry node (clusterManagerLoadInfoFromNode): entry itself, then the
// other nodes in entry's CLUSTER NODES order.
func plannerOrder(t testing.TB, entry *node) []string {
	order := []string{entry.name}
	for _, l := range clusterNodes(t, entry) {
		if !strings.Contains(l.flags, "myself") {
			order = append(order, l.addr)
		}
	}
	return order
}

// slotTable returns each slot's master address from n's CLUSTER SLOTS
// ("" for a slot it does not list).
func slotTable(t testing.TB, n *node) []string {
	t.Helper()
	r := n.c.do(t, "CLUSTER", "SLOTS")
	if r.Kind != '*' {
		t.Fatalf("%s CLUSTER SLOTS: %+v", n.name, r)
	}
	table := make([]string, redis.Slots)
	for _, e := range r.Arr {
		if len(e.Arr) < 3 || len(e.Arr[2].Arr) < 2 {
			t.Fatalf("%s CLUSTER SLOTS entry %+v", n.name, e)
		}
		addr := fmt.Sprintf("%s:%d", e.Arr[2].Arr[0].Str, e.Arr[2].Arr[1].Int)
		for s := e.Arr[0].Int; s <= e.Arr[1].Int; s++ {
			table[s] = addr
		}
	}
	return table
}

var (
	moveLine = regexp.MustCompile(`(?m)^Moving (\d+) slots from (\S+) to (\S+)$`)
	ansi     = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// moves parses the "Moving N slots from A to B" lines of a rebalance
// (redis-cli colours its other lines even when writing to a pipe).
func moves(out string) []redis.Move {
	var ms []redis.Move
	for _, m := range moveLine.FindAllStringSubmatch(ansi.ReplaceAllString(out, ""), -1) {
		n, _ := strconv.Atoi(m[1])
		ms = append(ms, redis.Move{From: m[2], To: m[3], Slots: n})
	}
	return ms
}

// stop shuts n down with SHUTDOWN NOSAVE and waits, for at most 5 s, until
// its process id is gone.
func (cl *cluster) stop(n *node) {
	cl.t.Helper()
	_ = exec.Command(cl.cli, "-p", strconv.Itoa(n.port), "shutdown", "nosave").Run()
	pid := n.cmd.Process.Pid
	gone := poll(5*time.Second, func() bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) })
	if !gone {
		cl.t.Fatalf("%s (pid %d) still runs 5 s after SHUTDOWN NOSAVE", n.name, pid)
	}
}

// fullCoverage sets cluster-require-full-coverage to v ("yes" or "no")
// on each node of ns, at run time as an operator would.
func (cl *cluster) fullCoverage(ns []*node, v string) {
	cl.t.Helper()
	for _, n := range ns {
		if r := n.c.do(cl.t, "CONFIG", "SET", "cluster-require-full-coverage", v); r.Kind != '+' {
			cl.t.Fatalf("%s CONFIG SET cluster-require-full-coverage %s: %+v", n.name, v, r)
		}
	}
}

// waitInfo waits, for at most 20 s, until every node in ns reports
// cluster_state:want in CLUSTER INFO.
func (cl *cluster) waitInfo(ns []*node, want string) {
	cl.t.Helper()
	ok := poll(20*time.Second, func() bool {
		for _, n := range ns {
			if !strings.Contains(n.c.do(cl.t, "CLUSTER", "INFO").Str, "cluster_state:"+want+"\r\n") {
				return false
			}
		}
		return true
	})
	if !ok {
		cl.t.Fatalf("cluster_state is not %s on every node after 20 s", want)
	}
}
