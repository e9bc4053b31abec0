package nginx_test

import (
	"fmt"
	"hash/crc32"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile/nginx"
)

// storyNames checks which text nginx hashes for server names of other
// shapes: unix sockets (either case of the prefix), a port written with a
// leading zero (hashed as written, "08001", not as the number), and a
// server without a port (port 80, hashed with an empty port), this one only
// where this test may listen on 127.0.0.1:80.
func storyNames(t *testing.T, keys [][]byte, log *stepLog, free *ports) story {
	sock := t.TempDir()
	p := free.take(2)
	a := filepath.Join(sock, "a.sock")
	b := filepath.Join(sock, "b.sock")
	zero := fmt.Sprintf("127.0.0.1:0%d", p[1])
	servers := []backend{
		tcp(p[0], 1),
		{name: zero, addr: fmt.Sprintf("127.0.0.1:%d", p[1]), listen: fmt.Sprintf("127.0.0.1:%d", p[1]), weight: 1},
	}
	// $upstream_addr spells a socket as the server line does, prefix case included
	if len(b) < 100 { // a socket path has at most 107 bytes
		servers = append(servers,
			backend{name: "unix:" + a, addr: "unix:" + a, listen: "unix:" + a, weight: 1},
			backend{name: "UNIX:" + b, addr: "UNIX:" + b, listen: "unix:" + b, weight: 2})
	} else {
		t.Logf("temporary folder %s too long for a socket path: the unix servers are left out", sock)
	}
	if l, err := net.Listen("tcp", "127.0.0.1:80"); err == nil {
		l.Close()
		servers = append(servers, backend{name: "127.0.0.1", addr: "127.0.0.1:80", listen: "127.0.0.1:80", weight: 1})
	} else {
		t.Logf("127.0.0.1:80 not available (%v): the no-port server is left out", err)
	}
	ups := both("names", servers)
	return story{"names", ups, func(t *testing.T, front int) {
		for _, u := range ups {
			log.add("names", fmt.Sprintf(":0port, unix, UNIX, no port: %d", len(servers)), u, compare(t, front, u, keys))
		}
	}}
}

// storyTies checks nginx's order among equal points: with 20 servers of
// weight 100 (320,000 points) some points of different servers share a
// hash; nginx keeps the one of the server listed first. Keys crafted to
// land on such points go to the first-listed of the two, so listing the
// servers in reverse order moves them: two upstreams, one in each order.
func storyTies(t *testing.T, keys [][]byte, log *stepLog, free *ports) story {
	var fwd []backend
	for _, port := range free.take(20) {
		fwd = append(fwd, tcp(port, 100))
	}
	rev := slices.Clone(fwd)
	slices.Reverse(rev)
	tieKeys := craftTieKeys(t, fwd)
	if len(tieKeys) == 0 {
		t.Log("no tie between two servers' points with these ports: nothing to craft")
	}
	all := append(slices.Clone(keys), tieKeys...)
	ups := []upstream{
		{name: "ties_c", consistent: true, servers: fwd},
		{name: "ties_c_rev", consistent: true, servers: rev},
		{name: "ties_p", servers: fwd},
		{name: "ties_p_rev", servers: rev},
	}
	return story{"ties", ups, func(t *testing.T, front int) {
		var owner [2][]int
		for i, u := range ups {
			r := compare(t, front, u, all)
			log.add("ties", fmt.Sprintf("20 x weight 100, %s", u.name), u, r)
			if i < 2 {
				owner[i] = r.nginxOwner
			}
		}
		moved := 0
		for i := len(keys); i < len(all); i++ {
			if fwd[owner[0][i]].addr != rev[owner[1][i]].addr {
				moved++
			}
		}
		t.Logf("%d crafted tie keys; %d of them go to a different server when the order is reversed", len(tieKeys), moved)
		if len(tieKeys) > 0 && moved != len(tieKeys) {
			t.Errorf("only %d of %d tie keys follow the configuration order", moved, len(tieKeys))
		}
	}}
}

// craftTieKeys finds hashes that points of two different servers share
// and, for up to 8 of them, a key whose hash lands on that point (between
// the previous distinct point, exclusive, and it, inclusive).
func craftTieKeys(t *testing.T, servers []backend) [][]byte {
	type pt struct {
		h uint32
		s int
	}
	var pts []pt
	var chain []uint32
	for i, s := range servers {
		chain = nginx.ServerPoints(s.name, s.weight, chain[:0])
		for _, h := range chain {
			pts = append(pts, pt{h, i})
		}
	}
	slices.SortFunc(pts, func(a, b pt) int {
		if a.h != b.h {
			return cmpU32(a.h, b.h)
		}
		return a.s - b.s
	})
	type arc struct{ lo, hi uint32 } // keys with lo < h ≤ hi land on hi
	var arcs []arc
	for i := 1; i < len(pts); i++ {
		if pts[i].h != pts[i-1].h || pts[i].s == pts[i-1].s {
			continue
		}
		j := i - 1 // first point of this hash
		for j > 0 && pts[j-1].h == pts[i].h {
			j--
		}
		if j > 0 { // skip a tie on the lowest point (its arc wraps)
			arcs = append(arcs, arc{pts[j-1].h, pts[i].h})
		}
	}
	slices.SortFunc(arcs, func(a, b arc) int { return cmpU32(b.hi-b.lo, a.hi-a.lo) })
	var keys [][]byte
	buf := make([]byte, 0, 32)
	for ai, a := range arcs {
		if len(keys) == 8 || a.hi-a.lo < 4096 {
			break
		}
		prefix := fmt.Appendf(nil, "tie-%d-", ai)
		for n := 0; n < 1<<22; n++ {
			buf = strconv.AppendInt(append(buf[:0], prefix...), int64(n), 10)
			if h := crc32.ChecksumIEEE(buf); h > a.lo && h <= a.hi {
				keys = append(keys, slices.Clone(buf))
				break
			}
		}
	}
	t.Logf("%d hashes shared by two servers' points; crafted %d keys onto them", len(arcs), len(keys))
	return keys
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// storyFallback checks where nginx stops hashing: server A (weight 30) is
// down and B, C (weight 1 each) are up, so about a quarter of the keys meet
// more than 20 of A's points (or plain-hash picks of A) in a row. nginx
// then uses round robin over B and C, which, in an upstream whose other
// requests were all hashed (round robin's weights are the upstream's own,
// and only its fallbacks move them), alternates B, C, B, … in request
// order. askAll sends the keys in order on one connection, which nginx
// answers in order, so nginx's answer is predicted for every key:
// Owners(h, 1) where Fallback is false, the round robin's next where it is
// true.
func storyFallback(keys [][]byte, log *stepLog, free *ports) story {
	p := free.take(3)
	a, b, c := tcp(p[0], 30), tcp(p[1], 1), tcp(p[2], 1)
	a.down = true
	ups := both("fallback", []backend{a, b, c})
	return story{"fallback", ups, func(t *testing.T, front int) {
		for _, u := range ups {
			rule, _ := nginx.New(nginx.Options{Consistent: u.consistent})
			pl, err := rule.Build(u.profileServers(), nil)
			if err != nil {
				t.Fatal(err)
			}
			fb := pl.(interface{ Fallback(uint64, int) bool })
			got := askAll(t, front, u.name, keys)
			r := result{}
			rr := 0 // round-robin picks so far
			var bad []string
			for i, k := range keys {
				h := rule.Hash(k)
				var want backend
				if fb.Fallback(h, 1) {
					want = []backend{b, c}[rr%2]
					rr++
					r.fallback++
				} else {
					want = u.servers[pl.Owners(h, 1, nil)[0]]
				}
				r.total++
				if got[i] == want.addr {
					r.agree++
				} else if len(bad) < 8 {
					bad = append(bad, fmt.Sprintf("  key %q (h %#x, fallback %v): nginx %s, predicted %s", k, h, fb.Fallback(h, 1), got[i], want.addr))
				}
			}
			if r.agree != r.total || r.fallback == 0 {
				t.Errorf("/%s: %d of %d agree (%d fallbacks); first disagreements:\n%s", u.name, r.agree, r.total, r.fallback, strings.Join(bad, "\n"))
			}
			log.add("fallback", "A(30) down, B(1), C(1)", u, r)
		}
	}}
}
