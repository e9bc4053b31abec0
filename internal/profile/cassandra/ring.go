package cassandra

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// maxRing bounds the number of tokens on one ring (all servers together).
const maxRing = 1 << 22

// rule is the Rule New returns.
type rule struct {
	o Options // effective
}

// New validates o and returns the Cassandra rule it describes.
func New(o Options) (profile.Rule, error) {
	e := o.Effective()
	if err := e.validate(); err != nil {
		return nil, err
	}
	return &rule{o: e}, nil
}

// Hash returns the key's Murmur3Partitioner token, Token(key), carried in
// the uint64's bits (two's complement): int64(Hash(key)) == Token(key).
// The circle of uint64 positions is the token ring turned half a turn
// (token 0 at position 0, Long.MIN_VALUE at 2^63), so "first position ≥ h,
// wrapping" picks the same token as Cassandra's signed "first token ≥ t".
func (r *rule) Hash(key []byte) uint64 { return uint64(Token(key)) }

// Ring is the placement of one membership: every server's tokens on the
// signed 64-bit token ring, and the replication strategy over them.
// Build returns a *Ring; reports may type-assert to it for Ranges and
// Tokens.
type Ring struct {
	strategy string
	n        int      // servers
	down     []bool   // per server
	toks     []int64  // sorted ascending (signed), distinct
	owner    []int32  // owner[i] is the server holding toks[i]
	offs     []int32  // nts: natural replicas of toks[i] are reps[offs[i]:offs[i+1]]
	reps     []int32  // nts
	names    []string // per server, for errors and Ranges' users
}

// Build places servers' tokens (explicit ones from Options.Tokens, drawn
// ones otherwise, in list order as nodes bootstrap in join order) and,
// for nts, precomputes each token's replica list. prev is not read:
// Cassandra's tokens depend only on each node's own draw.
func (r *rule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	p := &Ring{strategy: r.o.Strategy, n: len(servers), down: make([]bool, len(servers)), names: make([]string, len(servers))}
	taken := make(map[int64]int32)
	type tok struct {
		t int64
		s int32
	}
	var ring []tok
	for i, s := range servers {
		if s.Name == "" {
			return nil, fmt.Errorf("server %d has no name; Cassandra nodes are told apart by their names", i+1)
		}
		if j := slices.IndexFunc(p.names[:i], func(n string) bool { return n == s.Name }); j >= 0 {
			return nil, fmt.Errorf("server %q is listed twice (positions %d and %d)", s.Name, j+1, i+1)
		}
		p.names[i], p.down[i] = s.Name, s.Down
		ts, err := r.tokensFor(s, int32(i), taken, len(ring))
		if err != nil {
			return nil, err
		}
		for _, t := range ts {
			ring = append(ring, tok{t, int32(i)})
		}
	}
	slices.SortFunc(ring, func(a, b tok) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	p.toks = make([]int64, len(ring))
	p.owner = make([]int32, len(ring))
	for i, e := range ring {
		p.toks[i], p.owner[i] = e.t, e.s
	}
	if p.strategy == NTS {
		p.buildNTS(servers, r.o.RF)
	}
	return p, nil
}

// tokensFor returns server s's tokens: its explicit list, or
// NumTokens × weight tokens drawn from its own seeded PCG, skipping tokens
// already taken (as BootStrapper.getRandomTokens skips tokens that have an
// endpoint). Every token is recorded in taken.
func (r *rule) tokensFor(s profile.Server, idx int32, taken map[int64]int32, ringLen int) ([]int64, error) {
	if ts, ok := r.o.Tokens[s.Name]; ok {
		if ringLen+len(ts) > maxRing {
			return nil, fmt.Errorf("the ring would hold more than %d tokens; lower num_tokens or the weights", maxRing)
		}
		for _, t := range ts {
			if o, dup := taken[t]; dup {
				return nil, fmt.Errorf("token %d of server %q is already held by server %d (Cassandra: \"Bootstrapping to existing token %d is not allowed\")", t, s.Name, o+1, t)
			}
			taken[t] = idx
		}
		return ts, nil
	}
	n := r.o.NumTokens * max(s.Weight, 1)
	if s.Weight > maxTokens || n > maxTokens || ringLen+n > maxRing {
		return nil, fmt.Errorf("server %q would draw %d × %d tokens; the ring holds at most %d (lower num_tokens or the weight)", s.Name, r.o.NumTokens, s.Weight, maxRing)
	}
	rng := rand.New(rand.NewPCG(r.o.Seed, nameSeed(s.Name)))
	ts := make([]int64, 0, n)
	for len(ts) < n {
		t := normalize(int64(rng.Uint64()))
		if _, dup := taken[t]; dup {
			continue
		}
		taken[t] = idx
		ts = append(ts, t)
	}
	return ts, nil
}

// nameSeed is the second PCG seed of a node: FNV-1a 64 of its name.
func nameSeed(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}

// DrawTokens returns the n tokens a node named name draws with seed on an
// otherwise empty ring, in draw order: the tokens Build gives a server of
// weight w with NumTokens·w = n when no earlier server holds any of them.
func DrawTokens(seed uint64, name string, n int) []int64 {
	rng := rand.New(rand.NewPCG(seed, nameSeed(name)))
	seen := make(map[int64]bool, n)
	ts := make([]int64, 0, n)
	for len(ts) < n {
		t := normalize(int64(rng.Uint64()))
		if !seen[t] {
			seen[t] = true
			ts = append(ts, t)
		}
	}
	return ts
}

// first is TokenMetadata.firstTokenIndex: the index of the first token
// ≥ t, or 0 when t is above every token.
func (p *Ring) first(t int64) int {
	lo, hi := 0, len(p.toks)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.toks[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(p.toks) {
		return 0
	}
	return lo
}

// Owners appends the live replicas of the key at position h (a Hash
// value) among the first r natural replicas, primary first, in the order
// Cassandra's calculateNaturalReplicas returns them. Down servers keep
// their tokens and their place in the list (Cassandra does not move data
// off a down node) but are left out, so fewer than r come back when some
// are down.
func (p *Ring) Owners(h uint64, r int, dst []int) []int {
	return p.replicas(int64(h), r, dst, true)
}

// Natural appends the first r natural replicas of token t, down or not:
// Cassandra's own list (SimpleStrategy with replication_factor r, or
// NetworkTopologyStrategy's list truncated to r).
func (p *Ring) Natural(t int64, r int, dst []int) []int {
	return p.replicas(t, r, dst, false)
}

func (p *Ring) replicas(t int64, r int, dst []int, liveOnly bool) []int {
	if len(p.toks) == 0 || r <= 0 {
		return dst
	}
	i := p.first(t)
	if p.strategy == NTS {
		list := p.reps[p.offs[i]:p.offs[i+1]]
		for _, s := range list[:min(r, len(list))] {
			if !liveOnly || !p.down[s] {
				dst = append(dst, int(s))
			}
		}
		return dst
	}
	return p.simple(i, min(r, p.n), dst, liveOnly)
}

// simple is SimpleStrategy.calculateNaturalReplicas: walk the ring from
// token index i, taking each endpoint not yet taken, until r are taken.
func (p *Ring) simple(i, r int, dst []int, liveOnly bool) []int {
	var buf [32]int32
	seen := buf[:0]
	for k := 0; k < len(p.toks) && len(seen) < r; k++ {
		s := p.owner[i]
		if i++; i == len(p.toks) {
			i = 0
		}
		if slices.Contains(seen, s) {
			continue
		}
		seen = append(seen, s)
		if !liveOnly || !p.down[s] {
			dst = append(dst, int(s))
		}
	}
	return dst
}

// Primary returns the index of the node whose token range holds the key
// at position h: the owner of the first token ≥ int64(h), wrapping, down
// or not and whatever the strategy (under nts it need not be a replica),
// or -1 when the ring is empty. This is nodetool's "primary range" owner.
func (p *Ring) Primary(h uint64) int {
	if len(p.toks) == 0 {
		return -1
	}
	return int(p.owner[p.first(int64(h))])
}

// Points returns every token as a point, sorted by position (the uint64
// bits of the token, so token 0 comes first and −1 last), with 64 bits.
func (p *Ring) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(p.toks))
	for i, t := range p.toks {
		pts[i] = profile.Point{Pos: uint64(t), Server: int(p.owner[i])}
	}
	slices.SortFunc(pts, func(a, b profile.Point) int {
		switch {
		case a.Pos < b.Pos:
			return -1
		case a.Pos > b.Pos:
			return 1
		}
		return 0
	})
	return pts, 64
}

// Range is one primary token range: Server's token End owns the keys whose
// tokens lie in (Start, End], wrapping past Long.MAX_VALUE when
// Start ≥ End. With a single token the range is (End, End], the whole ring.
type Range struct {
	Start, End int64
	Server     int
}

// Ranges returns the ring's primary ranges in token order (by End,
// ascending from the most negative), as nodetool ring lists them.
func (p *Ring) Ranges() []Range {
	rs := make([]Range, len(p.toks))
	for i, t := range p.toks {
		prev := p.toks[(i+len(p.toks)-1)%len(p.toks)]
		rs[i] = Range{Start: prev, End: t, Server: int(p.owner[i])}
	}
	return rs
}

// Tokens returns server i's tokens in ascending order.
func (p *Ring) Tokens(i int) []int64 {
	var ts []int64
	for k, t := range p.toks {
		if int(p.owner[k]) == i {
			ts = append(ts, t)
		}
	}
	return ts
}

// Ranges returns pl's primary token ranges when pl is a Cassandra
// placement (built by this package), and nil otherwise.
func Ranges(pl profile.Placement) []Range {
	if p, ok := pl.(*Ring); ok {
		return p.Ranges()
	}
	return nil
}
