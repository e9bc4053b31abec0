// Package redis_test checks internal/profile/redis against real Redis
// Cluster 7.0.15 nodes driven by redis-cli 7.0.15's --cluster planners.
package redis_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/redis"
)

// story is the membership history the test replays on the cluster and
// through the profile, step by step.
type story struct {
	t     *testing.T
	cl    *cluster
	keys  [][]byte
	prev  profile.Placement
	began time.Time
}

// TestRedisCluster replays create (3 masters), add-node + rebalance, weight
// 0 + del-node, two add-nodes + rebalance (leftover slots), a weight of 2,
// a failed master under full coverage and then under partial coverage, and
// three of five masters down (a minority up);
// after each step it compares all 16384 slots, the rebalance plan and the
// routing of every probe key with the profile.
func TestRedisCluster(t *testing.T) {
	began := time.Now()
	server := lab.Need(t, "redis-server", "redis-server")
	cli := lab.Need(t, "redis-cli", "redis-tools")
	cl := startNodes(t, server, cli, 6)
	a, b, c, d, e, f := cl.nodes[0], cl.nodes[1], cl.nodes[2], cl.nodes[3], cl.nodes[4], cl.nodes[5]
	s := &story{t: t, cl: cl, keys: probeKeys(1200), began: began}
	s.keySlots(a)

	cl.run("--cluster", "create", a.name, b.name, c.name, "--cluster-replicas", "0", "--cluster-yes")
	cl.settle(a, []*node{a, b, c})
	s.step("create a b c", redis.Options{}, servers(a, b, c), nil)

	cl.addNode(d, a, []*node{a, b, c, d})
	order := plannerOrder(t, a)
	out := cl.run("--cluster", "rebalance", a.name, "--cluster-use-empty-masters")
	cl.settle(a, []*node{a, b, c, d})
	s.step("add d", redis.Options{Order: order}, servers(a, b, c, d), moves(out))

	order = plannerOrder(t, a)
	out = cl.run("--cluster", "rebalance", a.name, "--cluster-weight", b.id+"=0", "--cluster-use-empty-masters")
	cl.settle(a, []*node{a, b, c, d})
	cl.run("--cluster", "del-node", a.name, b.id)
	cl.settle(a, []*node{a, c, d})
	s.step("weight b=0, del-node b", redis.Options{Order: order}, servers(a, c, d), moves(out))

	cl.addNode(e, a, []*node{a, c, d, e})
	cl.addNode(f, a, []*node{a, c, d, e, f})
	order = plannerOrder(t, a)
	out = cl.run("--cluster", "rebalance", a.name, "--cluster-use-empty-masters")
	cl.settle(a, []*node{a, c, d, e, f})
	s.step("add e f", redis.Options{Order: order}, servers(a, c, d, e, f), moves(out))

	weighted := servers(a, c, d, e, f)
	weighted[3].Weight = 2
	order = plannerOrder(t, a)
	out = cl.run("--cluster", "rebalance", a.name, "--cluster-weight", e.id+"=2", "--cluster-use-empty-masters")
	cl.settle(a, []*node{a, c, d, e, f})
	s.step("weight e=2", redis.Options{Order: order}, weighted, moves(out))

	live := []*node{a, c, e, f}
	cl.stop(d) // detected as failed after the node timeout startNodes sets
	cl.waitInfo(live, "fail")
	down := slices.Clone(weighted)
	down[2].Down = true
	s.step("d fails (full coverage)", redis.Options{}, down, nil)

	for _, n := range live {
		n.c.do(t, "CONFIG", "SET", "cluster-require-full-coverage", "no")
	}
	cl.waitInfo(live, "ok")
	s.step("d down (partial coverage)", redis.Options{RequireFullCoverage: "no"}, down, nil)

	cl.stop(c)
	cl.stop(e)
	cl.waitInfo([]*node{a, f}, "fail")
	down[1].Down, down[3].Down = true, true
	s.step("c, d, e down (minority up)", redis.Options{RequireFullCoverage: "no"}, down, nil)
	t.Logf("whole test: %v", time.Since(began).Round(time.Millisecond))
}

// servers lists nodes as profile servers of weight 1.
func servers(ns ...*node) []profile.Server {
	out := make([]profile.Server, len(ns))
	for i, n := range ns {
		out[i] = profile.Server{Name: n.name, Weight: 1}
	}
	return out
}

// keySlots checks every probe key's slot against CLUSTER KEYSLOT, in one
// pipeline.
func (s *story) keySlots(n *node) {
	cmds := make([][][]byte, len(s.keys))
	for i, k := range s.keys {
		cmds[i] = [][]byte{[]byte("CLUSTER"), []byte("KEYSLOT"), k}
	}
	bad := 0
	for i, r := range n.c.pipeline(s.t, cmds) {
		if r.Kind != ':' || int(r.Int) != redis.KeySlot(s.keys[i]) {
			if bad++; bad <= 5 {
				s.t.Errorf("key %q: CLUSTER KEYSLOT %+v, KeySlot %d", s.keys[i], r, redis.KeySlot(s.keys[i]))
			}
		}
	}
	s.t.Logf("CLUSTER KEYSLOT: %d/%d keys agree", len(s.keys)-bad, len(s.keys))
}

// step builds the profile's placement for servers and compares it with the
// cluster as the first server sees it: the plan redis-cli printed, the
// master of every slot, and where every probe key is served.
func (s *story) step(name string, o redis.Options, srv []profile.Server, plan []redis.Move) {
	t := s.t
	t.Helper()
	rule, err := redis.New(o)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := rule.Build(srv, s.prev)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p := pl.(*redis.Placement)
	if got := p.Plan(); !slices.Equal(got, plan) {
		t.Errorf("%s: plan\n redis-cli %v\n profile   %v", name, plan, got)
	}
	entry := s.cl.nodes[0]
	real := slotTable(t, entry)
	same := 0
	for x := range redis.Slots {
		if want, got := real[x], srv[p.Owner(x)].Name; want == got {
			same++
		} else if x-same < 5 {
			t.Errorf("%s: slot %d: CLUSTER SLOTS %s, profile %s", name, x, want, got)
		}
	}
	agree := s.routes(name, entry, rule, srv, p)
	if o.Order != nil {
		s.defaultOrder(name, o, srv, p)
	}
	t.Logf("%-26s at %5.1f s, order [%s]\n\tslots %d/%d, keys %d/%d, plan %d moves [%s], counts %v",
		name, time.Since(s.began).Seconds(), s.letters(o.Order), same, redis.Slots, agree, len(s.keys), len(plan), s.planLetters(plan), p.Counts())
	if same != redis.Slots || agree != len(s.keys) {
		t.FailNow()
	}
	s.prev = pl
}

// defaultOrder logs whether the default node order (list order) would have
// given the table that the order read from the cluster gives: where it does
// not, Redis' random node ids decided the step.
func (s *story) defaultOrder(name string, o redis.Options, srv []profile.Server, p *redis.Placement) {
	o.Order = nil
	rule, err := redis.New(o)
	if err != nil {
		s.t.Fatal(err)
	}
	pl, err := rule.Build(srv, s.prev)
	if err != nil {
		s.t.Fatalf("%s, default order: %v", name, err)
	}
	q, same := pl.(*redis.Placement), 0
	for x := range redis.Slots {
		if q.Owner(x) == p.Owner(x) {
			same++
		}
	}
	s.t.Logf("%s: the default order gives %d/%d slots the same master", name, same, redis.Slots)
}

// routes asks entry for every probe key (GET, pipelined) and compares where
// Redis serves it with Owners(h, 1): the entry itself (a reply), the node a
// MOVED names, or nowhere (CLUSTERDOWN, or MOVED to a down node). It
// returns how many keys agree.
func (s *story) routes(name string, entry *node, rule profile.Rule, srv []profile.Server, p *redis.Placement) int {
	t := s.t
	down := make(map[string]bool)
	for _, v := range srv {
		down[v.Name] = v.Down
	}
	cmds := make([][][]byte, len(s.keys))
	for i, k := range s.keys {
		cmds[i] = [][]byte{[]byte("GET"), k}
	}
	agree, bad := 0, 0
	var dst []int
	for i, r := range entry.c.pipeline(t, cmds) {
		real := entry.name
		switch {
		case r.Kind == '-' && strings.HasPrefix(r.Str, "MOVED "):
			f := strings.Fields(r.Str)
			if slot, _ := strconv.Atoi(f[1]); slot != redis.KeySlot(s.keys[i]) {
				t.Errorf("%s: key %q MOVED for slot %d, KeySlot %d", name, s.keys[i], slot, redis.KeySlot(s.keys[i]))
			}
			real = f[2]
			if down[real] {
				real = "none"
			}
		case r.Kind == '-' && strings.HasPrefix(r.Str, "CLUSTERDOWN"):
			real = "none"
		case r.Kind == '-':
			t.Fatalf("%s: GET %q: %s", name, s.keys[i], r.Str)
		}
		dst = p.Owners(rule.Hash(s.keys[i]), 1, dst[:0])
		got := "none"
		if len(dst) > 0 {
			got = srv[dst[0]].Name
		}
		if got == real {
			agree++
		} else if bad++; bad <= 5 {
			t.Errorf("%s: key %q (slot %d): Redis %s, profile %s", name, s.keys[i], redis.KeySlot(s.keys[i]), real, got)
		}
	}
	return agree
}

// letters names nodes a, b, c, … in start order, for logs comparable
// between runs (ports differ).
func (s *story) letters(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		for k, nd := range s.cl.nodes {
			if nd.name == n {
				out[i] = string(rune('a' + k))
			}
		}
	}
	return strings.Join(out, " ")
}

// planLetters renders a plan as "b→d 1366, …".
func (s *story) planLetters(plan []redis.Move) string {
	out := make([]string, len(plan))
	for i, m := range plan {
		out[i] = fmt.Sprintf("%s→%s %d", s.letters([]string{m.From}), s.letters([]string{m.To}), m.Slots)
	}
	return strings.Join(out, ", ")
}
