package nodesfrom

// The product-validation tests: every configuration the tables accept,
// the products accept too, and every one the tables refuse (where the
// product refuses it as well), the product refuses. They run the real
// binaries when they are installed; without them the tests skip, and
// under CI=true they fail (lab.Need).

import (
	"fmt"
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
	id := make([]string, 3)
	for i := range 3 {
		id[i] = redis(i, "cluster", "myid")
	}
	for i := 1; i < 3; i++ {
		redis(0, "cluster", "meet", "127.0.0.1", itoa(ports[i]), itoa(ports[i+3]))
	}
	redis(0, "cluster", "addslotsrange", "0", "5000", "5005", "5005")
	redis(1, "cluster", "addslotsrange", "5001", "5004", "5006", "16383")
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
	redis(2, "cluster", "replicate", id[0])
	redis(0, "cluster", "setslot", "5005", "migrating", id[1])
	redis(1, "cluster", "setslot", "5005", "importing", id[0])
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
	redis(0, "cluster", "saveconfig")
	conf, err := os.ReadFile(filepath.Join(dir, "nodes-"+itoa(ports[0])+".conf"))
	if err != nil {
		t.Fatal(err)
	}
	check("nodes.conf", string(conf))
}
