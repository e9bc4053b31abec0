package nodesfrom

// The product-validation tests: every configuration the tables accept,
// the products accept too, and every one the tables refuse (where the
// product refuses it as well), the product refuses. They run the real
// binaries when they are installed; without them the tests skip, and
// under CI=true they fail (lab.Need).

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/conformance/lab"
)

// ngxStreamModule is where Debian's libnginx-mod-stream puts the stream
// module.
const ngxStreamModule = "/usr/lib/nginx/modules/ngx_stream_module.so"

// ngxErrLine finds the line of a case file in nginx's message.
var ngxErrLine = regexp.MustCompile(`case\d+\.conf:(\d+)`)

// nginxCheck returns a function that runs nginx -t on a configuration
// made of the case's text, included from a main file with the pid,
// error_log and events{} that nginx needs, and reports whether nginx
// accepts it and what it said.
func nginxCheck(t *testing.T) func(conf string) (bool, string) {
	bin := lab.Need(t, "nginx", "nginx-light")
	stream := ""
	if _, err := os.Stat(ngxStreamModule); err == nil {
		stream = "load_module " + ngxStreamModule + ";\n"
	} else if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found; install Debian package libnginx-mod-stream (CI=true: .ci/run must install it)", ngxStreamModule)
	}
	dir := t.TempDir()
	// the file the tables' include lines name, empty
	if err := os.WriteFile(filepath.Join(dir, "mime.types"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "main.conf")
	errlog := filepath.Join(dir, "error.log")
	k := 0
	return func(conf string) (bool, string) {
		if stream == "" && strings.Contains(conf, "stream") {
			t.Skipf("%s not found; install Debian package libnginx-mod-stream", ngxStreamModule)
		}
		k++
		file := filepath.Join(dir, "case"+itoa(k)+".conf")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		m := stream + "pid " + filepath.Join(dir, "nginx.pid") + ";\nerror_log " + errlog + ";\nevents {}\ninclude " + file + ";\n"
		if err := os.WriteFile(main, []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "-t", "-q", "-p", dir, "-c", main, "-e", errlog).CombinedOutput()
		return err == nil, strings.TrimSpace(string(out))
	}
}

func TestNginxAcceptsWhatParseAccepts(t *testing.T) {
	t.Parallel() // mostly waiting for the products
	check := nginxCheck(t)
	for _, c := range nginxCases {
		t.Run(c.name, func(t *testing.T) {
			if c.product != "" {
				t.Skip(c.product)
			}
			ok, out := check(c.in)
			switch {
			case len(c.errs) == 0 && !ok:
				t.Errorf("Parse accepts it, nginx does not:\n%s\n%s", c.in, out)
			case len(c.errs) > 0 && ok:
				t.Errorf("Parse refuses it (%s), nginx accepts it:\n%s", c.errs[0], c.in)
			case len(c.errs) > 0:
				// nginx names the line it stopped at: Parse's first
				// problem is on it, or before it when Parse points at
				// the start of what nginx found wrong at its end (an
				// upstream with no servers, a quote never closed)
				m := ngxErrLine.FindStringSubmatch(out)
				line, _, _ := strings.Cut(c.errs[0], ":")
				if m == nil || atoi(line) > atoi(m[1]) {
					t.Errorf("Parse's first problem is %s; nginx says:\n%s", c.errs[0], out)
				}
			}
		})
	}
	for _, c := range nginxBadServers {
		t.Run(c.line, func(t *testing.T) {
			if ok, _ := check("http { upstream c { " + c.line + " } }\n"); ok {
				t.Errorf("Parse refuses %q (%s), nginx accepts it", c.line, c.err)
			}
		})
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// hapErrLine finds the line of the case file in HAProxy's alerts.
var hapErrLine = regexp.MustCompile(`case\d+\.cfg:(\d+)\]`)

// haproxyCheck returns a function that runs haproxy -c on a
// configuration and reports whether HAProxy accepts it (it may warn, and
// says "no listener" for a file without a frontend: that is accepted too)
// and what it said.
func haproxyCheck(t *testing.T) func(conf string) (bool, string) {
	bin := lab.Need(t, "haproxy", "haproxy")
	dir := t.TempDir()
	k := 0
	return func(conf string) (bool, string) {
		k++
		file := filepath.Join(dir, "case"+itoa(k)+".cfg")
		if err := os.WriteFile(file, []byte(conf), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _ := exec.Command(bin, "-c", "-f", file).CombinedOutput()
		s := string(out)
		ok := strings.Contains(s, "Configuration file is valid") || strings.Contains(s, "Configuration file has no error")
		return ok, strings.TrimSpace(s)
	}
}

func TestHAProxyAcceptsWhatParseAccepts(t *testing.T) {
	t.Parallel() // mostly waiting for the products
	check := haproxyCheck(t)
	for _, c := range haproxyCases {
		t.Run(c.name, func(t *testing.T) {
			if c.product != "" {
				t.Skip(c.product)
			}
			ok, out := check(c.in)
			switch {
			case len(c.errs) == 0 && !ok:
				t.Errorf("Parse accepts it, HAProxy does not:\n%s\n%s", c.in, out)
			case len(c.errs) > 0 && ok:
				t.Errorf("Parse refuses it (%s), HAProxy accepts it:\n%s", c.errs[0], c.in)
			case len(c.errs) > 0:
				m := hapErrLine.FindStringSubmatch(out)
				line, _, _ := strings.Cut(c.errs[0], ":")
				if m != nil && atoi(line) > atoi(m[1]) {
					t.Errorf("Parse's first problem is %s; HAProxy says:\n%s", c.errs[0], out)
				}
			}
		})
	}
	for _, c := range haproxyBadServers {
		t.Run(c.line, func(t *testing.T) {
			if ok, _ := check("backend b\n    " + c.line + "\n"); ok {
				t.Errorf("Parse refuses %q (%s), HAProxy accepts it", c.line, c.err)
			}
		})
	}
	for _, c := range haproxyStricter {
		t.Run(c.line, func(t *testing.T) {
			if ok, out := check("backend b\n    " + c.line + "\n"); !ok {
				t.Errorf("%q is listed as one HAProxy accepts; it does not:\n%s", c.line, out)
			}
		})
	}
}

// TestRedisNodesFromARealCluster starts three Redis nodes in cluster mode
// on 127.0.0.1 (two masters, one replica), gives the masters slots with
// one slot migrating, and checks that ParseRedisNodes reads CLUSTER NODES
// and the node's nodes.conf as the cluster set them.
func TestRedisNodesFromARealCluster(t *testing.T) {
	t.Parallel() // mostly waiting for the products
	server := lab.Need(t, "redis-server", "redis-server")
	cli := lab.Need(t, "redis-cli", "redis-tools")
	dir := t.TempDir()
	ports := lab.FreePorts(t, 6) // three clients', three cluster buses'
	for i := range 3 {
		p, bus := itoa(ports[i]), itoa(ports[i+3])
		lab.Start(t, server, "--port", p, "--bind", "127.0.0.1", "--cluster-enabled", "yes",
			"--cluster-port", bus, "--cluster-config-file", filepath.Join(dir, "nodes-"+p+".conf"),
			"--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no")
	}
	for i := range 3 {
		lab.WaitListen(t, ports[i])
	}
	redis := func(i int, args ...string) string {
		return strings.TrimSpace(lab.Run(t, cli, append([]string{"-h", "127.0.0.1", "-p", itoa(ports[i])}, args...)...))
	}
	// ok sends a command until it answers OK: a node that has not yet
	// heard of another through the cluster bus refuses commands naming it
	ok := func(i int, args ...string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			reply := redis(i, args...)
			if reply == "OK" {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d: %s: %s", i, strings.Join(args, " "), reply)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	id := make([]string, 3)
	for i := range 3 {
		id[i] = redis(i, "cluster", "myid")
	}
	for i := 1; i < 3; i++ {
		ok(0, "cluster", "meet", "127.0.0.1", itoa(ports[i]), itoa(ports[i+3]))
	}
	ok(0, "cluster", "addslotsrange", "0", "5000", "5005", "5005")
	ok(1, "cluster", "addslotsrange", "5001", "5004", "5006", "16383")
	want := []SlotRange{{0, 5000, 0}, {5001, 5004, 1}, {5005, 5005, 0}, {5006, 16383, 1}}
	// wait until node 0 knows the others and their slots, then make
	// node 2 a replica and start moving slot 5005
	var out string
	settled := func(cond func([]Node, []SlotRange) bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			out = redis(0, "cluster", "nodes")
			nodes, slots, errs := ParseRedisNodes([]byte(out))
			if len(errs) == 0 && cond(nodes, slots) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the cluster did not settle in 10 s; CLUSTER NODES:\n%s\nproblems: %v", out, errs)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	settled(func(nodes []Node, slots []SlotRange) bool { return len(nodes) == 3 && len(slots) == 4 })
	ok(2, "cluster", "replicate", id[0])
	ok(0, "cluster", "setslot", "5005", "migrating", id[1])
	ok(1, "cluster", "setslot", "5005", "importing", id[0])
	settled(func(nodes []Node, slots []SlotRange) bool { return len(nodes) == 2 && strings.Contains(out, "->-") })

	check := func(what, text string) {
		nodes, slots, errs := ParseRedisNodes([]byte(text))
		if len(errs) > 0 {
			t.Fatalf("%s: %v\n%s", what, errs, text)
		}
		byName := map[string]int{}
		for i, n := range nodes {
			byName[n.Name] = i
			if n.Weight != 1 || n.Down || n.Line == 0 {
				t.Errorf("%s: node %+v", what, n)
			}
		}
		for i := range 2 {
			k, ok := byName["127.0.0.1:"+itoa(ports[i])]
			if !ok || nodes[k].Label != id[i] {
				t.Fatalf("%s: master %d (%s) missing or with another id:\n%s", what, i, id[i], text)
			}
		}
		var got []SlotRange
		for _, s := range slots {
			got = append(got, SlotRange{s.First, s.Last, map[string]int{"127.0.0.1:" + itoa(ports[0]): 0, "127.0.0.1:" + itoa(ports[1]): 1}[nodes[s.Node].Name]})
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: slots %v, want %v:\n%s", what, got, want, text)
		}
	}
	t.Logf("CLUSTER NODES:\n%s", out)
	check("CLUSTER NODES", out)
	ok(0, "cluster", "saveconfig")
	conf, err := os.ReadFile(filepath.Join(dir, "nodes-"+itoa(ports[0])+".conf"))
	if err != nil {
		t.Fatal(err)
	}
	check("nodes.conf", string(conf))
}

// mcLib runs testdata/mcparse.c, built against the installed
// libmemcached, on lines "c\tTEXT" (a configuration string, through
// memcached()) or "l\tTEXT" (a server list, through
// memcached_servers_parse) and returns its answer for each: "err", or
// "ok" and the servers.
func mcLib(t *testing.T, lines []string) []string {
	t.Helper()
	gcc := lab.Need(t, "gcc", "gcc")
	pc := lab.Need(t, "pkg-config", "pkg-config")
	if err := exec.Command(pc, "--exists", "libmemcached").Run(); err != nil {
		msg := "pkg-config finds no libmemcached; install Debian package libmemcached-dev"
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (CI=true: .ci/run must install it)", msg)
		}
		t.Skip(msg)
	}
	flags := strings.Fields(lab.Run(t, pc, "--cflags", "--libs", "libmemcached"))
	bin := filepath.Join(t.TempDir(), "mcparse")
	lab.Run(t, gcc, append([]string{"-O1", "-Wall", "-o", bin, filepath.Join("testdata", "mcparse.c")}, flags...)...)
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	out, err := cmd.Output() // the parser's debug trace, if any, goes to stderr
	if err != nil {
		t.Fatalf("mcparse: %v", err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(got) != len(lines) {
		t.Fatalf("mcparse answered %d lines for %d", len(got), len(lines))
	}
	return got
}

// mcMode is how Parse reads a line: 'c' a configuration string, 'l' a
// server list; and the text libmemcached is given.
func mcMode(line string) (byte, string) {
	if rest, ok := strings.CutPrefix(line, "--servers="); ok {
		return 'l', rest
	}
	if strings.HasPrefix(line, "--") {
		return 'c', line
	}
	return 'l', line
}

// mcOurs renders Parse's servers of one line as mcparse does: host:port
// (a configuration string) or host:port:weight (a server list), with
// libmemcached's default port 11211, or 0 for a socket.
func mcOurs(mode byte, text string, nodes []Node) string {
	var b strings.Builder
	b.WriteString("ok")
	for _, n := range nodes {
		hp := n.Name
		host := hp[strings.LastIndexByte(hp, ']')+1:]
		socket := strings.HasPrefix(hp, "/")
		if mode == 'c' {
			socket = len(text) >= n.Col+8 && strings.EqualFold(text[n.Col-1:n.Col+8], "--SOCKET=")
		}
		switch {
		case socket:
			hp += ":0"
		case !strings.Contains(host, ":"):
			hp += ":11211"
		}
		b.WriteString("\t" + hp)
		if mode == 'l' {
			b.WriteString(":" + itoa(n.Weight))
		}
	}
	return b.String()
}

func TestMemcachedAgreesWithLibmemcached(t *testing.T) {
	t.Parallel() // mostly waiting for the products
	// every line of the accepted tables, every bad line, and lines made
	// at random from the pieces of the syntax
	type line struct {
		text  string
		nodes []Node
		errs  []Error
	}
	var lines []line
	addLine := func(text string) {
		nodes, errs := Parse("libmemcached", []byte(text+"\n"), "")
		lines = append(lines, line{text, nodes, errs})
	}
	for _, c := range memcachedCases {
		if len(c.errs) > 0 {
			continue
		}
		for _, l := range strings.Split(c.in, "\n") {
			l = strings.TrimSpace(l)
			if l != "" && !strings.HasPrefix(l, "#") && !strings.Contains(l, "RESET") && !strings.Contains(l, "END") {
				addLine(l)
			}
		}
	}
	for _, c := range memcachedBadLines {
		addLine(c.line)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	hosts := []string{"10.0.0.1", "1.2.3.4.5", "cache-1.example", "abc", "ab", "a", "random", "end.example", "host_1", "-ab", "ab-", "a\"b", "999.1.1.1", "10.0.0.1000", "CRC", "md5x"}
	ports := []string{"", "", ":11211", ":1", ":0", ":65535", ":65536", ":99999", ":123456", ":", ":08080"}
	weights := []string{"", "", "/?1", "/?0", "/?7", "/?99999", "/?123456", "/?", "/?x"}
	options := []string{"--HASH=MD5", "--HASH=crc", "--HASH=HSIEH", "--HASH=JENKINS", "--HASH=MURMUR", "--DISTRIBUTION=consistent", "--DISTRIBUTION=modula,FNV1A_32", "--DISTRIBUTION=consistent,hsieh",
		"--DISTRIBUTION=random,md5", "--POLL-TIMEOUT=5", "--POLL-TIMEOUT=x", "--NOREPLY", "--BINARY-PROTOCOL", "--NAMESPACE=\"x y\"", "--NAMESPACE=abc",
		"--SOCKET=\"/tmp/a.sock\"", "--SOCKET=\"/tmp/b.sock\"/?4", "--FOO", "--SORT-HOSTS", "--NUMBER-OF-REPLICAS=2", "--USE-UDP", "--SUPPORT-CAS", "RESET", "END", "TRUE", "#x"}
	seps := []string{" ", " ", " ", "  ", "\t", ",", " \t"}
	for range 4000 {
		var b strings.Builder
		for k := range 1 + rng.IntN(4) {
			if k > 0 {
				b.WriteString(pick(seps))
			}
			if rng.IntN(3) == 0 {
				b.WriteString(pick(options))
			} else {
				b.WriteString(pick([]string{"--SERVER=", "--server="}) + pick(hosts) + pick(ports) + pick(weights))
			}
		}
		addLine(strings.TrimSpace(b.String()))
	}
	listHosts := []string{"10.0.0.1", "cache-b", "[::1]", "[::1", "/tmp/m.sock", "", " a", "a b"}
	listPorts := []string{"", ":11211", ":0", ":x", ":", ":65536", ":99"}
	listWeights := []string{"", "", " 2", ":3", ":0", " x", ":4294967295", ":4294967296"}
	for range 1000 {
		var parts []string
		for range 1 + rng.IntN(4) {
			parts = append(parts, pick(listHosts)+pick(listPorts)+pick(listWeights))
		}
		addLine(strings.TrimSpace(strings.Join(parts, pick([]string{",", ", "}))))
	}

	var input []string
	for _, l := range lines {
		mode, text := mcMode(l.text)
		input = append(input, string(mode)+"\t"+text)
	}
	answers := mcLib(t, input)
	agree, stricter := 0, 0
	for i, l := range lines {
		mode, _ := mcMode(l.text)
		lib := answers[i]
		switch {
		case len(l.errs) == 0:
			if want := mcOurs(mode, l.text, l.nodes); lib != want {
				t.Errorf("%q: Parse reads %s, libmemcached %s", l.text, want, lib)
				continue
			}
			agree++
		case lib == "err" || lib == "ok":
			agree++ // both refuse (or libmemcached reads no server, which Parse refuses)
		case mode == 'l' || strings.Contains(l.errs[0].Msg, "is not from 1 to 65535"):
			stricter++ // memcached_servers_parse reads anything; ports 0 and above 65535 wrap
		default:
			t.Errorf("%q: Parse refuses it (%s), libmemcached reads %s", l.text, l.errs[0].Error(), lib)
		}
	}
	t.Logf("%d lines: %d read alike, %d refused by Parse alone (server lists libmemcached reads without checking, ports it wraps)", len(lines), agree, stricter)
}
