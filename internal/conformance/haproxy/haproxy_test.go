// Package haproxy_test checks profile/haproxy against the real HAProxy:
// one haproxy process on 127.0.0.1 with a backend per configuration, Go
// HTTP servers as the backends answering their own names, and one request
// per key and configuration whose answer must be the server
// Placement.Owners(h, 1) names.
package haproxy_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/haproxy"
)

// srv is one "server" line: a backend by index, its weight, an explicit id
// (0 for HAProxy's automatic one) and whether it is disabled.
type srv struct {
	b, w, id int
	down     bool
}

// confCase is one HAProxy backend: a membership under one set of options.
type confCase struct {
	name    string
	opts    haproxy.Options
	balance string // "hdr", "url_param" or "uri"
	servers []srv
	ties    bool // add keys hashing exactly between two nodes (crc32 only)
}

// request is how a case sends a key, and the bytes HAProxy hashes for it.
func (c confCase) request(base, key string) (url, hdr string, hashed []byte, skip string) {
	switch c.balance {
	case "url_param":
		enc := queryEscape(key)
		return base + "/?k=" + enc, "", []byte(enc), ""
	case "uri":
		if key == "" {
			return "", "", nil, "empty"
		}
		enc := "/" + queryEscape(key)
		return base + enc, "", []byte(enc), ""
	}
	return base + "/", key, []byte(key), headerSkip(key)
}

// directive is the case's "balance" line.
func (c confCase) directive() string {
	switch c.balance {
	case "url_param":
		return "balance url_param k"
	case "uri":
		return "balance uri"
	}
	return "balance hdr(X-Key)"
}

// profileServers is the case's membership as profile/haproxy sees it.
func (c confCase) profileServers() []profile.Server {
	out := make([]profile.Server, len(c.servers))
	for i, s := range c.servers {
		out[i] = profile.Server{Name: backendName(s.b), Weight: s.w, ID: s.id, Down: s.down}
	}
	return out
}

// backendName is the name backend b answers with, and its server name.
func backendName(b int) string { return fmt.Sprintf("s%02d", b) }

// bp is a shorthand for an optional bool.
func bp(v bool) *bool { return &v }

// cases are the configurations checked: the weighted story (add, remove,
// disable, weight change) with automatic and with explicit ids, 12 → 16
// equal servers, every hash function with and without avalanche, mixed
// explicit and automatic ids with weights 0 and 256, colliding ids, and the
// url_param and uri balances.
func cases() []confCase {
	story := [][]srv{
		{{0, 2, 0, false}, {1, 1, 0, false}, {2, 3, 0, false}, {3, 1, 0, false}},
		{{0, 2, 0, false}, {1, 1, 0, false}, {2, 3, 0, false}, {3, 1, 0, false}, {4, 2, 0, false}},
		{{0, 2, 0, false}, {2, 3, 0, false}, {3, 1, 0, false}, {4, 2, 0, false}},
		{{0, 2, 0, false}, {2, 3, 0, true}, {3, 1, 0, false}, {4, 2, 0, false}},
		{{0, 5, 0, false}, {2, 3, 0, true}, {3, 1, 0, false}, {4, 2, 0, false}},
	}
	ids := map[int]int{0: 7, 1: 3, 2: 1000, 3: 42, 4: 65536}
	var cs []confCase
	for i, step := range story {
		cs = append(cs, confCase{name: fmt.Sprintf("story%d", i+1), servers: step})
		withIDs := make([]srv, len(step))
		for j, s := range step {
			s.id = ids[s.b]
			withIDs[j] = s
		}
		cs = append(cs, confCase{name: fmt.Sprintf("ids%d", i+1), servers: withIDs})
	}
	equal := func(n int) []srv {
		out := make([]srv, n)
		for i := range out {
			out[i] = srv{b: i, w: 1}
		}
		return out
	}
	cs = append(cs, confCase{name: "equal12", servers: equal(12)}, confCase{name: "equal16", servers: equal(16)})
	for _, fn := range []string{"sdbm", "djb2", "wt6", "crc32"} {
		for _, aval := range []bool{false, true} {
			if fn == "sdbm" && aval {
				continue // the same as story1
			}
			name := fn
			if aval {
				name += "_avalanche"
			}
			cs = append(cs, confCase{name: name, opts: haproxy.Options{HashFunction: fn, Avalanche: bp(aval)}, servers: story[0],
				ties: fn == "crc32" && !aval})
		}
	}
	cs = append(cs,
		confCase{name: "mixed_ids", servers: []srv{{0, 1, 0, false}, {1, 256, 1, false}, {2, 0, 0, false}, {3, 3, 7, false}, {4, 1, 0, true}, {5, 2, 0, false}}},
		// 1 and 1048577 agree modulo 2^20, so their node keys coincide.
		confCase{name: "colliding_ids", servers: []srv{{0, 1, 1, false}, {1, 2, 1048577, false}, {2, 1, 3, false}}},
		confCase{name: "url_param", balance: "url_param", servers: story[1]},
		confCase{name: "uri", balance: "uri", servers: equal(2)},
	)
	return cs
}

// config returns the haproxy configuration serving every case: a frontend
// on 127.0.0.1:front that picks the case's backend from X-Case.
func config(front int, ports []int, cs []confCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "global\n    maxconn 256\n    nbthread 1\n\ndefaults\n    mode http\n")
	fmt.Fprintf(&b, "    timeout connect 2s\n    timeout client 10s\n    timeout server 10s\n\n")
	fmt.Fprintf(&b, "frontend f\n    bind 127.0.0.1:%d\n    use_backend %%[req.hdr(x-case)]\n", front)
	for _, c := range cs {
		fmt.Fprintf(&b, "\nbackend %s\n    %s\n    %s\n", c.name, c.directive(), c.opts.Directive())
		for _, s := range c.servers {
			fmt.Fprintf(&b, "    server %s 127.0.0.1:%d weight %d", backendName(s.b), ports[s.b], s.w)
			if s.id != 0 {
				fmt.Fprintf(&b, " id %d", s.id)
			}
			if s.down {
				b.WriteString(" disabled")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

// startBackends starts n HTTP servers on 127.0.0.1, each answering its
// name, and returns their ports; the test's cleanup closes them.
func startBackends(t *testing.T, n int) []int {
	ports := make([]int, n)
	for i := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("listen: %v", err)
		}
		name := backendName(i)
		s := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, name)
		}), ReadHeaderTimeout: 10 * time.Second}
		go s.Serve(l)
		t.Cleanup(func() { s.Close() })
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// result is one key's outcome in one case.
type result struct {
	key       string
	got, want string
	err       error
}

func TestConformance(t *testing.T) {
	bin := lab.Need(t, "haproxy", "haproxy")
	start := time.Now()
	cs := cases()
	ports := startBackends(t, 16)
	front := lab.FreePorts(t, 1)[0]
	dir := t.TempDir()
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(config(front, ports, cs)), 0o600); err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`version \S+`).FindString(lab.Run(t, bin, "-v"))
	lab.Run(t, bin, "-c", "-q", "-f", cfg)
	lab.Start(t, bin, "-f", cfg, "-db")
	lab.WaitListen(t, front)
	t.Logf("HAProxy %s, %d configurations, started in %v", version, len(cs), time.Since(start).Round(time.Millisecond))

	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 8, DisableCompression: true}}
	t.Cleanup(client.CloseIdleConnections)
	base := fmt.Sprintf("http://127.0.0.1:%d", front)
	keys := testKeys()
	shortest, longest := len(keys[0]), 0
	for _, k := range keys {
		shortest, longest = min(shortest, len(k)), max(longest, len(k))
	}
	t.Logf("%d keys of %d to %d bytes", len(keys), shortest, longest)
	for _, c := range cs {
		checkCase(t, client, base, c, keys)
	}
	checkVTC(t, client, base)
	t.Logf("all configurations in %v", time.Since(start).Round(time.Millisecond))
}

// checkCase sends every key through case c and compares HAProxy's choice
// with profile/haproxy's.
func checkCase(t *testing.T, client *http.Client, base string, c confCase, keys []string) {
	t.Helper()
	rule, err := haproxy.New(c.opts)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	servers := c.profileServers()
	pl, err := rule.Build(servers, nil)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	if c.ties {
		pts, _ := pl.(profile.Continuum).Points()
		keys = append(keys[:len(keys):len(keys)], tieKeys(pts, 40)...)
	}
	skipped := map[string]int{}
	var jobs []func() result
	for _, key := range keys {
		url, hdr, hashed, skip := c.request(base, key)
		if skip != "" {
			skipped[skip]++
			continue
		}
		var want string
		if o := pl.Owners(rule.Hash(hashed), 1, nil); len(o) == 1 {
			want = servers[o[0]].Name
		}
		jobs = append(jobs, func() result {
			got, err := fetch(client, url, c.name, hdr)
			return result{key: key, got: got, want: want, err: err}
		})
	}
	results := runAll(jobs, 8)
	agree := 0
	var bad []result
	for _, r := range results {
		if r.err == nil && r.got == r.want {
			agree++
		} else {
			bad = append(bad, r)
		}
	}
	t.Logf("%-16s %s: %d/%d keys agree; skipped %v", c.name, c.opts.Directive(), agree, len(results), skipped)
	if len(bad) > 0 {
		for _, r := range bad[:min(len(bad), 5)] {
			t.Errorf("%s: key %q: haproxy %q, profile %q (err %v)", c.name, r.key, r.got, r.want, r.err)
		}
		t.Errorf("%s: %d of %d keys disagree", c.name, len(bad), len(results))
	}
}

// checkVTC replays the published vector of HAProxy's
// reg-tests/balance/balance-hash-maxconn.vtc (as fixed by 03e9a5a1): under
// "balance uri" with two servers of automatic ids, "/test-url" goes to the
// first server.
func checkVTC(t *testing.T, client *http.Client, base string) {
	got, err := fetch(client, base+"/test-url", "uri", "")
	if err != nil || got != backendName(0) {
		t.Errorf("balance uri /test-url: haproxy %q (err %v), balance-hash-maxconn.vtc says %q", got, err, backendName(0))
	}
}

// fetch sends one request and returns the answering backend's name.
func fetch(client *http.Client, url, caseName, key string) (string, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("X-Case", caseName)
	if key != "" {
		req.Header["X-Key"] = []string{key}
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %s: %.80s", resp.Status, body)
	}
	return string(body), nil
}

// runAll runs jobs on n workers and returns their results in job order.
func runAll(jobs []func() result, n int) []result {
	out := make([]result, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for range n {
		wg.Go(func() {
			for i := range next {
				out[i] = jobs[i]()
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}
