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

// TestRedisCluster replays a membership history on five real nodes and
// through the profile, and after each step compares all 16384 slots, the
// plan redis-cli printed and the routing of every probe key; each
// rebalance is also replayed with the default node order, to log whether
// Redis' random node ids decided it. The history is chosen to take, at
// few slot moves (each costs several CLUSTER SETSLOTs on every master, and
// each master a nodes.conf rewrite and a pong to process: most of the
// test's CPU), every path of redis-cli 7.0.15's clusterManagerCommandRebalance and
// clusterManagerComputeReshardTable, of add-node and del-node, and of
// cluster.c's clusterUpdateState that a longer history (one add, a
// removal, two adds, a weight: 16,934 moves on six nodes) took, in 4,566
// moves:
//
//   - create a b c: clusterManagerCommandCreate, 3 masters, no replica.
//   - add d e, a=79 b=80 c=80 e=76: add-node into a cluster without and
//     then with an empty master; --cluster-use-empty-masters bringing in
//     masters with no slot (over the threshold by expected > 1);
//     several --cluster-weight arguments, which give d (weight 1) a small
//     share and e nearly a quarter; a leftover of 3 over two receivers,
//     one full pass and one partial; two receivers, three donors, a donor
//     split between them (c→e 1261, c→d 53). 3,994 slots move.
//   - weight d=0 (the others as before), del-node d: a weight-0 donor; a
//     leftover of 1 (a partial pass: the node order picks the receiver);
//     one donor, four receivers; the donor's last slot turning it into a
//     replica (SETSLOT may then answer "use SETSLOT only with masters",
//     which redis-cli accepts); del-node of the emptied node. 53 move.
//   - weights back to 1: no --cluster-weight; a master with slots over
//     the threshold (err_perc: e, 3,952 slots) beside masters within it;
//     targets of exactly 4096, so the leftover loop is not entered; one
//     receiver, three donors. 144 move.
//   - a b c=8, e=9: weights above 1 on every master, e's a ninth above
//     the others'; a leftover of 3 going to the only receiver (three
//     passes; 16384/33 in single precision gives targets 3971 and 4468,
//     three short of 16384); three donors of equal balance, which keep
//     the node order. 375 move. (Its paths are those of the weight e=2
//     that it replaced, plan for plan: [c→e 820, b→e 820, a→e 820], a
//     leftover of 3, 2,460 moves; a weight ratio nearer 1 moves fewer
//     slots, each of which costs every master a config rewrite and a
//     pong to process.)
//   - e fails (full coverage), e down (partial coverage), c and e down:
//     a failed master with cluster-require-full-coverage yes, then no,
//     then two of four masters down, exactly half, which is no majority.
//
// The three steps after the create replaced a=5 b=6 c=6 with d and e at
// weight 1 (1,727, 863 and 3,186 moves), which took the same paths step
// for step. Whatever the weights, e's 4,096 slots arrive by the even
// table; the slots saved are d's share, which moves in and then out again
// (863 slots then, 53 now).
func TestRedisCluster(t *testing.T) {
	began := time.Now()
	server := lab.Need(t, "redis-server", "redis-server")
	cli := lab.Need(t, "redis-cli", "redis-tools")
	cl := startNodes(t, server, cli, 5)
	s := &story{t: t, cl: cl, keys: probeKeys(1200), began: began}
	s.keySlots(cl.nodes[0])
	kept := s.rebalances()
	s.failures(kept)
	t.Logf("whole test: %v", time.Since(began).Round(time.Millisecond))
}

// rebalances runs the story's create and rebalance steps and returns the
// servers it leaves: a b c e of weights 8 8 8 9.
func (s *story) rebalances() []profile.Server {
	cl := s.cl
	a, b, c, d, e := cl.nodes[0], cl.nodes[1], cl.nodes[2], cl.nodes[3], cl.nodes[4]
	cl.run("--cluster", "create", a.name, b.name, c.name, "--cluster-replicas", "0", "--cluster-yes")
	cl.settle(a, []*node{a, b, c})
	s.step("create a b c", redis.Options{RequireFullCoverage: "no"}, servers(a, b, c), nil)

	all := []*node{a, b, c, d, e}
	cl.addNode(d, a, []*node{a, b, c, d})
	cl.addNode(e, a, all)
	srv := servers(a, b, c, d, e)
	srv[0].Weight, srv[1].Weight, srv[2].Weight, srv[4].Weight = 79, 80, 80, 76
	heavy := []string{a.id + "=79", b.id + "=80", c.id + "=80", e.id + "=76"}
	o, plan := s.rebalance(all, heavy...)
	s.step("add d e, a=79 b=80 c=80 e=76", o, srv, plan)

	srv = slices.Delete(srv, 3, 4) // a b c e
	o, plan = s.rebalance(all, append(heavy, d.id+"=0")...)
	cl.run("--cluster", "del-node", a.name, d.id)
	all = []*node{a, b, c, e}
	cl.settle(a, all)
	s.step("weight d=0, del-node d", o, srv, plan)

	srv = servers(a, b, c, e)
	o, plan = s.rebalance(all)
	s.step("weights back to 1", o, srv, plan)

	srv[0].Weight, srv[1].Weight, srv[2].Weight, srv[3].Weight = 8, 8, 8, 9
	o, plan = s.rebalance(all, a.id+"=8", b.id+"=8", c.id+"=8", e.id+"=9")
	s.step("a b c=8, e=9", o, srv, plan)
	return srv
}

// rebalance runs `redis-cli --cluster rebalance --cluster-use-empty-masters`
// from the first node with the weights given (node id=weight) and waits
// until members settle. It returns the options that replay it (the node
// order redis-cli saw) and the plan redis-cli printed.
func (s *story) rebalance(members []*node, weights ...string) (redis.Options, []redis.Move) {
	entry := s.cl.nodes[0]
	args := []string{"--cluster", "rebalance", entry.name}
	if len(weights) > 0 {
		args = append(append(args, "--cluster-weight"), weights...)
	}
	order := plannerOrder(s.t, entry)
	out := s.cl.run(append(args, "--cluster-use-empty-masters")...)
	s.cl.settle(entry, members)
	return redis.Options{Order: order, RequireFullCoverage: "no"}, moves(out)
}

// failures stops masters of the servers the rebalances left (a b c e,
// of weights 8 8 8 9) and checks what each state serves.
func (s *story) failures(srv []profile.Server) {
	cl := s.cl
	a, b, c, e := cl.nodes[0], cl.nodes[1], cl.nodes[2], cl.nodes[4]
	cl.fullCoverage([]*node{a, b, c, e}, "yes")
	cl.stop(e) // detected as failed after the node timeout startNodes sets
	cl.waitInfo([]*node{a, b, c}, "fail")
	down := slices.Clone(srv)
	down[3].Down = true
	s.step("e fails (full coverage)", redis.Options{RequireFullCoverage: "yes"}, down, nil)

	cl.fullCoverage([]*node{a, b, c}, "no")
	cl.waitInfo([]*node{a, b, c}, "ok")
	s.step("e down (partial coverage)", redis.Options{RequireFullCoverage: "no"}, down, nil)

	cl.stop(c)
	cl.waitInfo([]*node{a, b}, "fail")
	down[2].Down = true
	s.step("c, e down (half: no majority)", redis.Options{RequireFullCoverage: "no"}, down, nil)
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
