package envoy

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// Ring sizes of Envoy's RingHash and gRPC's ring_hash.
const (
	// DefaultMinimumRingSize is minimum_ring_size when unset (Envoy and gRPC).
	DefaultMinimumRingSize = 1024
	// DefaultMaximumRingSize is Envoy's maximum_ring_size when unset (8 Mi),
	// which is also the largest value either accepts.
	DefaultMaximumRingSize = 8 * 1024 * 1024
	// GRPCDefaultMaximumRingSize is gRPC's maxRingSize when unset.
	GRPCDefaultMaximumRingSize = 4096
	// GRPCDefaultRingSizeCap is gRPC's GRPC_ARG_RING_HASH_LB_RING_SIZE_CAP
	// channel argument when unset; it caps both ring sizes.
	GRPCDefaultRingSizeCap = 4096
)

// Clients and hash functions RingOptions accepts.
const (
	ClientEnvoy = "envoy"
	ClientGRPC  = "grpc"

	HashXX     = "xx_hash"
	HashMurmur = "murmur_hash_2"
)

// RingOptions are the knobs of Envoy's RING_HASH load balancer (and of
// gRPC's xDS ring_hash policy) that change placement. The zero value is
// Envoy's defaults.
type RingOptions struct {
	// Client is whose ring hash this is: "envoy" (default), Envoy's
	// RING_HASH load balancer; or "grpc", gRPC C-core's xDS ring_hash
	// policy, which builds the same ring but caps its size at RingSizeCap,
	// merges duplicate endpoints, counts a weight ≤ 0 as 1, has no panic
	// mode and skips Down endpoints at lookup.
	Client string `yaml:"client"`
	// MinimumRingSize is minimum_ring_size (gRPC: minRingSize): the ring is
	// scaled so that the lightest host gets a whole number of points and the
	// ring has at least this many, 1 to 8388608. Default 1024.
	MinimumRingSize uint64 `yaml:"minimum_ring_size"`
	// MaximumRingSize is maximum_ring_size (gRPC: maxRingSize), the cap on
	// that scale, MinimumRingSize to 8388608. Default 8388608 for Envoy,
	// 4096 for gRPC.
	MaximumRingSize uint64 `yaml:"maximum_ring_size"`
	// HashFunction hashes the ring points "<key>_<i>": "xx_hash" (default,
	// xxHash64 seed 0) or "murmur_hash_2" (libstdc++'s std::_Hash_bytes with
	// seed 0xc70f6907; Envoy only). Envoy's upper-case spellings are
	// accepted too.
	HashFunction string `yaml:"hash_function"`
	// UseHostnameForHashing is Envoy's use_hostname_for_hashing. It records
	// what the server names are and changes no arithmetic: a server's Name is
	// the string Envoy hashes, the address "127.0.0.1:90" by default, the
	// hostname when this is set, or the host's envoy.lb hash_key metadata
	// when it has one. Default false.
	UseHostnameForHashing bool `yaml:"use_hostname_for_hashing"`
	// RingSizeCap is gRPC's GRPC_ARG_RING_HASH_LB_RING_SIZE_CAP channel
	// argument, which caps both ring sizes; gRPC only, ≥ 1. Default 4096.
	RingSizeCap uint64 `yaml:"ring_size_cap"`
	// HealthyPanicThreshold is Envoy's common_lb_config
	// healthy_panic_threshold, a whole percentage 0 to 100: below it the
	// ring is built from every host, Down ones included; 0 disables panic
	// mode. Envoy only. Default 50 (nil means the default).
	HealthyPanicThreshold *int `yaml:"healthy_panic_threshold"`
	// OverprovisioningFactor is the EDS policy overprovisioning_factor, a
	// percentage ≥ 1: a host set whose healthy share times this is at least
	// 100 % is never in panic. Envoy only. Default 140.
	OverprovisioningFactor int `yaml:"overprovisioning_factor"`
}

// Effective returns o with every default filled in and the client and hash
// function in their canonical lower-case spelling.
func (o RingOptions) Effective() RingOptions {
	o.Client = strings.ToLower(o.Client)
	if o.Client == "" {
		o.Client = ClientEnvoy
	}
	o.HashFunction = strings.ToLower(o.HashFunction)
	if o.HashFunction == "" || o.HashFunction == "default_hash" {
		o.HashFunction = HashXX
	}
	if o.MinimumRingSize == 0 {
		o.MinimumRingSize = DefaultMinimumRingSize
	}
	if o.Client == ClientGRPC {
		if o.MaximumRingSize == 0 {
			o.MaximumRingSize = GRPCDefaultMaximumRingSize
		}
		if o.RingSizeCap == 0 {
			o.RingSizeCap = GRPCDefaultRingSizeCap
		}
		return o
	}
	if o.MaximumRingSize == 0 {
		o.MaximumRingSize = DefaultMaximumRingSize
	}
	if o.HealthyPanicThreshold == nil {
		o.HealthyPanicThreshold = intPtr(DefaultHealthyPanicThreshold)
	}
	if o.OverprovisioningFactor == 0 {
		o.OverprovisioningFactor = DefaultOverprovisioningFactor
	}
	return o
}

// validate checks effective options.
func (o RingOptions) validate() error {
	if o.Client != ClientEnvoy && o.Client != ClientGRPC {
		return fmt.Errorf("client %q is not one of envoy, grpc", o.Client)
	}
	if o.HashFunction != HashXX && o.HashFunction != HashMurmur {
		return fmt.Errorf("hash_function %q is not one of xx_hash, murmur_hash_2", o.HashFunction)
	}
	for _, f := range []struct {
		name string
		v    uint64
	}{{"minimum_ring_size", o.MinimumRingSize}, {"maximum_ring_size", o.MaximumRingSize}} {
		if f.v > DefaultMaximumRingSize {
			return fmt.Errorf("%s %d is over the limit of %d entries", f.name, f.v, DefaultMaximumRingSize)
		}
	}
	if o.MinimumRingSize > o.MaximumRingSize {
		return fmt.Errorf("minimum_ring_size (%d) > maximum_ring_size (%d); Envoy and gRPC refuse it", o.MinimumRingSize, o.MaximumRingSize)
	}
	if o.Client == ClientGRPC {
		switch {
		case o.HashFunction != HashXX:
			return fmt.Errorf("hash_function %s is Envoy's only; gRPC's ring_hash always uses xx_hash", o.HashFunction)
		case o.HealthyPanicThreshold != nil:
			return fmt.Errorf("healthy_panic_threshold is Envoy's only; gRPC's ring_hash has no panic mode (it skips Down endpoints at lookup)")
		case o.OverprovisioningFactor != 0:
			return fmt.Errorf("overprovisioning_factor is Envoy's only; gRPC's ring_hash has no panic mode")
		}
		return nil
	}
	if o.RingSizeCap != 0 {
		return fmt.Errorf("ring_size_cap is gRPC's only (client: grpc); Envoy caps the ring with maximum_ring_size")
	}
	return checkHealth(o.HealthyPanicThreshold, o.OverprovisioningFactor)
}

// NewRing validates o and returns Envoy's (or gRPC's) ring hash rule.
func NewRing(o RingOptions) (profile.Rule, error) {
	e := o.Effective()
	if err := e.validate(); err != nil {
		return nil, err
	}
	r := &ringRule{opts: e, minRing: e.MinimumRingSize, maxRing: e.MaximumRingSize}
	if e.Client == ClientGRPC {
		r.minRing = min(r.minRing, e.RingSizeCap)
		r.maxRing = min(r.maxRing, e.RingSizeCap)
	}
	return r, nil
}

// ringRule is a ring hash rule for fixed, effective options; minRing and
// maxRing are the sizes after gRPC's cap.
type ringRule struct {
	opts             RingOptions
	minRing, maxRing uint64
}

// Hash is KeyHash: xxHash64 seed 0 of the key.
func (r *ringRule) Hash(key []byte) uint64 { return KeyHash(key) }

// Build builds the ring over servers; prev is not read.
func (r *ringRule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	if r.opts.Client == ClientGRPC {
		return r.buildGRPC(servers)
	}
	if err := checkEnvoyServers(servers); err != nil {
		return nil, err
	}
	hw, minW, _, panicking, err := envoyBuildSet(servers, *r.opts.HealthyPanicThreshold, r.opts.OverprovisioningFactor)
	if err != nil {
		return nil, err
	}
	p := buildRing(hw, minW, r.minRing, r.maxRing, r.opts.HashFunction == HashMurmur)
	p.panic = panicking
	p.countAvailable(len(servers))
	return p, nil
}

// buildGRPC builds gRPC's ring: endpoints with the same name are merged into
// the first, their weights added (a weight ≤ 0 counts as 1); every endpoint
// is on the ring and Down ones are skipped at lookup.
func (r *ringRule) buildGRPC(servers []profile.Server) (profile.Placement, error) {
	first := make(map[string]int, len(servers))
	var order []int
	weight := make([]uint64, len(servers))
	down := make([]bool, len(servers))
	for i, s := range servers {
		if s.Name == "" {
			return nil, fmt.Errorf("server %d has an empty name; gRPC hashes the endpoint's address or hash_key", i)
		}
		w := uint64(1)
		if s.Weight > 0 {
			w = uint64(s.Weight)
		}
		j, ok := first[s.Name]
		if !ok {
			j = i
			first[s.Name] = i
			order = append(order, i)
		}
		weight[j] += w
		down[j] = down[j] || s.Down
	}
	var sum uint64
	for _, i := range order {
		sum += weight[i]
	}
	hw := make([]hostWeight, 0, len(order))
	minW := 1.0
	for _, i := range order {
		w := float64(weight[i]) / float64(sum)
		hw = append(hw, hostWeight{server: i, key: servers[i].Name, weight: w})
		minW = min(minW, w)
	}
	p := buildRing(hw, minW, r.minRing, r.maxRing, false)
	p.down = down
	p.countAvailable(len(servers))
	return p, nil
}

// ringPoint is a point while the ring is built; seq is its creation order,
// which breaks ties between equal hashes.
type ringPoint struct {
	hash   uint64
	seq    uint32
	server int32
}

// buildRing builds the ring of ring_hash_lb.cc's Ring constructor (and
// gRPC's, which is the same): scale = min(ceil(minW·minRing)/minW, maxRing)
// in doubles; walking the hosts in order, target += scale·weight and, while
// current < target, the host gets the point hash("<key>_<i>") for i = 0, 1,
// … and current++, so fractions carry over to the next host; the points are
// then sorted by hash. Envoy's std::sort leaves equal hashes in an
// unspecified order; here they keep creation order.
func buildRing(hw []hostWeight, minW float64, minRing, maxRing uint64, murmur bool) *RingPlacement {
	p := &RingPlacement{}
	if len(hw) == 0 {
		return p
	}
	scale := math.Ceil(minW*float64(minRing)) / minW
	if float64(maxRing) < scale {
		scale = float64(maxRing)
	}
	p.size = uint64(math.Ceil(scale))
	pts := make([]ringPoint, 0, p.size)
	buf := make([]byte, 0, 64)
	var current, target float64
	p.minHashes = p.size
	for _, e := range hw {
		// The conversion keeps the product rounded on its own, as Envoy's
		// x86-64 build computes it, and never fused into the addition.
		target += float64(scale * e.weight)
		buf = append(append(buf[:0], e.key...), '_')
		stem := len(buf)
		var i uint64
		for current < target {
			buf = strconv.AppendUint(buf[:stem], i, 10)
			var h uint64
			if murmur {
				h = MurmurHash2(buf, MurmurSeed)
			} else {
				h = XXH64(buf, 0)
			}
			pts = append(pts, ringPoint{hash: h, seq: uint32(len(pts)), server: int32(e.server)})
			i++
			current++
		}
		p.minHashes = min(p.minHashes, i)
		p.maxHashes = max(p.maxHashes, i)
	}
	slices.SortFunc(pts, func(a, b ringPoint) int {
		if c := cmp.Compare(a.hash, b.hash); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	p.hashes = make([]uint64, len(pts))
	p.servers = make([]int32, len(pts))
	for i, q := range pts {
		p.hashes[i], p.servers[i] = q.hash, q.server
	}
	return p
}

// RingPlacement is a built ring. It implements profile.Continuum.
type RingPlacement struct {
	hashes  []uint64 // sorted point positions
	servers []int32  // servers[i] owns hashes[i]
	// down marks endpoints skipped at lookup (gRPC), indexed by server; nil
	// for Envoy, whose ring holds only the hosts it may pick.
	down []bool
	// available is the number of distinct pickable servers on the ring.
	available            int
	size                 uint64
	minHashes, maxHashes uint64
	panic                bool
}

var _ profile.Continuum = (*RingPlacement)(nil)

// countAvailable counts the distinct servers the ring can return.
func (p *RingPlacement) countAvailable(n int) {
	seen := make([]bool, n)
	for _, s := range p.servers {
		if !seen[s] && (p.down == nil || !p.down[s]) {
			seen[s] = true
			p.available++
		}
	}
}

// Owners appends up to r distinct servers for position h: the first point
// at or after h, wrapping to the first point (Envoy's and gRPC's ketama
// search), then the servers of the following points in ring order, each
// once. That is Envoy's retry order with a previous_hosts retry predicate
// (attempt a looks at point (index + a) mod size and rejects a host already
// tried) and gRPC's fallback walk; gRPC also skips Down endpoints there. In
// Envoy's panic mode the ring holds Down hosts and Owners returns them, as
// Envoy routes to them.
func (p *RingPlacement) Owners(h uint64, r int, dst []int) []int {
	n := len(p.hashes)
	if r <= 0 || n == 0 || p.available == 0 {
		return dst
	}
	idx := p.index(h)
	start := len(dst)
	want := min(r, p.available)
	for i := 0; i < n && len(dst)-start < want; i++ {
		j := idx + i
		if j >= n {
			j -= n
		}
		s := int(p.servers[j])
		if p.down != nil && p.down[s] {
			continue
		}
		if slices.Contains(dst[start:], s) {
			continue
		}
		dst = append(dst, s)
	}
	return dst
}

// index is the ketama lookup: the first point whose hash is ≥ h, or 0 when
// h is past the last point.
func (p *RingPlacement) index(h uint64) int {
	lo, hi := 0, len(p.hashes)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.hashes[m] < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(p.hashes) {
		return 0
	}
	return lo
}

// Points returns the ring's points in ring order, in a 64-bit space.
func (p *RingPlacement) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(p.hashes))
	for i, h := range p.hashes {
		pts[i] = profile.Point{Pos: h, Server: int(p.servers[i])}
	}
	return pts, 64
}

// Size is the ring's size as Envoy reports it in the ring_hash_lb.size
// gauge: ceil(scale), which the number of points equals.
func (p *RingPlacement) Size() uint64 { return p.size }

// HashesPerHost returns the fewest and most points a host of the build set
// got (the min_hashes_per_host and max_hashes_per_host gauges).
func (p *RingPlacement) HashesPerHost() (lo, hi uint64) { return p.minHashes, p.maxHashes }

// Panic reports whether Envoy built this ring in panic mode, from every
// host including Down ones.
func (p *RingPlacement) Panic() bool { return p.panic }
