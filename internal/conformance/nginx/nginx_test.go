// Package nginx_test checks internal/profile/nginx against the real nginx
// installed on this machine (Debian's 1.22.1): for every key and every step
// of several membership stories, the server nginx proxies the request to
// must be the one Owners(h, 1) names.
package nginx_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/nginx"
)

// backend is one upstream server line: its text in the configuration, the
// address nginx reports in $upstream_addr, and where a backend listens.
type backend struct {
	name   string // server directive text, e.g. "127.0.0.1:8001", "unix:/…/a.sock"
	addr   string // $upstream_addr for it
	listen string // listen directive argument
	weight int
	down   bool
}

// tcp returns a backend named 127.0.0.1:port.
func tcp(port, weight int) backend {
	a := fmt.Sprintf("127.0.0.1:%d", port)
	return backend{name: a, addr: a, listen: a, weight: weight}
}

// upstream is one upstream block of a step's configuration.
type upstream struct {
	name       string // also its location, /name
	consistent bool
	servers    []backend
}

// servers returns the membership of u for the profile package.
func (u upstream) profileServers() []profile.Server {
	out := make([]profile.Server, len(u.servers))
	for i, b := range u.servers {
		out[i] = profile.Server{Name: b.name, Weight: b.weight, Down: b.down}
	}
	return out
}

// writeConfig writes nginx.conf for the upstreams into dir: one process,
// in the foreground, every file inside dir, a front end on 127.0.0.1:front
// proxying /NAME to upstream NAME with no retry and reporting the peer it
// chose in X-Upstream, and every backend answering "ok".
func writeConfig(t *testing.T, dir string, front int, ups []upstream) string {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "daemon off;\nmaster_process off;\nworker_processes 1;\n")
	fmt.Fprintf(&b, "pid %s;\nerror_log %s warn;\n", filepath.Join(dir, "nginx.pid"), filepath.Join(dir, "error.log"))
	// connections: the front end's, and per upstream up to one kept-alive
	// connection to each peer (about 200 peers in all), each counted at
	// both of its ends
	fmt.Fprintf(&b, "events { worker_connections 2048; }\nhttp {\n  access_log off;\n  keepalive_requests 100000;\n")
	for _, p := range []string{"client_body", "proxy", "fastcgi", "uwsgi", "scgi"} {
		fmt.Fprintf(&b, "  %s_temp_path %s;\n", p, filepath.Join(dir, p+"_temp"))
	}
	listen := map[string]bool{}
	var listens []string
	for _, u := range ups {
		method := "hash $http_x_key"
		if u.consistent {
			method += " consistent"
		}
		fmt.Fprintf(&b, "  upstream %s {\n    %s;\n", u.name, method)
		for _, s := range u.servers {
			// max_fails=0: no failure accounting, so one request cannot
			// change where the next goes
			fmt.Fprintf(&b, "    server %s weight=%d max_fails=0", s.name, s.weight)
			if s.down {
				b.WriteString(" down")
			}
			b.WriteString(";\n")
			if !listen[s.listen] {
				listen[s.listen] = true
				listens = append(listens, s.listen)
			}
		}
		// kept-alive connections to the backends, so that a run leaves no
		// thousands of sockets in TIME_WAIT; the keepalive module asks the
		// hash balancer first and only then looks for an idle connection
		// to the peer it chose
		b.WriteString("    keepalive 64;\n  }\n")
	}
	fmt.Fprintf(&b, "  server {\n    listen 127.0.0.1:%d;\n", front)
	for _, u := range ups {
		fmt.Fprintf(&b, "    location = /%s {\n      proxy_pass http://%s;\n      proxy_next_upstream off;\n"+
			"      proxy_http_version 1.1;\n      proxy_set_header Connection \"\";\n"+
			"      add_header X-Upstream $upstream_addr always;\n    }\n", u.name, u.name)
	}
	b.WriteString("  }\n  server {\n")
	for _, l := range listens {
		fmt.Fprintf(&b, "    listen %s;\n", l)
	}
	b.WriteString("    return 200 \"ok\";\n  }\n}\n")
	path := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runNginx starts nginx on the configuration for ups with its front end on
// 127.0.0.1:front; the test's cleanup stops it by its process id.
func runNginx(t *testing.T, bin string, front int, ups []upstream) {
	t.Helper()
	dir := t.TempDir()
	conf := writeConfig(t, dir, front, ups)
	errlog := filepath.Join(dir, "error.log")
	lab.Run(t, bin, "-t", "-q", "-p", dir, "-c", conf, "-e", errlog)
	lab.Start(t, bin, "-p", dir, "-c", conf, "-e", errlog)
	lab.WaitListen(t, front)
}

// askAll asks nginx for every key at path and returns the X-Upstream it
// reports for each, in key order. The requests go ahead of the answers on
// one kept-alive connection (HTTP/1.1 pipelining: nginx answers them one
// after the other, in order), so that a batch of requests costs a write
// and a read instead of a round trip each; nginx proxies each as it would
// a lone one. One connection keeps the order in which nginx sees the
// requests the key order, which storyFallback's round robin counts on.
func askAll(t *testing.T, front int, path string, keys [][]byte) []string {
	t.Helper()
	c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", front), 2*time.Second)
	if err != nil {
		t.Fatalf("/%s: %v", path, err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(60 * time.Second))
	werr := make(chan error, 1)
	go func() {
		w := bufio.NewWriterSize(c, 64<<10)
		for _, k := range keys {
			w.WriteString("GET /" + path + " HTTP/1.1\r\nHost: conformance\r\nX-Key: ")
			w.Write(k)
			w.WriteString("\r\n\r\n")
		}
		werr <- w.Flush()
	}()
	out := make([]string, len(keys))
	r := bufio.NewReaderSize(c, 64<<10)
	for i, k := range keys {
		up, closed, err := readAnswer(r)
		if err == nil && closed && i < len(keys)-1 {
			err = fmt.Errorf("nginx closed the connection after %d of %d answers", i+1, len(keys))
		}
		if err != nil {
			c.Close() // unblocks the writer
			<-werr
			t.Fatalf("/%s key %q: %v", path, k, err)
		}
		out[i] = up
	}
	if err := <-werr; err != nil {
		t.Fatalf("/%s: writing the requests: %v", path, err)
	}
	return out
}

// readAnswer reads one answer, which must be 200 "ok", and returns its
// X-Upstream and whether nginx closes the connection after it.
func readAnswer(r *bufio.Reader) (up string, closed bool, err error) {
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return "", false, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return "", false, err
	}
	if resp.StatusCode != 200 || string(body) != "ok" {
		return "", false, fmt.Errorf("status %d, body %q, upstream %q", resp.StatusCode, body, resp.Header.Get("X-Upstream"))
	}
	return resp.Header.Get("X-Upstream"), resp.Close, nil
}

// result is one upstream's comparison at one step.
type result struct {
	agree, total, fallback int
	nginxOwner             []int // per key, the server index nginx chose
}

// compare asks nginx for every key under u and compares with the profile's
// Owners(h, 1), failing the test on any disagreement. Keys for which
// nginx would leave hashing for round robin (Fallback) are counted, not
// compared.
func compare(t *testing.T, front int, u upstream, keys [][]byte) result {
	t.Helper()
	rule, err := nginx.New(nginx.Options{Consistent: u.consistent})
	if err != nil {
		t.Fatal(err)
	}
	pl, err := rule.Build(u.profileServers(), nil)
	if err != nil {
		t.Fatal(err)
	}
	fb := pl.(interface{ Fallback(uint64, int) bool })
	got := askAll(t, front, u.name, keys)
	byAddr := map[string]int{}
	for i, s := range u.servers {
		byAddr[s.addr] = i
	}
	res := result{nginxOwner: make([]int, len(keys))}
	var bad []string
	for i, k := range keys {
		h := rule.Hash(k)
		idx, ok := byAddr[got[i]]
		if !ok {
			t.Fatalf("/%s key %q: nginx chose %q, not a server of the step", u.name, k, got[i])
		}
		res.nginxOwner[i] = idx
		if fb.Fallback(h, 1) {
			res.fallback++
			continue
		}
		res.total++
		want := -1
		if o := pl.Owners(h, 1, nil); len(o) == 1 {
			want = o[0]
		}
		if want == idx {
			res.agree++
		} else if len(bad) < 8 {
			wantName := "none"
			if want >= 0 {
				wantName = u.servers[want].name
			}
			bad = append(bad, fmt.Sprintf("  key %q (h %#x): nginx %s, profile %s", k, h, u.servers[idx].name, wantName))
		}
	}
	if res.agree != res.total {
		t.Errorf("/%s: %d of %d keys agree; first disagreements:\n%s", u.name, res.agree, res.total, strings.Join(bad, "\n"))
	}
	return res
}

// stepLog records the agreement lines the test prints at the end.
type stepLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *stepLog) add(story, step string, u upstream, r result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	mode := "hash"
	if u.consistent {
		mode = "hash consistent"
	}
	l.lines = append(l.lines, fmt.Sprintf("%-8s %-30s %-16s %4d/%4d agree, %d round-robin fallbacks",
		story, step, mode, r.agree, r.total, r.fallback))
}

// withServers returns a copy of the servers.
func withServers(s []backend) []backend { return slices.Clone(s) }

// both returns a consistent and a plain upstream over the same servers,
// named prefix_c and prefix_p.
func both(prefix string, s []backend) []upstream {
	return []upstream{{name: prefix + "_c", consistent: true, servers: s}, {name: prefix + "_p", servers: s}}
}

// story is one membership story: the upstreams it needs, all served by
// the one nginx of the test, and the checks it runs once nginx serves
// them. Every upstream keeps its own balancer state (its peers, their
// round-robin weights; max_fails=0 keeps no failure counts), so stories
// sharing a process cannot change one another's answers.
type story struct {
	name  string
	ups   []upstream
	check func(t *testing.T, front int)
}

// ports hands out the free ports of one lab.FreePorts call, so that no two
// listeners of the test's one configuration share a port.
type ports []int

func (p *ports) take(n int) []int {
	out := (*p)[:n]
	*p = (*p)[n:]
	return out
}

// TestConformance runs every story's upstreams in one nginx process (one
// configuration test, one start) and checks each story against it.
func TestConformance(t *testing.T) {
	bin := lab.Need(t, "nginx", "nginx") // /usr/sbin/nginx; nginx-light only depends on it
	start := time.Now()
	keys, skipped := keySet()
	if len(keys) < 1000 {
		t.Fatalf("only %d keys", len(keys))
	}
	t.Logf("%d keys; skipped %s", len(keys), skipped)
	log := &stepLog{}
	free := ports(lab.FreePorts(t, 1+5+16+2+20+3))
	front := free.take(1)[0]
	stories := []story{
		storyWeighted(keys, log, &free),
		storyGrow(keys, log, &free),
		storyNames(t, keys, log, &free),
		storyTies(t, keys, log, &free),
		storyFallback(keys, log, &free),
	}
	var ups []upstream
	for _, s := range stories {
		ups = append(ups, s.ups...)
	}
	runNginx(t, bin, front, ups)
	for _, s := range stories {
		t.Run(s.name, func(t *testing.T) { s.check(t, front) })
	}
	for _, l := range log.lines {
		t.Log(l)
	}
	version, _ := exec.Command(bin, "-v").CombinedOutput() // nginx -v prints on standard error
	t.Logf("%s, %d upstreams; %.1fs", strings.TrimSpace(string(version)), len(ups), time.Since(start).Seconds())
}

// storyWeighted: 4 servers of weights 2,1,3,1; add a 5th of weight 2;
// remove the 2nd; mark one down; change a weight. Under both methods.
func storyWeighted(keys [][]byte, log *stepLog, free *ports) story {
	p := free.take(5)
	a, b, c, d, e := tcp(p[0], 2), tcp(p[1], 1), tcp(p[2], 3), tcp(p[3], 1), tcp(p[4], 2)
	cDown := c
	cDown.down = true
	d3 := d
	d3.weight = 3
	steps := []struct {
		name    string
		servers []backend
	}{
		{"4 servers, weights 2,1,3,1", []backend{a, b, c, d}},
		{"add 5th, weight 2", []backend{a, b, c, d, e}},
		{"remove 2nd", []backend{a, c, d, e}},
		{"3rd of 4 (weight 3) down", []backend{a, cDown, d, e}},
		{"weight of 4th 1 -> 3", []backend{a, cDown, d3, e}},
	}
	var ups []upstream
	for si, st := range steps {
		ups = append(ups, both(fmt.Sprintf("w%d", si), withServers(st.servers))...)
	}
	return story{"story", ups, func(t *testing.T, front int) {
		for si, st := range steps {
			t.Run(fmt.Sprintf("step%d", si), func(t *testing.T) {
				for ui, u := range ups[2*si : 2*si+2] {
					r := compare(t, front, u, keys)
					log.add("weighted", st.name, u, r)
					if si == 3 {
						checkFailover(t, keys, ups[2*si+ui], steps[2].servers, r)
					}
				}
			})
		}
	}}
}

// checkFailover ties Owners' order for r = 2 to nginx: for every key whose
// first owner before the down step is the server now down, nginx's choice
// with it down is Owners(h, 2)[1] of the membership before.
func checkFailover(t *testing.T, keys [][]byte, u upstream, before []backend, now result) {
	t.Helper()
	rule, _ := nginx.New(nginx.Options{Consistent: u.consistent})
	prevUp := upstream{servers: before}
	pl, err := rule.Build(prevUp.profileServers(), nil)
	if err != nil {
		t.Fatal(err)
	}
	downAddr := ""
	for _, s := range u.servers {
		if s.down {
			downAddr = s.addr
		}
	}
	checked, agree := 0, 0
	for i, k := range keys {
		o := pl.Owners(rule.Hash(k), 2, nil)
		if before[o[0]].addr != downAddr {
			continue
		}
		checked++
		if before[o[1]].addr == u.servers[now.nginxOwner[i]].addr {
			agree++
		}
	}
	if checked == 0 || agree != checked {
		t.Errorf("/%s failover: Owners(h,2)[1] before = nginx's pick with the first down for %d of %d keys", u.name, agree, checked)
	}
	t.Logf("/%s: second owner before = nginx with the first down, %d/%d keys", u.name, agree, checked)
}

// storyGrow: 12 equal cache servers, then 4 more.
func storyGrow(keys [][]byte, log *stepLog, free *ports) story {
	var all []backend
	for _, port := range free.take(16) {
		all = append(all, tcp(port, 1))
	}
	sizes := []int{12, 16}
	var ups []upstream
	for _, n := range sizes {
		ups = append(ups, both(fmt.Sprintf("g%d", n), withServers(all[:n]))...)
	}
	return story{"grow12to16", ups, func(t *testing.T, front int) {
		for i, n := range sizes {
			t.Run(fmt.Sprintf("n%d", n), func(t *testing.T) {
				for _, u := range ups[2*i : 2*i+2] {
					log.add("grow", fmt.Sprintf("%d equal servers", n), u, compare(t, front, u, keys))
				}
			})
		}
	}}
}
