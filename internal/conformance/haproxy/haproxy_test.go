// Package haproxy_test checks profile/haproxy against the real HAProxy:
// one haproxy process with a backend per configuration on 127.0.0.1, whose
// servers are listeners of the same haproxy on unix sockets in the test's
// own folder, each answering its own name; one request per key and
// configuration, pipelined over a few connections, whose answer must be
// the server Placement.Owners(h, 1) names.
package haproxy_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// request is how a case sends a key (the request path and the X-Key
// header, if any), and the bytes HAProxy hashes for it.
func (c confCase) request(key string) (path, hdr string, hashed []byte, skip string) {
	switch c.balance {
	case "url_param":
		enc := queryEscape(key)
		return "/?k=" + enc, "", []byte(enc), ""
	case "uri":
		if key == "" {
			return "", "", nil, "empty"
		}
		enc := "/" + queryEscape(key)
		return enc, "", []byte(enc), ""
	}
	return "/", key, []byte(key), headerSkip(key)
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
// on 127.0.0.1:front that picks the case's backend from X-Case, and for
// each of n servers a listener on a unix socket in dir that answers the
// server's name itself (no backend processes, no TCP between HAProxy and
// its servers). hash-type consistent in 2.6 hashes a server's id, never
// its address, so where the servers listen does not change placement.
// maxconn is high enough for an idle connection to every server of every
// backend (about 150) at both of its ends: under 256, HAProxy kept fewer
// idle connections than there are servers (tune.pool-high-fd-ratio, a
// quarter of the file descriptors) and opened a new one for about half
// the requests (12,873 connects for 28,000 requests, 362 at 4096, and
// 2.5 -> 1.4 CPU-s). Connections only carry the answer: the server is
// chosen before one is looked for.
func config(front int, dir string, n int, cs []confCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "global\n    maxconn 4096\n    nbthread 1\n\ndefaults\n    mode http\n")
	fmt.Fprintf(&b, "    timeout connect 2s\n    timeout client 10s\n    timeout server 10s\n\n")
	fmt.Fprintf(&b, "frontend f\n    bind 127.0.0.1:%d\n    use_backend %%[req.hdr(x-case)]\n", front)
	for i := range n {
		fmt.Fprintf(&b, "\nfrontend serve_%s\n    bind %s\n", backendName(i), serverAddr(dir, i))
		fmt.Fprintf(&b, "    http-request return status 200 content-type text/plain string %s\n", backendName(i))
	}
	for _, c := range cs {
		fmt.Fprintf(&b, "\nbackend %s\n    %s\n    %s\n", c.name, c.directive(), c.opts.Directive())
		for _, s := range c.servers {
			fmt.Fprintf(&b, "    server %s %s weight %d", backendName(s.b), serverAddr(dir, s.b), s.w)
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

// serverAddr is where server b listens: a unix socket in the test's folder.
func serverAddr(dir string, b int) string {
	return "unix@" + filepath.Join(dir, backendName(b)+".sock")
}

// serverCount is how many servers the cases draw from (equal16 uses them
// all).
const serverCount = 16

// probe is one request of one case: the key, where it is sent, and the
// server the profile expects ("" when it expects none).
type probe struct {
	c              *confCase
	key, path, hdr string
	want, got      string
	err            error
}

// TestConformance sends every key through every case's backend of one
// real HAProxy and compares the server that answers with profile/haproxy's
// owner, and replays balance-hash-maxconn.vtc's vector.
func TestConformance(t *testing.T) {
	bin := lab.Need(t, "haproxy", "haproxy")
	start := time.Now()
	cs := cases()
	front := lab.FreePorts(t, 1)[0]
	dir := t.TempDir()
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(config(front, dir, serverCount, cs)), 0o600); err != nil {
		t.Fatal(err)
	}
	version := regexp.MustCompile(`version \S+`).FindString(lab.Run(t, bin, "-v"))
	lab.Run(t, bin, "-c", "-q", "-f", cfg)
	lab.Start(t, bin, "-f", cfg, "-db")
	lab.WaitListen(t, front)
	t.Logf("HAProxy %s, %d configurations, started in %v", version, len(cs), time.Since(start).Round(time.Millisecond))

	keys := testKeys()
	shortest, longest := len(keys[0]), 0
	for _, k := range keys {
		shortest, longest = min(shortest, len(k)), max(longest, len(k))
	}
	t.Logf("%d keys of %d to %d bytes", len(keys), shortest, longest)
	var all [][]*probe
	var flat []*probe
	skipped := make([]map[string]int, len(cs))
	for i := range cs {
		ps, skip := probes(t, &cs[i], keys)
		all, skipped[i] = append(all, ps), skip
		flat = append(flat, ps...)
	}
	vtc := vtcProbe()
	flat = append(flat, vtc)
	if err := roundTrip(fmt.Sprintf("127.0.0.1:%d", front), flat, 4); err != nil {
		t.Fatalf("requests to HAProxy: %v", err)
	}
	for i, ps := range all {
		report(t, cs[i], ps, skipped[i])
	}
	if vtc.err != nil || vtc.got != vtc.want {
		t.Errorf("balance uri /test-url: haproxy %q (err %v), balance-hash-maxconn.vtc says %q", vtc.got, vtc.err, vtc.want)
	}
	t.Logf("all configurations, %d requests, in %v", len(flat), time.Since(start).Round(time.Millisecond))
}

// probes builds case c's requests, one per key that a request can carry,
// each with the server profile/haproxy picks for it, and counts the keys
// skipped by why.
func probes(t *testing.T, c *confCase, keys []string) (ps []*probe, skipped map[string]int) {
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
	skipped = map[string]int{}
	for _, key := range keys {
		path, hdr, hashed, skip := c.request(key)
		if skip != "" {
			skipped[skip]++
			continue
		}
		p := &probe{c: c, key: key, path: path, hdr: hdr}
		if o := pl.Owners(rule.Hash(hashed), 1, nil); len(o) == 1 {
			p.want = servers[o[0]].Name
		}
		ps = append(ps, p)
	}
	return ps, skipped
}

// vtcProbe is the published vector of HAProxy's
// reg-tests/balance/balance-hash-maxconn.vtc (as fixed by 03e9a5a1): under
// "balance uri" with two servers of automatic ids, "/test-url" goes to the
// first server.
func vtcProbe() *probe {
	return &probe{c: &confCase{name: "uri"}, key: "/test-url", path: "/test-url", want: backendName(0)}
}

// report compares HAProxy's answers for case c with profile/haproxy's.
func report(t *testing.T, c confCase, ps []*probe, skipped map[string]int) {
	t.Helper()
	var bad []*probe
	for _, p := range ps {
		if p.err != nil || p.got != p.want {
			bad = append(bad, p)
		}
	}
	t.Logf("%-16s %s: %d/%d keys agree; skipped %v", c.name, c.opts.Directive(), len(ps)-len(bad), len(ps), skipped)
	for _, p := range bad[:min(len(bad), 5)] {
		t.Errorf("%s: key %q: haproxy %q, profile %q (err %v)", c.name, p.key, p.got, p.want, p.err)
	}
	if len(bad) > 0 {
		t.Errorf("%s: %d of %d keys disagree", c.name, len(bad), len(ps))
	}
}
