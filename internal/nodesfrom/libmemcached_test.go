package nodesfrom

import (
	"strings"
	"testing"
)

var memcachedCases = []tc{
	{
		name: "configuration strings: servers, weights, sockets, other options",
		in: `# the cache tier
--SERVER=10.0.0.1:11211/?2 --SERVER=cache-b.local --HASH=MD5 --DISTRIBUTION=consistent,MD5
--server=10.0.0.3/?0 --BINARY-PROTOCOL --NAMESPACE="app:" --POLL-TIMEOUT=100
  --SOCKET="/run/memcached.sock"/?3 --SERVER=10.0.0.4:08080

--SERVER=1.2.3.4.5 --SERVER=a"b
`,
		want: []Node{
			n("10.0.0.1:11211", 2, 2, 1),
			n("cache-b.local", 1, 2, 28),
			n("10.0.0.3", 1, 3, 1),
			n("/run/memcached.sock", 3, 4, 3),
			n("10.0.0.4:8080", 1, 4, 37),
			n("1.2.3.4.5", 1, 6, 1),
			n(`a"b`, 1, 6, 20),
		},
	},
	{
		name: "END ends a line; RESET drops the servers before it",
		in:   "--SERVER=aaa --SERVER=bbb\n--SERVER=ccc RESET --SERVER=ddd END --SERVER=eee\n",
		want: []Node{n("ddd", 1, 2, 20)},
	},
	{
		name: "server lists, as memcached_servers_parse reads them",
		in:   "10.0.0.1:11211 2,10.0.0.2:11211:3, 10.0.0.3,[::1]:11212\n--servers=10.0.0.5:11211:0,/tmp/m.sock,\n",
		want: []Node{
			n("10.0.0.1:11211", 2, 1, 1),
			n("10.0.0.2:11211", 3, 1, 18),
			n("10.0.0.3", 1, 1, 36),
			n("[::1]:11212", 1, 1, 45),
			n("10.0.0.5:11211", 1, 2, 11),
			n("/tmp/m.sock", 1, 2, 28),
		},
	},

	// problems
	{
		name: "nothing",
		in:   "# empty\n\n",
		errs: []string{`0:0: no servers`},
	},
	{
		name: "a selector",
		sel:  "x",
		in:   "--SERVER=abc\n",
		errs: []string{`0:0: format libmemcached has no sections to select`},
	},
}

// memcachedBadLines are lines Parse refuses, and the problem; lib says
// whether libmemcached refuses them too (a configuration string), or
// reads them some other way (a server list, which memcached_servers_parse
// reads without complaint whatever it holds).
var memcachedBadLines = []struct {
	line, err string
	lib       bool
}{
	{"--SERVER=ab", `1:10: libmemcached cannot read this at "a": expected a host name (3 characters or more)`, true},
	{"--SERVER=random", `1:10: libmemcached cannot read this at "random": expected a host name`, true},
	{"--SERVER=abc:0", `1:13: libmemcached cannot read this at ":0": port 0 is not from 1 to 65535`, false},
	{"--SERVER=abc:99999", `1:13: libmemcached cannot read this at ":99999": port 99999 is not from 1 to 65535`, false},
	{"--SERVER=abc:123456", `1:19: libmemcached cannot read this at "6": expected a space and the next option`, true},
	{"--SERVER=abc  --SERVER=def", `1:14: libmemcached cannot read this at " ": expected an option`, true},
	{"--SERVER=abc,--SERVER=def", `1:13: libmemcached cannot read this at ",": expected a space and the next option`, true},
	{"--SERVER=abc/?2x", `1:16: libmemcached cannot read this at "x": expected a space`, true},
	{"--SERVER=abc:", `1:13: libmemcached cannot read this at ":": expected a space`, true},
	{"--SERVER=abc # note", `1:14: libmemcached cannot read this at "#": expected an option`, true},
	{"--SERVER=", `1:10: libmemcached cannot read this: the line ends too soon; expected a host name`, true},
	{"--SERVERS=abc", `1:1: libmemcached cannot read this at "--SERVERS": unknown option "--SERVERS"`, true},
	{"--SERVER=abc TRUE", `1:14: libmemcached cannot read this at "TRUE": expected an option`, true},
	{"--POLL-TIMEOUT=x --SERVER=abc", `1:16: libmemcached cannot read this at "x": --POLL-TIMEOUT takes a number`, true},
	{"--HASH=SHA1 --SERVER=abc", `1:8: libmemcached cannot read this at "SHA1": expected a hash`, true},
	{"--HASH=HSIEH --SERVER=abc", `1:8: libmemcached cannot read this at "HSIEH": libmemcached refuses HSIEH unless libhashkit was built with it`, true},
	{"--HASH=MD5 --HASH=CRC --SERVER=abc", `1:12: libmemcached cannot read this at "--HASH=": --HASH can only be set once`, true},
	{"--DISTRIBUTION=ketama --SERVER=abc", `1:16: libmemcached cannot read this at "ketama": expected a distribution`, true},
	{"--DISTRIBUTION=consistent, --SERVER=abc", `1:27: libmemcached cannot read this at " ": expected a hash after ","`, true},
	{`--NAMESPACE="a b" --SERVER=abc`, `1:1: libmemcached cannot read this at "--NAMESPACE=": a namespace has no blanks`, true},
	{`--NAMESPACE=abc --NAMESPACE=def --SERVER=abc`, `1:17: libmemcached cannot read this at "--NAMESPACE=": --NAMESPACE can only be called once`, true},
	{`--SERVER=abc INCLUDE "other.conf"`, `1:14: libmemcached cannot read this at "INCLUDE": INCLUDE reads another file`, true},
	{`--SERVER=abc --CONFIGURE-FILE=other.conf`, `1:14: libmemcached cannot read this at "--CONFIGURE-FILE=": --CONFIGURE-FILE= reads another file`, true},
	{"--SERVER=abc CSL_ERROR", `1:14: libmemcached cannot read this at "CSL_ERROR": CSL_ERROR makes libmemcached refuse`, true},
	{"a,,b", `1:3: empty entry between commas`, false},
	{":11211", `1:1: no host before the port in ":11211"`, false},
	{"a b:11211", `1:1: host "a b" has a blank in it; separate servers with commas`, false},
	{"abc:http", `1:5: port "http" is not a number from 1 to 65535`, false},
	{"abc:0", `1:5: port "0" is not a number from 1 to 65535`, false},
	{"abc:11211:x", `1:10: ":x" after the port is not a weight`, false},
	{"abc:11211 +2", `1:10: " +2" after the port is not a weight`, false},
	{"abc:11211:4294967296", `1:10: ":4294967296" after the port is not a weight`, false},
	{"[::1:11211", `1:1: the "[" of an IPv6 address is not closed`, false},
}

func TestMemcached(t *testing.T) {
	run(t, "libmemcached", memcachedCases)
	for _, c := range memcachedBadLines {
		_, errs := Parse("libmemcached", []byte(c.line+"\n"), "")
		t.Run(c.line, func(t *testing.T) { checkResult(t, nil, errs, nil, []string{c.err}) })
	}
}

func TestMemcachedLimits(t *testing.T) {
	list := strings.Repeat(strings.Repeat("10.0.0.1:11211,", 1000)+"\n", MaxServers/1000) + "10.0.0.2\n"
	_, errs := Parse("libmemcached", []byte(list), "")
	checkResult(t, nil, errs, nil, []string{"11:1: more than 10000 servers"})
	long := "--SERVER=" + strings.Repeat("a", 1030)
	if _, errs := Parse("libmemcached", []byte(long), ""); len(errs) != 0 {
		t.Errorf("a 1030-character host name in a configuration string: %v (libmemcached cuts it to 1025)", errs)
	}
	_, errs = Parse("libmemcached", []byte(strings.Repeat("a", 1025)+":11211"), "")
	checkResult(t, nil, errs, nil, []string{"1:1: host name is longer than libmemcached's 1024 bytes"})
}
