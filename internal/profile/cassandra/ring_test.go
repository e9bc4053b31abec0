package cassandra

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/profile"
)

// build is New + Build for tests.
func build(t *testing.T, o Options, servers []profile.Server) *Ring {
	t.Helper()
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.Build(servers, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.(*Ring)
}

// pos is a token's position, as Hash carries it.
func pos(t int64) uint64 { return uint64(t) }

// srv is a weight-1 server with labels.
func srv(name, dc, rack string) profile.Server {
	return profile.Server{Name: name, Weight: 1, Zone: dc, Rack: rack}
}

// names maps indexes to server names.
func names(ss []profile.Server, idx []int) string {
	var out []string
	for _, i := range idx {
		out = append(out, ss[i].Name)
	}
	return strings.Join(out, ",")
}

func TestEffectiveDefaults(t *testing.T) {
	e := Options{}.Effective()
	if e.NumTokens != 16 || e.Strategy != Simple || e.Seed != 0 || e.RF != nil {
		t.Fatalf("Effective() = %+v", e)
	}
	o := Options{NumTokens: 256, Strategy: NTS, RF: map[string]int{"dc1": 3}}
	if e := o.Effective(); e.NumTokens != 256 || e.Strategy != NTS {
		t.Fatalf("Effective kept nothing: %+v", e)
	}
}

func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Strategy: "network"}, `strategy "network" is not one of simple, nts`},
		{Options{NumTokens: -1}, "num_tokens -1 is out of range"},
		{Options{RF: map[string]int{"dc1": 3}}, "rf is for strategy nts"},
		{Options{Strategy: NTS}, "needs rf with at least one datacenter"},
		{Options{Strategy: NTS, RF: map[string]int{"dc1": 0}}, "needs rf with at least one datacenter"},
		{Options{Strategy: NTS, RF: map[string]int{"dc1": -2}}, `rf for datacenter "dc1" is -2`},
		{Options{Strategy: NTS, RF: map[string]int{"replication_factor": 3}}, "is not modelled"},
		{Options{AllocateTokensForLocalReplicationFactor: 3}, "allocate_tokens_for_local_replication_factor 3 is not modelled"},
		{Options{Tokens: map[string][]int64{"a": {}}}, `tokens for server "a" is empty`},
		{Options{Tokens: map[string][]int64{"a": {5, 1, 5}}}, `lists token 5 twice`},
	} {
		_, err := New(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", c.o, err, c.want)
		}
	}
}

func TestBuildErrors(t *testing.T) {
	r, _ := New(Options{Tokens: map[string][]int64{"a": {1, 2}, "b": {2}}})
	if _, err := r.Build([]profile.Server{srv("a", "", ""), srv("b", "", "")}, nil); err == nil || !strings.Contains(err.Error(), "already held by server 1") {
		t.Errorf("shared explicit token: %v", err)
	}
	if _, err := r.Build([]profile.Server{srv("a", "", ""), srv("a", "", "")}, nil); err == nil || !strings.Contains(err.Error(), "listed twice") {
		t.Errorf("duplicate name: %v", err)
	}
	if _, err := r.Build([]profile.Server{{Weight: 1}}, nil); err == nil {
		t.Error("a server without a name is accepted")
	}
}

// handRing is A(-100) B(0) A(100) C(200), by explicit tokens.
func handRing(t *testing.T, o Options, ss []profile.Server) *Ring {
	o.Tokens = map[string][]int64{"A": {100, -100}, "B": {0}, "C": {200}}
	return build(t, o, ss)
}

func TestPrimaryOwnershipIsPrevExclusiveTokenInclusive(t *testing.T) {
	ss := []profile.Server{srv("A", "", ""), srv("B", "", ""), srv("C", "", "")}
	p := handRing(t, Options{}, ss)
	for _, c := range []struct {
		tok  int64
		want string
	}{
		{math.MinInt64, "A"}, {-101, "A"}, {-100, "A"}, {-99, "B"}, {0, "B"}, {1, "A"},
		{100, "A"}, {101, "C"}, {200, "C"}, {201, "A"}, {math.MaxInt64, "A"},
	} {
		if got := names(ss, p.Owners(pos(c.tok), 1, nil)); got != c.want {
			t.Errorf("token %d: owner %s, want %s", c.tok, got, c.want)
		}
	}
	// The empty key sits on the minimum token: the lowest token's node.
	if got := names(ss, p.Owners(uint64(Token(nil)), 1, nil)); got != "A" {
		t.Errorf("empty key owned by %s, want A", got)
	}
	if ts := p.Tokens(0); !slices.Equal(ts, []int64{-100, 100}) {
		t.Errorf("Tokens(A) = %v", ts)
	}
}

func TestSimpleStrategyWalk(t *testing.T) {
	ss := []profile.Server{srv("A", "", ""), srv("B", "", ""), srv("C", "", "")}
	p := handRing(t, Options{}, ss)
	for _, c := range []struct {
		tok  int64
		r    int
		want string
	}{
		{-50, 2, "B,A"}, {-50, 3, "B,A,C"}, {150, 2, "C,A"}, {150, 3, "C,A,B"},
		{50, 2, "A,C"}, {50, 3, "A,C,B"}, {50, 9, "A,C,B"}, {-50, 0, ""},
	} {
		if got := names(ss, p.Natural(c.tok, c.r, nil)); got != c.want {
			t.Errorf("token %d r=%d: %s, want %s", c.tok, c.r, got, c.want)
		}
	}
}

func TestDownReplicasAreLeftOutNotReplaced(t *testing.T) {
	ss := []profile.Server{srv("A", "", ""), srv("B", "", ""), srv("C", "", "")}
	ss[1].Down = true
	p := handRing(t, Options{}, ss)
	if got := names(ss, p.Owners(pos(-50), 2, nil)); got != "A" {
		t.Errorf("B down: Owners = %s, want A alone (C is not a natural replica)", got)
	}
	if got := names(ss, p.Natural(-50, 2, nil)); got != "B,A" {
		t.Errorf("Natural keeps down nodes: %s", got)
	}
	for i := range ss {
		ss[i].Down = true
	}
	p = handRing(t, Options{}, ss)
	if got := p.Owners(0, 3, nil); len(got) != 0 {
		t.Errorf("all down: Owners = %v", got)
	}
}

func TestEmptyAndSingleServer(t *testing.T) {
	p := build(t, Options{}, nil)
	if got := p.Owners(12345, 3, nil); len(got) != 0 {
		t.Errorf("no servers: %v", got)
	}
	ss := []profile.Server{srv("only", "", "")}
	p = build(t, Options{}, ss)
	for _, k := range []string{"", "a", "日本", strings.Repeat("z", 300)} {
		if got := p.Owners(uint64(Token([]byte(k))), 3, nil); !slices.Equal(got, []int{0}) {
			t.Errorf("key %q: %v", k, got)
		}
	}
	if n := len(p.Tokens(0)); n != 16 {
		t.Errorf("default num_tokens gave %d tokens", n)
	}
	one := build(t, Options{Tokens: map[string][]int64{"only": {7}}}, ss)
	if rs := one.Ranges(); len(rs) != 1 || rs[0] != (Range{Start: 7, End: 7, Server: 0}) {
		t.Errorf("single token range = %v, want (7, 7] (the whole ring)", rs)
	}
}

func TestDrawIsPerNodeAndWeightIsPrefix(t *testing.T) {
	o := Options{Seed: 42}
	ss := []profile.Server{srv("n1", "", ""), srv("n2", "", "")}
	p1 := build(t, o, ss)
	ss2 := append([]profile.Server{srv("n0", "", "")}, ss...)
	ss2 = append(ss2, srv("n3", "", ""))
	p2 := build(t, o, ss2)
	for i := range ss {
		if !slices.Equal(p1.Tokens(i), p2.Tokens(i+1)) {
			t.Errorf("%s's tokens changed when others joined", ss[i].Name)
		}
		want := DrawTokens(42, ss[i].Name, 16)
		slices.Sort(want)
		if !slices.Equal(p1.Tokens(i), want) {
			t.Errorf("%s: Tokens != DrawTokens", ss[i].Name)
		}
	}
	heavy := []profile.Server{{Name: "n1", Weight: 3}}
	ph := build(t, o, heavy)
	got, draw := ph.Tokens(0), DrawTokens(42, "n1", 48)
	if len(got) != 48 || !slices.Equal(draw[:16], DrawTokens(42, "n1", 16)) {
		t.Errorf("weight 3: %d tokens; draw is not a prefix", len(got))
	}
	if other := build(t, Options{Seed: 43}, ss); slices.Equal(other.Tokens(0), p1.Tokens(0)) {
		t.Error("seed does not change the draw")
	}
}

func TestNTSRackRepeats(t *testing.T) {
	// One datacenter, two racks, RF 3: acceptableRackRepeats = 1.
	ss := []profile.Server{srv("A", "dc1", "r1"), srv("B", "dc1", "r1"), srv("C", "dc1", "r1"), srv("D", "dc1", "r2")}
	o := Options{Strategy: NTS, RF: map[string]int{"dc1": 3}, Tokens: map[string][]int64{"A": {10}, "B": {20}, "C": {30}, "D": {40}}}
	p := build(t, o, ss)
	for _, c := range []struct {
		tok  int64
		want string
	}{
		// A new rack; B a repeat while one is acceptable; C a repeat
		// refused; D the second rack.
		{5, "A,B,D"},
		{15, "B,C,D"},
		{25, "C,D,A"},
		{35, "D,A,B"},
	} {
		if got := names(ss, p.Natural(c.tok, 9, nil)); got != c.want {
			t.Errorf("token %d: %s, want %s", c.tok, got, c.want)
		}
	}
	if got := names(ss, p.Owners(5, 2, nil)); got != "A,B" {
		t.Errorf("truncated to r=2: %s", got)
	}
}

func TestNTSAcrossDatacenters(t *testing.T) {
	ss := []profile.Server{
		srv("A", "dc1", "r1"), srv("X", "dc2", "r1"), srv("B", "dc1", "r1"),
		srv("C", "dc1", "r2"), srv("Y", "dc2", "r2"), srv("Z", "dc3", "r1"),
	}
	tok := map[string][]int64{"A": {10}, "X": {20}, "B": {30}, "C": {40}, "Y": {50}, "Z": {60}}
	o := Options{Strategy: NTS, RF: map[string]int{"dc1": 2, "dc2": 1, "nowhere": 3}, Tokens: tok}
	p := build(t, o, ss)
	// dc1 RF 2 over 2 racks: no repeats, so B (r1 again) is skipped; dc3
	// has no factor and holds nothing; "nowhere" has no nodes.
	for _, c := range []struct {
		tok  int64
		want string
	}{
		{5, "A,X,C"}, {25, "B,C,Y"}, {45, "Y,A,C"}, {55, "A,X,C"},
	} {
		if got := names(ss, p.Natural(c.tok, 9, nil)); got != c.want {
			t.Errorf("token %d: %s, want %s", c.tok, got, c.want)
		}
	}
	// rf larger than the datacenter: every node of it, once.
	o.RF = map[string]int{"dc2": 5}
	if got := names(ss, build(t, o, ss).Natural(5, 9, nil)); got != "X,Y" {
		t.Errorf("rf above node count: %s", got)
	}
	// Same rack name in two datacenters are two racks.
	o.RF = map[string]int{"dc1": 1, "dc2": 1}
	if got := names(ss, build(t, o, ss).Natural(5, 9, nil)); got != "A,X" {
		t.Errorf("rack r1 of dc1 and of dc2 must differ: %s", got)
	}
}

// ntsRef is a direct transcription of calculateNaturalReplicas with sets
// and maps, to check the precomputed lists.
func ntsRef(p *Ring, ss []profile.Server, rf map[string]int, t int64) []int {
	nodes, racks := map[string]int{}, map[string]map[string]bool{}
	for _, s := range ss {
		dc, rk := Labels(s)
		nodes[dc]++
		if racks[dc] == nil {
			racks[dc] = map[string]bool{}
		}
		racks[dc][rk] = true
	}
	type dcState struct{ left, repeats int }
	st := map[string]*dcState{}
	fill := 0
	for dc, n := range rf {
		if n > 0 && nodes[dc] > 0 {
			st[dc] = &dcState{min(n, nodes[dc]), n - len(racks[dc])}
			fill++
		}
	}
	seenRack, seenEp := map[[2]string]bool{}, map[int]bool{}
	var out []int
	i := p.first(t)
	for k := 0; k < len(p.toks) && fill > 0; k++ {
		s := int(p.owner[(i+k)%len(p.toks)])
		dc, rk := Labels(ss[s])
		d := st[dc]
		if d == nil || d.left == 0 || seenEp[s] {
			continue
		}
		if !seenRack[[2]string{dc, rk}] {
			seenRack[[2]string{dc, rk}] = true
		} else if d.repeats > 0 {
			d.repeats--
		} else {
			continue
		}
		seenEp[s] = true
		out = append(out, s)
		if d.left--; d.left == 0 {
			fill--
		}
	}
	return out
}

func TestNTSMatchesDirectTranscription(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 20 {
		var ss []profile.Server
		n := 1 + rng.IntN(14)
		for i := range n {
			ss = append(ss, profile.Server{
				Name: fmt.Sprintf("n%d", i), Weight: 1 + rng.IntN(2), Down: rng.IntN(5) == 0,
				Zone: fmt.Sprintf("z%d", rng.IntN(3)), Rack: fmt.Sprintf("r%d", rng.IntN(3)),
			})
		}
		rf := map[string]int{"z0": rng.IntN(4), "z1": 1 + rng.IntN(4), "z2": rng.IntN(3)}
		p := build(t, Options{Strategy: NTS, RF: rf, NumTokens: 1 + rng.IntN(8), Seed: uint64(trial)}, ss)
		for range 200 {
			tok := int64(rng.Uint64())
			want := ntsRef(p, ss, rf, tok)
			if got := p.Natural(tok, 99, nil); !slices.Equal(got, want) {
				t.Fatalf("trial %d token %d: %v, want %v", trial, tok, got, want)
			}
			var live []int
			for _, s := range want[:min(3, len(want))] {
				if !ss[s].Down {
					live = append(live, s)
				}
			}
			if got := p.Owners(uint64(tok), 3, nil); !slices.Equal(got, live) {
				t.Fatalf("trial %d token %d: Owners %v, want %v", trial, tok, got, live)
			}
		}
	}
}

func TestPointsAndRanges(t *testing.T) {
	ss := []profile.Server{srv("A", "", ""), srv("B", "", ""), srv("C", "", "")}
	p := handRing(t, Options{}, ss)
	pts, b := p.Points()
	if b != 64 || len(pts) != 4 {
		t.Fatalf("Points: %d points, %d bits", len(pts), b)
	}
	// -100's bits are the largest: it sorts last.
	want := []profile.Point{{Pos: 0, Server: 1}, {Pos: 100, Server: 0}, {Pos: 200, Server: 2}, {Pos: pos(-100), Server: 0}}
	if !slices.Equal(pts, want) {
		t.Errorf("Points = %v, want %v", pts, want)
	}
	rs := Ranges(p)
	wantR := []Range{{200, -100, 0}, {-100, 0, 1}, {0, 100, 0}, {100, 200, 2}}
	if !slices.Equal(rs, wantR) {
		t.Errorf("Ranges = %v, want %v", rs, wantR)
	}
	if Ranges(nil) != nil {
		t.Error("Ranges of a non-Cassandra placement")
	}
	// Owners over Points' positions agrees with a generic "first point ≥
	// h, wrapping" lookup, the simulator's view of a continuum.
	for _, h := range []uint64{0, 1, 100, 101, 200, 201, 1 << 63, math.MaxUint64} {
		j, _ := slices.BinarySearchFunc(pts, h, func(a profile.Point, h uint64) int {
			if a.Pos < h {
				return -1
			} else if a.Pos > h {
				return 1
			}
			return 0
		})
		if j == len(pts) {
			j = 0
		}
		if got := p.Owners(h, 1, nil); got[0] != pts[j].Server {
			t.Errorf("h=%#x: Owners %v, continuum %d", h, got, pts[j].Server)
		}
	}
}

func TestOwnersDoesNotAllocate(t *testing.T) {
	var ss []profile.Server
	for i := range 12 {
		ss = append(ss, srv(fmt.Sprintf("10.0.0.%d", i), fmt.Sprintf("dc%d", i%3), fmt.Sprintf("r%d", i%2)))
	}
	dst := make([]int, 0, 16)
	for _, o := range []Options{{}, {Strategy: NTS, RF: map[string]int{"dc0": 3, "dc1": 2, "dc2": 1}}} {
		p := build(t, o, ss)
		h := uint64(0)
		if a := testing.AllocsPerRun(1000, func() {
			h += 0x9e3779b97f4a7c15
			dst = p.Owners(h, 3, dst[:0])
		}); a != 0 {
			t.Errorf("%s: %v allocations per Owners", o.Effective().Strategy, a)
		}
	}
}
