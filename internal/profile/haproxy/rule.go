package haproxy

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// HAProxy's weight constants (include/haproxy/backend-t.h, server-t.h).
const (
	// WeightScale is BE_WEIGHT_SCALE: a server of weight w at full
	// strength has an effective weight, and so a node count, of w × 16.
	WeightScale = 16
	// MaxWeight is SRV_UWGHT_MAX, the largest "weight" HAProxy accepts.
	MaxWeight = 256
	// idScale is SRV_EWGHT_RANGE = 256 × 16, the spacing of hash-key id
	// server keys, so that a server's 16·w node inputs never reach the
	// next id's.
	idScale = MaxWeight * WeightScale
)

// New returns the rule for o, or an error naming the option that is wrong
// and the values that would be right.
func New(o Options) (profile.Rule, error) {
	e := o.Effective()
	b, err := e.validate()
	if err != nil {
		return nil, err
	}
	return &rule{opts: e, branch: b, fn: hashFunctions[e.HashFunction], avalanche: *e.Avalanche}, nil
}

// rule is HAProxy's consistent hashing for one set of effective options.
type rule struct {
	opts      Options
	branch    branch
	fn        func([]byte) uint32
	avalanche bool
}

// Hash returns the 32-bit value HAProxy compares with the node keys for a
// request whose balanced bytes are key: the hash function over the bytes,
// then FullHash if avalanche is on (backend.c gen_hash and its callers).
// See the package doc for which bytes each "balance" mode hashes.
func (r *rule) Hash(key []byte) uint64 {
	h := r.fn(key)
	if r.avalanche {
		h = FullHash(h)
	}
	return uint64(h)
}

// Build returns the consistent-hash tree HAProxy builds at start-up for
// servers listed in this order: 16 × weight nodes per server that is not
// Down, none for a Down (disabled) or weight-0 server. prev is not read:
// a started HAProxy's tree depends only on its configuration.
func (r *rule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	puids, err := PUIDs(servers)
	if err != nil {
		return nil, err
	}
	type node struct {
		key uint32
		srv int32
	}
	total := 0
	for i, s := range servers {
		if s.Weight < 0 || s.Weight > MaxWeight {
			return nil, fmt.Errorf("server %d (%q): weight %d is outside HAProxy's 0..%d", i+1, s.Name, s.Weight, MaxWeight)
		}
		if !s.Down {
			total += s.Weight * WeightScale
		}
	}
	nodes := make([]node, 0, total)
	live := 0
	for i, s := range servers {
		base, err := r.serverKey(s, puids[i])
		if err != nil {
			return nil, fmt.Errorf("server %d (%q): %w", i+1, s.Name, err)
		}
		if s.Down || s.Weight == 0 {
			continue
		}
		live++
		for j := range uint32(s.Weight * WeightScale) {
			nodes = append(nodes, node{FullHash(base + j), int32(i)})
		}
	}
	// Equal keys keep their insertion order, as ebtree's duplicates do:
	// config order, then node index.
	slices.SortStableFunc(nodes, func(a, b node) int { return cmp.Compare(a.key, b.key) })
	p := &Placement{keys: make([]uint32, len(nodes)), srv: make([]int32, len(nodes)), live: live}
	for i, n := range nodes {
		p.keys[i], p.srv[i] = n.key, n.srv
	}
	return p, nil
}

// serverKey returns the base every node input of s adds its index to
// (lb_chash.c chash_compute_server_key, or the inline puid × 4096 of 2.x).
func (r *rule) serverKey(s profile.Server, puid int) (uint32, error) {
	id := uint32(puid)
	switch r.opts.HashKey {
	case "addr", "addr-port":
		a, err := parseAddr(s.Name)
		if err != nil {
			return 0, err
		}
		var k uint32
		if r.opts.HashKey == "addr-port" {
			k = FullHash(a.port)
		}
		if a.v4 {
			return FullHash(k + a.sAddr), nil
		}
		return XXH32(a.v6[:], k), nil
	case "id32":
		return FullHash(bits.ReverseBytes32(id)), nil
	}
	if r.branch == branchBug {
		return FullHash(id), nil
	}
	return id * idScale, nil
}

// PUIDs returns each server's numeric id as HAProxy assigns it
// (cfgparse.c check_config_validity): an explicit ID is kept; a server
// with ID 0 gets the first id not yet taken, searching upwards from its
// 1-based position, explicit ids and earlier automatic ones being taken.
// Without explicit ids that is the 1-based position. It fails where
// HAProxy refuses the configuration: an id outside 1..2³¹−1, one id given
// twice, or two servers with automatic ids and the same name.
func PUIDs(servers []profile.Server) ([]int, error) {
	used := make(map[int]int, len(servers)) // id → index of its server
	for i, s := range servers {
		if s.ID == 0 {
			continue
		}
		if s.ID < 0 || s.ID > math.MaxInt32 {
			return nil, fmt.Errorf("server %d (%q): id %d is outside HAProxy's 1..%d", i+1, s.Name, s.ID, math.MaxInt32)
		}
		if j, dup := used[s.ID]; dup {
			return nil, fmt.Errorf("server %d (%q): id %d is already used by server %d (%q)", i+1, s.Name, s.ID, j+1, servers[j].Name)
		}
		used[s.ID] = i
	}
	names := make(map[string]int, len(servers))
	ids := make([]int, len(servers))
	next := 1
	for i, s := range servers {
		ids[i] = s.ID
		if s.ID == 0 {
			if j, dup := names[s.Name]; dup {
				return nil, fmt.Errorf("server %d: name %q is also server %d's; HAProxy needs distinct names for servers without an id", i+1, s.Name, j+1)
			}
			names[s.Name] = i
			for isUsed(used, next) {
				next++
			}
			ids[i] = next
			used[next] = i
		}
		next++
	}
	return ids, nil
}

// isUsed reports whether id is taken.
func isUsed(used map[int]int, id int) bool {
	_, ok := used[id]
	return ok
}

// Placement is HAProxy's consistent-hash tree over one membership: every
// node key in ascending order, equal keys in insertion order.
type Placement struct {
	keys []uint32
	srv  []int32
	live int // servers with at least one node
}

// Owners appends the servers for a key of position h (a Hash value; bits
// above 32 are ignored). The first is chash_get_server_hash's choice: of
// the first node at or above h (wrapping to the lowest) and the node
// before it (wrapping to the highest), the nearer in uint32 distance, the
// one before on a tie. Each further owner is the next server met walking
// up the tree from that node, wrapping, past servers already listed: the
// walk HAProxy makes when it must avoid the previous choice (redispatch,
// or a server failing hash-balance-factor or hash-preserve-affinity).
func (p *Placement) Owners(h uint64, r int, dst []int) []int {
	n := len(p.keys)
	if r <= 0 || n == 0 {
		return dst
	}
	x := uint32(h)
	i := lowerBound(p.keys, x)
	if i == n {
		i = 0
	}
	j := i - 1
	if j < 0 {
		j = n - 1
	}
	if x-p.keys[j] <= p.keys[i]-x {
		i = j
	}
	start := len(dst)
	dst = append(dst, int(p.srv[i]))
	want := min(r, p.live)
	for k := 1; k < n && len(dst)-start < want; k++ {
		if i++; i == n {
			i = 0
		}
		if s := int(p.srv[i]); !slices.Contains(dst[start:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// lowerBound returns the index of the first key ≥ x, or len(keys).
func lowerBound(keys []uint32, x uint32) int {
	lo, hi := 0, len(keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Points returns every node of the tree in ascending key order, with the
// index of its server; the hash space is 32 bits wide.
func (p *Placement) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(p.keys))
	for i, k := range p.keys {
		pts[i] = profile.Point{Pos: uint64(k), Server: int(p.srv[i])}
	}
	return pts, 32
}
