package redis_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/redis"
)

// srv lists servers of weight 1 by name.
func srv(names ...string) []profile.Server {
	out := make([]profile.Server, len(names))
	for i, n := range names {
		out[i] = profile.Server{Name: n, Weight: 1}
	}
	return out
}

// build runs Build and fails the test on an error.
func build(t *testing.T, r profile.Rule, s []profile.Server, prev profile.Placement) *redis.Placement {
	t.Helper()
	p, err := r.Build(s, prev)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*redis.Placement)
}

func rule(t *testing.T, o redis.Options) profile.Rule {
	t.Helper()
	r, err := redis.New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// ranges renders the slots of server i as "a-b c-d".
func ranges(p *redis.Placement, i int) string {
	var out []string
	for x := 0; x < redis.Slots; x++ {
		if p.Owner(x) != i {
			continue
		}
		y := x
		for y+1 < redis.Slots && p.Owner(y+1) == i {
			y++
		}
		out = append(out, fmt.Sprintf("%d-%d", x, y))
		x = y
	}
	return strings.Join(out, " ")
}

// TestCreateRanges checks redis-cli --cluster create's ranges: 3 masters
// as production-rules.md §8 and every redis-cli run prints them, 6 masters
// as redis-cli 7.0.15 prints "Master[i] -> Slots a - b".
func TestCreateRanges(t *testing.T) {
	for _, v := range []struct {
		n           int
		first, last []int
	}{
		{3, []int{0, 5461, 10923}, []int{5460, 10922, 16383}},
		{6, []int{0, 2731, 5461, 8192, 10923, 13653}, []int{2730, 5460, 8191, 10922, 13652, 16383}},
	} {
		first, last := redis.CreateRanges(v.n)
		if !slices.Equal(first, v.first) || !slices.Equal(last, v.last) {
			t.Errorf("%d masters: %v–%v, want %v–%v", v.n, first, last, v.first, v.last)
		}
	}
	for _, n := range []int{1, 2, 4, 5, 7, 100, 1000, 16383, 16384} {
		first, last := redis.CreateRanges(n)
		next := 0
		for i := range first {
			if first[i] != next || last[i] < first[i] {
				t.Fatalf("%d masters: range %d is %d-%d after %d", n, i, first[i], last[i], next-1)
			}
			next = last[i] + 1
		}
		if next != redis.Slots {
			t.Fatalf("%d masters end at %d", n, next-1)
		}
	}
}

// TestCreateInterleavesHosts checks that create deals its ranges one host
// at a time, as redis-cli's interleaving does.
func TestCreateInterleavesHosts(t *testing.T) {
	p := build(t, rule(t, redis.Options{}), srv("10.0.0.1:7000", "10.0.0.1:7001", "10.0.0.2:7000", "10.0.0.2:7001"), nil)
	want := []string{"0-4095", "8192-12287", "4096-8191", "12288-16383"}
	for i, w := range want {
		if got := ranges(p, i); got != w {
			t.Errorf("server %d: %s, want %s", i, got, w)
		}
	}
	for _, v := range []struct{ name, host string }{
		{"10.0.0.1:7000", "10.0.0.1"}, {"10.0.0.1:7000@17000", "10.0.0.1"}, {"::1:7000", "::1"}, {"cache-a", "cache-a"},
	} {
		if got := redis.Host(v.name); got != v.host {
			t.Errorf("Host(%q) = %q, want %q", v.name, got, v.host)
		}
	}
}

// TestStory replays production-rules.md §8's story (redis-cli 7.0.15 on
// 6 nodes): counts, the ranges of the first rebalance, the leftovers that
// go to the newcomer, and the weight-2 step.
func TestStory(t *testing.T) {
	r := rule(t, redis.Options{})
	p := build(t, r, srv("a", "b", "c"), nil)
	if got := p.Counts(); !slices.Equal(got, []int{5461, 5462, 5461}) {
		t.Fatalf("create: %v", got)
	}
	p = build(t, r, srv("a", "b", "c", "d"), p)
	if got := ranges(p, 3); got != "0-1364 5461-6826 10923-12287" {
		t.Errorf("add d: d holds %s, want 0-1364 5461-6826 10923-12287 (redis-cli)", got)
	}
	wantPlan := []redis.Move{{From: "b", To: "d", Slots: 1366}, {From: "c", To: "d", Slots: 1365}, {From: "a", To: "d", Slots: 1365}}
	if got := p.Plan(); !slices.Equal(got, wantPlan) {
		t.Errorf("add d: plan %v, want %v", got, wantPlan)
	}
	p = build(t, r, srv("a", "c", "d"), p)
	if got := p.Counts(); !slices.Equal(got, []int{5462, 5461, 5461}) {
		t.Errorf("remove b: %v, want the leftover on a, the entry node", got)
	}
	p = build(t, r, srv("a", "c", "d", "e"), p)
	p = build(t, r, srv("a", "c", "d", "e", "f"), p)
	if got := p.Counts(); !slices.Equal(got, []int{3276, 3276, 3276, 3276, 3280}) {
		t.Errorf("add f: %v, want the 4 leftovers on f (redis-cli: 3280)", got)
	}
	w := srv("a", "c", "d", "e", "f")
	w[0].Weight = 2
	p = build(t, r, w, p)
	if got := p.Counts(); !slices.Equal(got, []int{5464, 2730, 2730, 2730, 2730}) {
		t.Errorf("weight a=2: %v, want 5464 and 2730s (redis-cli)", got)
	}
	if got := p.Plan(); len(got) != 4 || got[0] != (redis.Move{From: "f", To: "a", Slots: 550}) {
		t.Errorf("weight a=2: plan %v, want 550 from f first, then 546 from each other", got)
	}
}

// TestLeftoversAndTies adds two servers at once: the 4 leftovers go round
// robin to the receivers, in node order, and the tie between the two
// receivers is broken by node order (stable, like glibc's merge sort).
func TestLeftoversAndTies(t *testing.T) {
	start := func(r profile.Rule) *redis.Placement {
		p := build(t, r, srv("a", "b", "c"), nil)
		return build(t, r, srv("a", "b", "c", "d", "e"), p)
	}
	p := start(rule(t, redis.Options{}))
	if got := p.Counts(); !slices.Equal(got[3:], []int{3278, 3278}) {
		t.Fatalf("counts %v, want 3278 for each newcomer", got)
	}
	q := start(rule(t, redis.Options{Order: []string{"a", "b", "c", "e", "d"}}))
	if ranges(p, 3) != ranges(q, 4) || ranges(p, 4) != ranges(q, 3) {
		t.Errorf("swapping d and e in the order should swap their slots:\n d %s / e %s\n e %s / d %s",
			ranges(p, 3), ranges(p, 4), ranges(q, 4), ranges(q, 3))
	}
	if ranges(p, 3) == ranges(p, 4) {
		t.Error("d and e hold the same slots")
	}
}

// TestOrderDecidesRemoval removes b from 4 masters: the receiver first in
// node order takes the leftover and b's lowest slots.
func TestOrderDecidesRemoval(t *testing.T) {
	for _, order := range [][]string{nil, {"c", "d", "a", "b"}, {"d", "b", "a", "c"}} {
		r := rule(t, redis.Options{Order: order})
		p := build(t, r, srv("a", "b", "c", "d"), nil) // 4096 each
		p = build(t, r, srv("a", "c", "d"), p)
		first := "a"
		if order != nil {
			first = order[0]
		}
		i := slices.Index([]string{"a", "c", "d"}, first)
		if p.Counts()[i] != 5462 || p.Owner(4096) != i || p.Owner(5461) != i {
			t.Errorf("order %v: %s holds %d slots (%s); want 5462 incl. b's lowest 4096-5461",
				order, first, p.Counts()[i], ranges(p, i))
		}
	}
}

// TestThreshold checks --cluster-threshold: a weight change that leaves
// every master within 2% of its expected count moves nothing, a lower
// threshold rebalances.
func TestThreshold(t *testing.T) {
	w := func(a int) []profile.Server {
		s := srv("a", "b", "c")
		for i := range s {
			s[i].Weight = 50
		}
		s[0].Weight = a
		return s
	}
	for _, v := range []struct {
		threshold float64
		moves     bool
	}{{0, false}, {2, false}, {1, true}} {
		r := rule(t, redis.Options{Threshold: v.threshold})
		p := build(t, r, w(50), nil)
		p = build(t, r, w(51), p)
		if got := p.Plan() != nil; got != v.moves {
			t.Errorf("threshold %v: plan %v, want moves %v", v.threshold, p.Plan(), v.moves)
		}
	}
}

// TestWeightsAtCreate checks that weights given at the start are applied by
// one rebalance after create.
func TestWeightsAtCreate(t *testing.T) {
	s := srv("a", "b", "c")
	s[1].Weight = 2
	p := build(t, rule(t, redis.Options{}), s, nil)
	if got := p.Counts(); !slices.Equal(got, []int{4096, 8192, 4096}) {
		t.Errorf("counts %v, want 4096 8192 4096", got)
	}
}

// TestOneServer checks a one-master cluster and growth from it.
func TestOneServer(t *testing.T) {
	r := rule(t, redis.Options{})
	p := build(t, r, srv("solo"), nil)
	if got := p.Owners(12345, 3, nil); !slices.Equal(got, []int{0}) {
		t.Errorf("Owners(r=3) = %v, want [0]: no replicas", got)
	}
	p = build(t, r, srv("solo", "b"), p)
	if got := p.Counts(); !slices.Equal(got, []int{8192, 8192}) || ranges(p, 1) != "0-8191" {
		t.Errorf("add b: %v, b holds %s", got, ranges(p, 1))
	}
}

// TestReorderKeepsTable checks that listing the same servers in another
// order moves nothing and re-indexes the owners.
func TestReorderKeepsTable(t *testing.T) {
	r := rule(t, redis.Options{})
	p := build(t, r, srv("a", "b", "c"), nil)
	q := build(t, r, srv("c", "a", "b"), p)
	if q.Plan() != nil || ranges(q, 0) != ranges(p, 2) || ranges(q, 1) != ranges(p, 0) {
		t.Errorf("reorder changed the table: %v", q.Plan())
	}
}

// TestDown checks availability with a failed master: full coverage (the
// default) serves nothing, partial coverage serves the other masters'
// slots, and a minority of masters up serves nothing either way.
func TestDown(t *testing.T) {
	count := func(p *redis.Placement) (served int) {
		var dst []int
		for x := range redis.Slots {
			if dst = p.Owners(uint64(x), 2, dst[:0]); len(dst) > 0 {
				served++
			}
		}
		return served
	}
	for _, v := range []struct {
		full        string
		n, down     int
		wantServed  int
		description string
	}{
		{"", 4, 1, 0, "full coverage, one of 4 down"},
		{"yes", 4, 0, redis.Slots, "all up"},
		{"no", 4, 1, 3 * 4096, "partial, one of 4 down"},
		{"no", 4, 2, 0, "partial, 2 of 4 down: minority"},
		{"no", 5, 2, redis.Slots - 3277 - 3277, "partial, 2 of 5 down: majority up"},
		{"no", 5, 3, 0, "partial, 3 of 5 down"},
		{"no", 1, 1, 0, "all down"},
	} {
		r := rule(t, redis.Options{RequireFullCoverage: v.full})
		names := []string{"a", "b", "c", "d", "e"}[:v.n]
		p := build(t, r, srv(names...), nil)
		s := srv(names...)
		for i := range v.down {
			s[i].Down = true
		}
		q := build(t, r, s, p)
		if got := count(q); got != v.wantServed {
			t.Errorf("%s: %d slots served, want %d", v.description, got, v.wantServed)
		}
		if v.full == "no" && v.down > 0 && v.wantServed > 0 {
			if got := q.Owners(0, 1, nil); len(got) != 0 {
				t.Errorf("%s: slot 0 of the down master served by %v", v.description, got)
			}
		}
	}
}

// TestDownDefersChanges checks that nothing is planned while a master is
// down: a new server stays empty until every master is up again, and a
// server holding slots cannot be removed.
func TestDownDefersChanges(t *testing.T) {
	r := rule(t, redis.Options{})
	p := build(t, r, srv("a", "b", "c"), nil)
	s := srv("a", "b", "c", "d")
	s[1].Down = true
	q := build(t, r, s, p)
	if q.Counts()[3] != 0 || !q.Pending() || q.Plan() != nil {
		t.Fatalf("add d while b is down: counts %v, pending %v", q.Counts(), q.Pending())
	}
	q = build(t, r, srv("a", "b", "c", "d"), q)
	if q.Counts()[3] != 4096 || q.Pending() {
		t.Errorf("b back up: counts %v, pending %v; want the deferred rebalance", q.Counts(), q.Pending())
	}
	s = srv("a", "c", "d")
	s[0].Down = true
	if _, err := r.Build(s, q); err == nil || !strings.Contains(err.Error(), `cannot remove "b"`) {
		t.Errorf("removing b while a is down: err %v", err)
	}
	s = srv("a", "b", "c", "d")
	s[1].Down = true
	q = build(t, r, s, q)
	if _, err := r.Build(srv("a", "c", "d"), q); err == nil || !strings.Contains(err.Error(), `cannot remove "b": it holds slot 6827 and master "b" is down`) {
		t.Errorf("removing b while b is down: err %v", err)
	}
}

// TestErrors checks the messages for what redis-cli or this package
// cannot take.
func TestErrors(t *testing.T) {
	for _, v := range []struct {
		o    redis.Options
		want string
	}{
		{redis.Options{Threshold: -1}, "threshold -1 is not a percentage > 0"},
		{redis.Options{RequireFullCoverage: "maybe"}, `require_full_coverage "maybe" is not one of yes, no`},
		{redis.Options{Order: []string{"a", "a"}}, `order names "a" twice`},
		{redis.Options{Order: []string{""}}, "order[0] is empty"},
	} {
		if _, err := redis.New(v.o); err == nil || !strings.Contains(err.Error(), v.want) {
			t.Errorf("New(%+v): %v, want %q", v.o, err, v.want)
		}
	}
	r := rule(t, redis.Options{})
	neg := srv("a")
	neg[0].Weight = -2
	for _, v := range []struct {
		s    []profile.Server
		prev profile.Placement
		want string
	}{
		{nil, nil, "no servers"},
		{srv("a", "a"), nil, `"a" is listed twice`},
		{srv("a", ""), nil, "server 1 has no name"},
		{neg, nil, "weight -2"},
		{srv("a"), other{}, "not a redis placement"},
	} {
		if _, err := r.Build(v.s, v.prev); err == nil || !strings.Contains(err.Error(), v.want) {
			t.Errorf("Build(%v): %v, want %q", v.s, err, v.want)
		}
	}
}

type other struct{}

func (other) Owners(uint64, int, []int) []int { return nil }

// TestEffective checks the defaults reports show.
func TestEffective(t *testing.T) {
	e := redis.Options{}.Effective()
	if e.Threshold != 2 || e.RequireFullCoverage != "yes" || e.Order != nil {
		t.Errorf("Effective() = %+v", e)
	}
}

// TestOwnersAllocs checks that Owners does not allocate when dst has room.
func TestOwnersAllocs(t *testing.T) {
	p := build(t, rule(t, redis.Options{}), srv("a", "b", "c"), nil)
	dst := make([]int, 0, 4)
	if n := testing.AllocsPerRun(1000, func() { dst = p.Owners(9999, 3, dst[:0]) }); n != 0 {
		t.Errorf("Owners allocates %v times", n)
	}
	if got := p.Owners(9999+redis.Slots, 1, nil); !slices.Equal(got, p.Owners(9999, 1, nil)) {
		t.Errorf("Owners ignores bits above the slot: %v", got)
	}
	if got := p.Owners(1, 0, nil); len(got) != 0 {
		t.Errorf("Owners(r=0) = %v", got)
	}
}

// TestManyMasters grows and shrinks large clusters: every slot stays
// owned, nobody is left empty, and removal drains the server.
func TestManyMasters(t *testing.T) {
	r := rule(t, redis.Options{})
	names := make([]string, 201)
	for i := range names {
		names[i] = fmt.Sprintf("n%03d", i)
	}
	p := build(t, r, srv(names[:200]...), nil)
	p = build(t, r, srv(names...), p)
	p = build(t, r, srv(names[1:]...), p)
	for i, c := range p.Counts() {
		if c < 81 || c > 83 {
			t.Errorf("%s holds %d slots", names[i+1], c)
		}
	}
}
