package nodesfrom

import (
	"strings"
	"testing"
)

// nginxCases are whole configuration files but for the events{} block and
// the pid and error_log lines, which the product test adds around them.
var nginxCases = []tc{
	{
		name: "hash consistent, weights, down, comments, quotes, odd spacing",
		sel:  "cache",
		in: `# the cache tier
http {
    upstream api { server 127.0.0.9:8080; }
    upstream cache {
        hash $request_uri consistent;   # ketama-compatible
        server 10.0.0.1:11211 weight=2 max_fails=0;
        server   "10.0.0.2:11211"	weight=3
                 fail_timeout=1m30s ;
        server 10.0.0.3:11211 down; server '10.0.0.4:11211';
        keepalive 16;
        zone cache 64k;
    }
}
`,
		want: []Node{
			n("10.0.0.1:11211", 2, 6, 9),
			n("10.0.0.2:11211", 3, 7, 9),
			n("10.0.0.3:11211", 1, 9, 9).down(),
			n("10.0.0.4:11211", 1, 9, 37),
		},
	},
	{
		name: "stream upstream, CRLF line ends, tabs, upper-case selector",
		sel:  "MEMCACHED",
		in:   "stream {\r\n\tupstream memcached {\r\n\t\thash $remote_addr consistent;\r\n\t\tserver 127.0.0.1:11211 weight=10 max_conns=100;\r\n\t\tserver [::1]:11212;\r\n\t}\r\n}\r\n",
		want: []Node{
			n("127.0.0.1:11211", 10, 4, 3),
			n("[::1]:11212", 1, 5, 3),
		},
	},
	{
		name: "upstream among other blocks, variables with braces, # inside a word",
		sel:  "cache",
		in: `http {
    map $http_x_key ${key}x { default "a;b{c}"; }
    server {
        listen 127.0.0.1:8080;
        location /a#b { return 200 "ok # not a comment"; }
    }
    upstream cache {
        server unix:/run/memcached.sock weight=2;
        server 127.0.0.1;
        server localhost:11211 backup;
    }
}
`,
		want: []Node{
			n("unix:/run/memcached.sock", 2, 8, 9),
			n("127.0.0.1", 1, 9, 9),
			n("localhost:11211", 1, 10, 9).backup(),
		},
	},
	{
		name: "backup before hash is accepted, as nginx does",
		sel:  "c",
		in:   "http { upstream c { server 127.0.0.1:1 backup; hash $uri consistent; server 127.0.0.1:2; } }\n",
		want: []Node{
			n("127.0.0.1:1", 1, 1, 21).backup(),
			n("127.0.0.1:2", 1, 1, 70),
		},
	},
	{
		name: "backup under least_conn after hash",
		sel:  "c",
		in:   "http { upstream c { hash $uri; least_conn; server 127.0.0.1:1 backup; server 127.0.0.1:2; } }\n",
		want: []Node{
			n("127.0.0.1:1", 1, 1, 44).backup(),
			n("127.0.0.1:2", 1, 1, 71),
		},
	},
	{
		name: "quotes and escapes in names, UTF-8 columns",
		sel:  `my"c`,
		in:   "# é\nhttp { map $uri $b { é 1; } upstream \"my\\\"c\" { server '127.0.0.1:80' weight=1; } }\n",
		want: []Node{n("127.0.0.1:80", 1, 2, 48)},
	},
	{
		name: "the same name in http and stream, chosen by context",
		sel:  "stream:cache",
		in:   "http { upstream cache { server 127.0.0.1:1; } }\nstream { upstream cache { server 127.0.0.1:2; server 127.0.0.1:3; } }\n",
		want: []Node{
			n("127.0.0.1:2", 1, 2, 27),
			n("127.0.0.1:3", 1, 2, 47),
		},
	},
	{
		name: "includes outside the upstream are ignored",
		sel:  "c",
		in:   "http {\n    include mime.types;\n    upstream c { server 127.0.0.1:1; }\n}\n",
		want: []Node{n("127.0.0.1:1", 1, 3, 18)},
	},
	{
		name:    "newer and NGINX Plus server parameters",
		sel:     "c",
		in:      "http { resolver 127.0.0.53; upstream c { zone c 64k; server cache.local resolve slow_start=30s route=a; server 127.0.0.1:2 drain; server _memcache._tcp.local service=memcache resolve; } }\n",
		want:    []Node{n("cache.local", 1, 1, 54), n("127.0.0.1:2", 1, 1, 105).down(), n("_memcache._tcp.local", 1, 1, 131)},
		product: "resolve, slow_start=, route=, drain and service= are not in nginx 1.22",
	},

	// problems
	{
		name:    "no such upstream: the closest name is suggested",
		sel:     "cach",
		in:      "http {\n  upstream cache { server 127.0.0.1:1; }\n  upstream api { server 127.0.0.1:2; }\n}\n",
		errs:    []string{`2:3: no upstream named "cach"; did you mean "cache" (at 2:3)? upstreams in this file: cache, api`},
		product: "nginx accepts the file",
	},
	{
		name:    "no such upstream, and includes",
		sel:     "db",
		in:      "http {\n  include conf.d/*.conf;\n  upstream cache { server 127.0.0.1:1; }\n}\n",
		errs:    []string{`0:0: no upstream named "db"; upstreams in this file: cache; the file includes others (first at 2:3)`},
		product: "nginx accepts the file",
	},
	{
		name:    "no selector",
		in:      "http { upstream cache { server 127.0.0.1:1; } }\n",
		errs:    []string{`0:0: Parse needs the upstream's name; upstreams in this file: cache`},
		product: "nginx accepts the file",
	},
	{
		name:    "both contexts and no context in the selector",
		sel:     "cache",
		in:      "http { upstream cache { server 127.0.0.1:1; } }\nstream { upstream cache { server 127.0.0.1:2; } }\n",
		errs:    []string{`2:10: upstream "cache" is defined in http{} (1:8) and in stream{} (here); say which: http:cache or stream:cache`},
		product: "nginx accepts the file",
	},
	{
		name: "duplicate upstream, case folded",
		sel:  "cache",
		in:   "http {\n  upstream cache { server 127.0.0.1:1; }\n  upstream Cache { server 127.0.0.1:2; }\n}\n",
		errs: []string{`3:3: duplicate upstream "Cache" in http{} (first at 2:3)`},
	},
	{
		name: "upstream inside server{}",
		sel:  "c",
		in:   "http { server { upstream c { server 127.0.0.1:1; } } }\n",
		errs: []string{`1:17: upstream "c" is inside server{}; nginx accepts upstream only directly inside http{} or stream{}`},
	},
	{
		name: "upstream at the top level",
		sel:  "c",
		in:   "upstream c { server 127.0.0.1:1; }\n",
		errs: []string{`1:1: upstream "c" is inside the top level`},
	},
	{
		name: "upstream without a block",
		sel:  "c",
		in:   "http { upstream c; }\n",
		errs: []string{`1:8: directive "upstream" has no opening "{"`},
	},
	{
		name: "upstream with two names",
		sel:  "c",
		in:   "http { upstream c d { server 127.0.0.1:1; } }\n",
		errs: []string{`1:8: invalid number of arguments in "upstream" directive`, `0:0: no upstream named "c"`},
	},
	{
		name: "backup after hash, ip_hash and random",
		sel:  "c",
		in: `http {
  upstream c { hash $uri consistent; server 127.0.0.1:1 backup; }
  upstream c2 { ip_hash; server 127.0.0.1:1 backup; }
}
`,
		errs: []string{`2:57: server 127.0.0.1:1: parameter "backup" is not allowed after "hash $uri consistent" (nginx: balancing method does not support parameter "backup")`},
	},
	{
		name: "a stream server needs a port",
		sel:  "stream:c",
		in:   "stream { upstream c { server 127.0.0.1; } }\n",
		errs: []string{`1:30: server 127.0.0.1: no port in upstream: a stream{} server needs one`},
	},
	{
		name: "server without an address, server with a block",
		sel:  "c",
		in:   "http { upstream c { server; server 127.0.0.1:1 { } } }\n",
		errs: []string{`1:21: invalid number of arguments in "server" directive`, `1:48: directive "server" is not terminated by ";"`},
	},
	{
		name: "no servers",
		sel:  "c",
		in:   "http {\n  upstream c {\n    hash $uri consistent;\n  }\n}\n",
		errs: []string{`2:3: upstream "c" has no servers (nginx: no servers are inside upstream)`},
	},
	{
		name:    "include inside the upstream",
		sel:     "c",
		in:      "http { upstream c { include servers.conf; server 127.0.0.1:1; } }\n",
		errs:    []string{`1:21: include inside upstream "c": ringreport reads one file and does not follow includes`},
		product: "nginx accepts it when servers.conf exists",
	},
	{
		name: "unexpected }",
		sel:  "c",
		in:   "http { upstream c { server 127.0.0.1:1; } }\n}\n",
		errs: []string{`2:1: unexpected "}": no block is open here`},
	},
	{
		name: "unclosed block",
		sel:  "c",
		in:   "http {\n  upstream c { server 127.0.0.1:1; }\n",
		errs: []string{`3:1: unexpected end of file, expecting "}": the http block opened at 1:1 is not closed`},
	},
	{
		name: "unclosed quote",
		sel:  "c",
		in:   "http { upstream c { server \"127.0.0.1:1; } }\n",
		errs: []string{`1:28: the quote " opened here is never closed`},
	},
	{
		name: "unended directive at the end",
		sel:  "c",
		in:   "http { upstream c { server 127.0.0.1:1; } }\nworker_processes 1",
		errs: []string{`2:1: unexpected end of file: the directive "worker_processes" that starts here is not ended; add ";"`},
	},
	{
		name: "a character after a closing quote",
		sel:  "c",
		in:   "http { upstream c { server \"127.0.0.1:1\"x; } }\n",
		errs: []string{`1:41: unexpected "x" after a quoted word`},
	},
	{
		name: "semicolon with no directive",
		sel:  "c",
		in:   "http { upstream c { ; server 127.0.0.1:1; } }\n",
		errs: []string{`1:21: unexpected ";": no directive name before it`},
	},
	{
		name: "directive not ended before }",
		sel:  "c",
		in:   "http { upstream c { server 127.0.0.1:1 } }\n",
		errs: []string{`1:40: unexpected "}": the directive before it lacks its ";"`},
	},
}

// nginxBadServers are server lines nginx refuses, each alone in
// "http { upstream c { LINE } }", and the problem Parse reports.
var nginxBadServers = []struct{ line, err string }{
	{"server 127.0.0.1:1 weight=0;", `1:40: server 127.0.0.1:1: invalid parameter "weight=0": weight must be a whole number of at least 1`},
	{"server 127.0.0.1:1 weight=-1;", `1:40: server 127.0.0.1:1: invalid parameter "weight=-1"`},
	{"server 127.0.0.1:1 weight=two;", `1:40: server 127.0.0.1:1: invalid parameter "weight=two"`},
	{"server 127.0.0.1:1 weight=99999999999999999999;", `1:40: server 127.0.0.1:1: invalid parameter "weight=99999999999999999999"`},
	{"server 127.0.0.1:1 weight;", `1:40: server 127.0.0.1:1: invalid parameter "weight"; nginx's server parameters are`},
	{"server 127.0.0.1:1 Weight=2;", `1:40: server 127.0.0.1:1: invalid parameter "Weight=2"`},
	{"server 127.0.0.1:1 max_fails=x;", `1:40: server 127.0.0.1:1: invalid parameter "max_fails=x": max_fails must be a whole number`},
	{"server 127.0.0.1:1 max_conns=;", `1:40: server 127.0.0.1:1: invalid parameter "max_conns="`},
	{"server 127.0.0.1:1 fail_timeout=10ms;", `1:40: server 127.0.0.1:1: invalid parameter "fail_timeout=10ms": fail_timeout must be a time`},
	{"server 127.0.0.1:1 fail_timeout=1s1m;", `1:40: server 127.0.0.1:1: invalid parameter "fail_timeout=1s1m"`},
	{"server 127.0.0.1:1 fail_timeout=;", `1:40: server 127.0.0.1:1: invalid parameter "fail_timeout="`},
	{"server 127.0.0.1:1 route=;", `1:40: server 127.0.0.1:1: route is empty`},
	{"server 127.0.0.1:1 service=x;", `1:28: server 127.0.0.1:1: service= requires the "resolve" parameter`},
	{"server 127.0.0.1:1 \"\";", `1:40: server 127.0.0.1:1: invalid parameter ""`},
	{"server 127.0.0.1:0;", `1:28: server 127.0.0.1:0: invalid port "0": a port is a number from 1 to 65535`},
	{"server 127.0.0.1:65536;", `1:28: server 127.0.0.1:65536: invalid port "65536"`},
	{"server 127.0.0.1:http;", `1:28: server 127.0.0.1:http: invalid port "http"`},
	{"server 127.0.0.1:;", `1:28: server 127.0.0.1:: invalid port ""`},
	{"server ::1:80;", `1:28: server ::1:80: invalid port ":1:80": an IPv6 address goes in brackets`},
	{"server [::1:80;", `1:28: server [::1:80: invalid host: the IPv6 address lacks its "]"`},
	{"server [::1]x;", `1:28: server [::1]x: invalid host: expected ":port" after "]"`},
	{"server [::1]:0;", `1:28: server [::1]:0: invalid port "0"`},
	{"server [::1]/x;", `1:28: server [::1]/x: invalid host: an upstream server takes no URI`},
	{"server http://127.0.0.1;", `1:28: server http://127.0.0.1: invalid host: an upstream server takes no URI or scheme`},
	{"server 127.0.0.1:1/;", `1:28: server 127.0.0.1:1/: invalid host`},
	{"server 127.0.0.1?a;", `1:28: server 127.0.0.1?a: invalid host`},
	{"server unix:;", `1:28: server unix:: no path in the unix domain socket`},
	{"server unix:/" + strings.Repeat("s", 107) + ";", `1:28: server unix:/sss`},
	{"server :80;", `1:28: server :80: no host`},
	{"server;", `1:21: invalid number of arguments in "server" directive`},
	{"server 127.0.0.1:1 { }", `1:40: directive "server" is not terminated by ";"`},
}

func TestNginx(t *testing.T) {
	run(t, "nginx", nginxCases)
	for _, c := range nginxBadServers {
		_, errs := Parse("nginx", []byte("http { upstream c { "+c.line+" } }\n"), "c")
		t.Run(c.line, func(t *testing.T) { checkResult(t, nil, errs, nil, []string{c.err}) })
	}
}

func TestNginxLimits(t *testing.T) {
	deep := strings.Repeat("a {\n", MaxDepth+1) + strings.Repeat("}\n", MaxDepth+1)
	_, errs := Parse("nginx", []byte(deep), "c")
	checkResult(t, nil, errs, nil, []string{"65:3: blocks nest deeper than 64 levels"})

	var b strings.Builder
	b.WriteString("http { upstream c {\n")
	for i := 0; i <= MaxServers; i++ {
		b.WriteString("server 127.0.0.1:1;\n")
	}
	b.WriteString("} }\n")
	_, errs = Parse("nginx", []byte(b.String()), "c")
	checkResult(t, nil, errs, nil, []string{"10002:1: more than 10000 servers"})

	long := "http { upstream c { server 127.0.0.1:1; } }\n# " + strings.Repeat("é", MaxLine) + "\n"
	_, errs = Parse("nginx", []byte(long), "c")
	checkResult(t, nil, errs, nil, []string{"2:32770: line is 131074 bytes long; ringreport reads lines of at most 65536 bytes"})

	b.Reset()
	b.WriteString("http { upstream c {\n")
	for i := 0; i < 200; i++ {
		b.WriteString("server 127.0.0.1:1 weight=0;\n")
	}
	b.WriteString("} }\n")
	_, errs = Parse("nginx", []byte(b.String()), "c")
	if len(errs) != maxErrors || !strings.Contains(errs[maxErrors-1].Msg, "more than 99 problems") {
		t.Errorf("200 bad servers: got %d problems, the last %v; want %d, the last saying it stopped", len(errs), errs[len(errs)-1], maxErrors)
	}
}

func TestNginxBalancer(t *testing.T) {
	for _, c := range []struct {
		in, sel, want string
		ok            bool
	}{
		{"http { upstream c { hash $request_uri consistent; server a; } }", "c", "hash $request_uri consistent", true},
		{"http { upstream c { hash \"$host $uri\"; server a; } }", "c", `hash "$host $uri"`, true},
		{"http { upstream c { hash $uri; ip_hash; server a; } }", "c", "ip_hash", true},
		{"http { upstream c { random two least_conn; server a; } }", "c", "random two least_conn", true},
		{"http { upstream c { server a; } }", "c", "", false},
		{"http { upstream c { server a; } }", "d", "", false},
		{"http { upstream c { server a weight=0; hash $uri consistent; } }", "c", "", false},
	} {
		d, ok := NginxBalancer([]byte(c.in), c.sel)
		if d != c.want || ok != c.ok {
			t.Errorf("NginxBalancer(%q, %q) = %q, %v; want %q, %v", c.in, c.sel, d, ok, c.want, c.ok)
		}
	}
}
