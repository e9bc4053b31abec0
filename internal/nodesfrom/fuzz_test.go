package nodesfrom

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fuzzCap is the largest input the fuzz test gives Parse.
const fuzzCap = 1 << 20

// FuzzParse gives every format arbitrary bytes: Parse must not panic,
// must return servers or problems (not both), each well placed, the
// same way twice, and in bounded time.
func FuzzParse(f *testing.F) {
	tables := map[string][]tc{"nginx": nginxCases, "haproxy": haproxyCases, "envoy": envoyCases,
		"libmemcached": memcachedCases, "redis-cluster-nodes": redisCases}
	for i, format := range Formats {
		for _, c := range tables[format] {
			f.Add([]byte(c.in), uint8(i), c.sel)
		}
	}
	for _, c := range memcachedBadLines {
		f.Add([]byte(c.line), uint8(4), "")
	}
	f.Fuzz(func(t *testing.T, data []byte, format uint8, selector string) {
		if len(data) > fuzzCap {
			return
		}
		name := Formats[int(format)%len(Formats)]
		start := time.Now()
		nodes, errs := Parse(name, data, selector)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("Parse(%s) took %v on %d bytes", name, d, len(data))
		}
		checkInvariants(t, name, data, nodes, errs)
		again, errs2 := Parse(name, data, selector)
		if !reflect.DeepEqual(nodes, again) || !reflect.DeepEqual(errs, errs2) {
			t.Errorf("Parse(%s) answered differently the second time", name)
		}
		if name == "redis-cluster-nodes" {
			n, slots, errs := ParseRedisNodes(data)
			checkInvariants(t, name, data, n, errs)
			last := -1
			for _, s := range slots {
				if s.First <= last || s.Last < s.First || s.Last >= redisSlots || s.Node < 0 || s.Node >= len(n) {
					t.Fatalf("bad slot range %+v after %d, %d nodes", s, last, len(n))
				}
				last = s.Last
			}
		}
		if name == "nginx" {
			d, ok := NginxBalancer(data, selector)
			if !ok && d != "" {
				t.Errorf("NginxBalancer = %q, false", d)
			}
		}
	})
}

// checkInvariants checks what holds of every answer of Parse.
func checkInvariants(t *testing.T, format string, data []byte, nodes []Node, errs []Error) {
	t.Helper()
	lines := bytes.Count(data, []byte("\n")) + 1
	if format == "envoy" {
		// YAML also breaks lines at a lone CR, NEL, LS and PS
		lines = len(data) + 1
	}
	if len(nodes) > 0 && len(errs) > 0 {
		t.Fatalf("%s: %d servers and %d problems", format, len(nodes), len(errs))
	}
	if len(nodes) == 0 && len(errs) == 0 {
		t.Fatalf("%s: neither servers nor problems", format)
	}
	if len(nodes) > MaxServers || len(errs) > maxErrors {
		t.Fatalf("%s: %d servers, %d problems", format, len(nodes), len(errs))
	}
	for _, n := range nodes {
		minWeight := 1
		if format == "haproxy" {
			minWeight = 0
		}
		if n.Weight < minWeight || n.Line < 1 || n.Line > lines || n.Col < 1 {
			t.Fatalf("%s: server %+v (%d lines)", format, n, lines)
		}
	}
	for _, e := range errs {
		if e.Msg == "" || e.Line < 0 || e.Line > lines || (e.Line == 0) != (e.Col == 0) {
			t.Fatalf("%s: problem %+v (%d lines)", format, e, lines)
		}
	}
}

// TestLinearTime gives each format half a megabyte made to be slow (long
// words, many tokens on one line, deep nesting, many errors, aliases)
// and checks that Parse reads it quickly and that four times the input
// takes well under sixteen times the time.
func TestLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("reads several megabytes")
	}
	t.Parallel()
	line := func(s string, n int) string {
		// as many copies of s as fit on lines of 60 KiB, for n bytes
		var b strings.Builder
		per := MaxLine / len(s) * 15 / 16
		for b.Len() < n {
			b.WriteString(strings.Repeat(s, per))
			b.WriteByte('\n')
		}
		return b.String()
	}
	inputs := []struct {
		format, sel string
		make        func(n int) string
	}{
		{"nginx", "c", func(n int) string {
			return "http { upstream c {\n" + line("server 127.0.0.1:1 weight=2; ", n) + "} }\n"
		}},
		{"nginx", "c", func(n int) string { return line("a ", n) }},
		{"nginx", "c", func(n int) string { return line("upstream x { server a; } ", n) }},
		{"nginx", "c", func(n int) string { return "# " + line("é", n) }},
		{"haproxy", "b", func(n int) string { return "backend b\n" + line(`"\x41\"'$x'" `, n) }},
		{"haproxy", "b", func(n int) string { return strings.Repeat("backend b\n", n/10) }},
		{"haproxy", "b", func(n int) string {
			return strings.Repeat("defaults d\n  default-server weight 2\n", n/64) + strings.Repeat("backend b from d\n", n/34)
		}},
		{"haproxy", "b", func(n int) string { return strings.Repeat(".if 1\n", n/12) + strings.Repeat(".endif\n", n/12) }},
		{"envoy", "c", func(n int) string { return "static_resources:\n  clusters:\n" + strings.Repeat("  - name: c\n", n/12) }},
		{"envoy", "c", func(n int) string {
			return "static_resources:\n  clusters:\n  - name: c\n    load_assignment:\n      endpoints:\n      - lb_endpoints:\n" +
				strings.Repeat("        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}\n", min(n/80, MaxServers))
		}},
		{"envoy", "c", func(n int) string { return "a: &a [" + strings.Repeat("*a, ", 1) + "]\nb: " + line("[1, ", n/2) }},
		{"envoy", "c", func(n int) string {
			// one mapping of many keys, named as the cluster list many times
			var b strings.Builder
			b.WriteString("x: &b\n")
			for i := 0; b.Len() < n/2; i++ {
				b.WriteString("  k" + itoa(i) + ": 0\n")
			}
			return b.String() + "static_resources:\n  clusters:\n" + strings.Repeat("  - *b\n", n/2/7)
		}},
		{"libmemcached", "", func(n int) string { return line("--SERVER=aaa:11211/?2 ", n) }},
		{"libmemcached", "", func(n int) string { return line(`--NAMESPACE="`, n) }},
		{"libmemcached", "", func(n int) string { return line("a.b.c.d.e.f.g.h.", n) }},
		{"libmemcached", "", func(n int) string { return line("1.", n) }},
		{"redis-cluster-nodes", "", func(n int) string {
			return strings.Repeat(idA+" 10.0.0.1:6379@16379 master - 0 0 1 connected 0-16383\n", n/80)
		}},
	}
	// the faster of two runs, against a machine's other load
	timed := func(format, sel string, data []byte) time.Duration {
		best := time.Duration(1 << 62)
		for range 2 {
			t0 := time.Now()
			Parse(format, data, sel)
			best = min(best, time.Since(t0))
		}
		return best
	}
	for _, in := range inputs {
		// four times the input: about 4 times the time if linear, 16 if
		// quadratic. The verdict needs the small input's time and a
		// second run only when one run of the big input takes over
		// slowBig: below it, the faster of two runs is below it too and
		// the input passes whatever the small one takes. So a passing
		// input is parsed once, at 512 KiB, rather than twice at 128
		// KiB and twice at 512 KiB (0.4 s of the package's CPU less),
		// and a slow one is timed exactly as before.
		small, big := in.make(1<<17), in.make(1<<19)
		t0 := time.Now()
		Parse(in.format, []byte(big), in.sel)
		if time.Since(t0) <= slowBig {
			continue
		}
		d1, d2 := timed(in.format, in.sel, []byte(small)), timed(in.format, in.sel, []byte(big))
		if d2 > 3*time.Second || (d2 > slowBig && d2 > 10*d1) {
			t.Errorf("%s %.40q…: %d bytes in %v, %d bytes in %v", in.format, big, len(small), d1, len(big), d2)
		}
	}
}

// slowBig is the time over which TestLinearTime's big input (512 KiB)
// must take less than ten times its small one (128 KiB): a linear parser
// takes a few milliseconds, and below this a machine's load could make
// the ratio anything.
const slowBig = 200 * time.Millisecond

func TestDetect(t *testing.T) {
	for name, want := range map[string]string{
		"nginx.conf": "nginx", "/etc/nginx/conf.d/cache.conf": "nginx", "NGINX.CONF": "nginx",
		"upstreams.nginx": "nginx", "nginx-cache.conf": "nginx", "sites-enabled/default": "",
		"haproxy.cfg": "haproxy", "/etc/haproxy/haproxy.cfg": "haproxy", "lb.cfg": "haproxy", "haproxy.conf": "haproxy",
		"envoy.yaml": "envoy", "bootstrap.yml": "envoy", "envoy-front.json": "envoy", "config.json": "",
		"cluster-nodes.txt": "redis-cluster-nodes", "nodes.conf": "redis-cluster-nodes",
		"/var/lib/redis/nodes-7000.conf": "redis-cluster-nodes", `C:\redis\cluster_nodes.txt`: "redis-cluster-nodes",
		"cache.servers": "libmemcached", "memcached.txt": "libmemcached", "memcached": "libmemcached",
		"README.md": "", "": "", "app.conf": "",
	} {
		if got := Detect(name); got != want {
			t.Errorf("Detect(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestParseFormats(t *testing.T) {
	_, errs := Parse("apache", []byte("x"), "")
	checkResult(t, nil, errs, nil, []string{`0:0: unknown format "apache"; formats: nginx, haproxy, envoy, redis-cluster-nodes, libmemcached`})
	for _, f := range Formats {
		if (Selector(f) == "") != (f == "libmemcached" || f == "redis-cluster-nodes") {
			t.Errorf("Selector(%q) = %q", f, Selector(f))
		}
	}
	e := Error{3, 7, "bad"}
	if e.Error() != "3:7: bad" || (Error{Msg: "bad"}).Error() != "bad" {
		t.Errorf("Error() = %q", e.Error())
	}
}
