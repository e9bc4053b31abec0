package nodesfrom

import (
	"strings"
	"testing"
)

var haproxyCases = []tc{
	{
		name: "weights, ids, disabled, backup, keywords with arguments, comments",
		sel:  "cache",
		in: `global
    maxconn 100

defaults
    mode http
    timeout connect 1s
    timeout client 1s
    timeout server 1s

frontend fe
    bind 127.0.0.1:8080
    default_backend cache

backend cache
    balance uri
    hash-type consistent
    server s1 10.0.0.1:80 weight 2 check inter 2s   # the first
    server s2 10.0.0.2:80 cookie id id 7 weight 0
	server	s3	10.0.0.3:80	disabled
    server s4 10.0.0.4 backup source 10.0.0.9 interface lo weight 256
    server s5 [::1]:80 ssl verify none sni str(example.com)

backend other
    server o1 10.0.1.1:80
`,
		want: []Node{
			n("10.0.0.1:80", 2, 17, 5).label("s1"),
			n("10.0.0.2:80", 0, 18, 5).label("s2").id(7),
			n("10.0.0.3:80", 1, 19, 2).label("s3").down(),
			n("10.0.0.4", 256, 20, 5).label("s4").backup(),
			n("[::1]:80", 1, 21, 5).label("s5"),
		},
	},
	{
		name: "listen section ended by another section keyword, CRLF, quotes and escapes",
		sel:  "memcache",
		in:   "listen memcache\r\n    bind 127.0.0.1:11211\r\n    server 'm1' \"10.0.0.1:11211\" weight 3\r\n    server m\\x32 10.0.0.2:11211\r\npeers mypeers\r\n    server m3 10.0.0.3:11211\r\n",
		want: []Node{
			n("10.0.0.1:11211", 3, 3, 5).label("m1"),
			n("10.0.0.2:11211", 1, 4, 5).label("m2"),
		},
	},
	{
		name: "default-server in defaults and in the section, in order",
		sel:  "b",
		in: `defaults
    default-server weight 5 disabled
backend b
    server s1 10.0.0.1:80
    default-server weight 7 enabled
    server s2 10.0.0.2:80
    server s3 10.0.0.3:80 weight 1 disabled
defaults
    default-server weight 9
backend c
    server c1 10.0.0.4:80
`,
		want: []Node{
			n("10.0.0.1:80", 5, 4, 5).label("s1").down(),
			n("10.0.0.2:80", 7, 6, 5).label("s2"),
			n("10.0.0.3:80", 1, 7, 5).label("s3").down(),
		},
	},
	{
		name: "named defaults and from",
		sel:  "b",
		in: `defaults base
    default-server weight 4 backup
defaults tuned from base
    default-server no-backup
defaults
    default-server weight 9
backend b from tuned
    server s1 10.0.0.1:80
backend c
    server c1 10.0.0.2:80
`,
		want: []Node{n("10.0.0.1:80", 4, 8, 5).label("s1")},
	},
	{
		name: "conditions that are numbers",
		sel:  "b",
		in: `backend b
.if 0
    server s0 10.0.0.9:80
.elif !0
    server s1 10.0.0.1:80
.else
    server s2 10.0.0.2:80
.endif
.if 1
  .if 0
    server s3 10.0.0.3:80
  .endif
    server s4 10.0.0.4:80
.endif
    .notice "done"
`,
		want: []Node{
			n("10.0.0.1:80", 1, 5, 5).label("s1"),
			n("10.0.0.4:80", 1, 13, 5).label("s4"),
		},
	},
	{
		name: "a condition elsewhere is not a problem",
		sel:  "b",
		in:   ".if defined(HAPROXY_LOCALPEER)\nglobal\n    maxconn 10\n.endif\nbackend b\n    server s1 10.0.0.1:80\n",
		want: []Node{n("10.0.0.1:80", 1, 6, 5).label("s1")},
	},
	{
		name: "a condition around other lines of the backend is not a problem",
		sel:  "b",
		in:   "backend b\n.if defined(SLOW)\n    timeout server 30s\n.endif\n    server s1 10.0.0.1:80\n",
		want: []Node{n("10.0.0.1:80", 1, 5, 5).label("s1")},
	},
	{
		name: "$.LINE and $.SECTION are expanded",
		sel:  "b",
		in:   "backend b\n    server \"s$.LINE\" 10.0.0.1:80\n    server \"${.SECTION}2\" 10.0.0.2:80\n",
		want: []Node{
			n("10.0.0.1:80", 1, 2, 5).label("s2"),
			n("10.0.0.2:80", 1, 3, 5).label("b2"),
		},
	},
	{
		name: "a server name used twice is fine when both have ids",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80 id 1\n    server s1 10.0.0.2:80 id 2\n",
		want: []Node{
			n("10.0.0.1:80", 1, 2, 5).label("s1").id(1),
			n("10.0.0.2:80", 1, 3, 5).label("s1").id(2),
		},
	},
	{
		name: "an empty word ends the server's keywords, as HAProxy reads it",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80 \"\" weight 2\n",
		want: []Node{n("10.0.0.1:80", 1, 2, 5).label("s1")},
	},
	{
		name: "addresses: no port, offsets, empty port, family prefix, host name",
		sel:  "b",
		in:   "backend b\n  server a 10.0.0.1\n  server b 10.0.0.1:+1\n  server c 10.0.0.1:\n  server d ipv4@10.0.0.1:80\n  server e localhost:80\n  server f ::1:80\n  server g 10.0.0.1:-5\n",
		want: []Node{
			n("10.0.0.1", 1, 2, 3).label("a"),
			n("10.0.0.1:+1", 1, 3, 3).label("b"),
			n("10.0.0.1:", 1, 4, 3).label("c"),
			n("ipv4@10.0.0.1:80", 1, 5, 3).label("d"),
			n("localhost:80", 1, 6, 3).label("e"),
			n("::1:80", 1, 7, 3).label("f"),
			n("10.0.0.1:-5", 1, 8, 3).label("g"),
		},
	},

	// problems
	{
		name:    "no such backend: the closest name is suggested",
		sel:     "cahce",
		in:      "frontend cache\n    bind :80\nbackend cache\n    server s1 10.0.0.1:80\nlisten api\n    server s2 10.0.0.2:80\n",
		errs:    []string{`3:1: no backend or listen section named "cahce"; did you mean "cache" (at 3:1)? backends in this file: cache, api`},
		product: "HAProxy accepts the file",
	},
	{
		name:    "no selector",
		in:      "backend cache\n    server s1 10.0.0.1:80\n",
		errs:    []string{`0:0: Parse needs the backend's name; backends in this file: cache`},
		product: "HAProxy accepts the file",
	},
	{
		name: "two backends of the same name",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80\nbackend b\n    server s2 10.0.0.2:80\n",
		errs: []string{`3:1: backend "b" has the same name as the section at 1:1`},
	},
	{
		name:    "a backend and a listen of the same name",
		sel:     "b",
		in:      "backend b\n    server s1 10.0.0.1:80\nlisten b\n    server s2 10.0.0.2:80\n",
		errs:    []string{`3:1: listen "b" has the same name as the section at 1:1`},
		product: "HAProxy 2.6 checks a listen's name against frontends only, so it accepts a listen named like an earlier backend; which one the name means is unclear",
	},
	{
		name:    "no servers",
		sel:     "b",
		in:      "backend b\n    balance roundrobin\n",
		errs:    []string{`1:1: backend "b" has no server lines`},
		product: "HAProxy accepts a backend without servers",
	},
	{
		name: "ids and names used twice",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80 id 3\n    server s2 10.0.0.2:80 id 3\n    server s3 10.0.0.3:80\n    server s3 10.0.0.4:80\n",
		errs: []string{
			`3:5: server s2: id 3 is already used by server s1 at 2:5`,
			`5:5: another server named "s3" was already defined at line 4`,
		},
	},
	{
		name: "problems in the defaults the backend inherits are reported",
		sel:  "b",
		in:   "defaults\n    default-server weight 300\nbackend b\n    server s1 10.0.0.1:80\n",
		errs: []string{`2:27: default-server: weight 300 is above HAProxy's 256`},
	},
	{
		name:    "problems in defaults the backend does not inherit are not",
		sel:     "b",
		in:      "defaults\n    default-server weight 300\ndefaults\n    mode http\nbackend b\n    server s1 10.0.0.1:80\n",
		want:    []Node{n("10.0.0.1:80", 1, 6, 5).label("s1")},
		product: "HAProxy refuses the first defaults",
	},
	{
		name: "from names no defaults section",
		sel:  "b",
		in:   "backend b from nowhere\n    server s1 10.0.0.1:80\n",
		errs: []string{`1:16: defaults section "nowhere" not found`},
	},
	{
		name:    "a server inside a condition ringreport cannot evaluate",
		sel:     "b",
		in:      "backend b\n.if defined(BACKUP)\n    server s1 10.0.0.1:80\n.endif\n    server s2 10.0.0.2:80\n",
		errs:    []string{`3:5: this line is inside a conditional block (line 2: defined(BACKUP))`},
		product: "HAProxy evaluates the condition",
	},
	{
		name:    "environment variables",
		sel:     "b",
		in:      "backend b\n    server s1 \"${HOST}:80\"\n",
		errs:    []string{`2:15: this word uses the environment variable "HOST"`},
		product: "HAProxy reads the variable (empty when unset)",
	},
	{
		name: "conditions: lone .endif, .else after .else, unterminated .if",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80\n.endif\n.if 1\n.else\n.else\n.if 0\n",
		errs: []string{
			`3:1: lone '.endif' with no matching '.if'`,
			`6:1: '.else' after '.else' is not permitted`,
			`7:1: non-terminated '.if' block`,
		},
	},
	{
		name: "lone .elif and .else, .elif after .else",
		sel:  "b",
		in:   ".elif 1\n.else\n.if 0\n.else\n.elif 1\n.endif\nbackend b\n    server s1 10.0.0.1:80\n",
		errs: []string{
			`1:1: lone '.elif' with no matching '.if'`,
			`2:1: lone '.else' with no matching '.if'`,
			`5:1: '.elif' after '.else' is not permitted`,
		},
	},
	{
		name: ".alert and unknown directives",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80\n.alert \"not here\"\n",
		errs: []string{`3:1: HAProxy stops at this .alert: not here`},
	},
	{
		name: "an unknown directive",
		sel:  "b",
		in:   "backend b\n    server s1 10.0.0.1:80\n.iff 1\n",
		errs: []string{`3:1: unknown directive ".iff"`},
	},
	{
		name:    "server-template",
		sel:     "b",
		in:      "backend b\n    server-template srv 1-3 10.0.0.1:80\n",
		errs:    []string{`2:5: server-template is not supported`},
		product: "HAProxy makes servers from the template",
	},
}

// haproxyBadServers are server lines HAProxy refuses, each alone in
// "backend b\n    LINE\n", and the problem Parse reports.
var haproxyBadServers = []struct{ line, err string }{
	{"server s1 10.0.0.1:80 weight 300", `2:34: server s1: weight 300 is above HAProxy's 256`},
	{"server s1 10.0.0.1:80 weight -1", `2:34: server s1: weight "-1" is not a whole number`},
	{"server s1 10.0.0.1:80 id 0", `2:30: server s1: custom id has to be > 0`},
	{"server s1 10.0.0.1:80 id -3", `2:30: server s1: id "-3" is not a whole number from 1 to 2147483647`},
	{"server s1 10.0.0.1:80 wieght 3", `2:27: server s1: unknown keyword "wieght"`},
	{"server s1 10.0.0.1:80 cookie", `2:27: server s1: "cookie" needs an argument`},
	{"server s1 10.0.0.1:80 source", `2:27: server s1: 'source' expects <addr>[:<port>] as argument`},
	{"server s1 10.0.0.1:80 source 10.0.0.9 interface", `2:43: server s1: "interface" needs an argument`},
	{"server s/1 10.0.0.1:80", `2:12: character "/" is not permitted in server name "s/1"`},
	{"server s1", `2:5: 'server' expects <name> and <addr>[:<port>] as arguments`},
	{"server s1 10.0.0.1:99999", `2:15: server s1: invalid port "99999"`},
	{"server s1 10.0.0.1:1-5", `2:15: server s1: invalid port "1-5"`},
	{`server s1 "10.0.0.1:80`, `2:15: unmatched quote`},
	{`server s1 10.0.0.1:80 weight \x4`, `2:34: truncated or invalid hexadecimal sequence`},
	{`server s1 "$1HOST"`, `2:17: forbidden first character in environment variable name`},
	{`server s1 "${HOST"`, `2:16: unmatched brace in environment variable name`},
	{`server s1 "${HOST[x]}"`, `2:22: truncated or invalid word expansion sequence`},
	{`server s1 "$.NOPE"`, `2:17: unsupported internal variable name ".NOPE"`},
	{"server s1 10.0.0.1:80" + strings.Repeat(" check", 62), `2:393: too many words: HAProxy reads at most 64 on a line`},
}

// haproxyStricter are server lines HAProxy accepts and Parse refuses, as
// sure to be mistakes: HAProxy reads numbers with atol, which stops at
// the first non-digit (or yields 0), and takes a missing address for
// 0.0.0.0.
var haproxyStricter = []struct{ line, err string }{
	{"server s1 :80", `2:15: server s1: no address before the port`},
	{"server s1 10.0.0.1:80 weight 10abc", `2:34: server s1: weight "10abc" is not a whole number`},
	{"server s1 10.0.0.1:80 weight", `2:27: server s1: "weight" needs an argument`},
	{"server s1 10.0.0.1:80 id 4294967297", `2:30: server s1: id "4294967297" is not a whole number from 1 to 2147483647`},
}

func TestHAProxy(t *testing.T) {
	run(t, "haproxy", haproxyCases)
	for _, c := range append(haproxyBadServers, haproxyStricter...) {
		_, errs := Parse("haproxy", []byte("backend b\n    "+c.line+"\n"), "b")
		t.Run(c.line, func(t *testing.T) { checkResult(t, nil, errs, nil, []string{c.err}) })
	}
}

func TestHAProxyLimits(t *testing.T) {
	_, errs := Parse("haproxy", []byte(strings.Repeat(".if 1\n", 100)+"backend b\n  server s 10.0.0.1:80\n"), "b")
	checkResult(t, nil, errs, nil, []string{"100:1: too many nested '.if', max is 99"})

	var b strings.Builder
	b.WriteString("backend b\n")
	for i := 0; i <= MaxServers; i++ {
		b.WriteString("  server s" + itoa(i) + " 10.0.0.1:80\n")
	}
	_, errs = Parse("haproxy", []byte(b.String()), "b")
	checkResult(t, nil, errs, nil, []string{"10002:3: more than 10000 servers"})
}
