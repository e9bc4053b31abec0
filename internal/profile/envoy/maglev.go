package envoy

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// Maglev table sizes.
const (
	// DefaultTableSize is table_size when unset (maglev_lb.h, the paper's
	// recommended 65537).
	DefaultTableSize = 65537
	// MaxTableSize is the largest table_size Envoy accepts (maglev.proto).
	MaxTableSize = 5000011
)

// MaglevOptions are the knobs of Envoy's MAGLEV load balancer that change
// placement. The zero value is Envoy's defaults.
type MaglevOptions struct {
	// TableSize is table_size, the number of table entries: a prime from 2
	// to 5000011. Default 65537.
	TableSize uint64 `yaml:"table_size"`
	// Sorted is whether hosts are sorted by hash key before the table is
	// filled, as Envoy does since v1.27.0 (PR #28055, fixing issue #20703);
	// false is the host-set order of Envoy ≤ 1.26, where the table depends
	// on the order in which hosts arrived. Default true (nil means the
	// default).
	Sorted *bool `yaml:"sorted"`
	// UseHostnameForHashing is use_hostname_for_hashing; as for RingOptions
	// it records that the server names are hostnames and changes no
	// arithmetic. Default false.
	UseHostnameForHashing bool `yaml:"use_hostname_for_hashing"`
	// HealthyPanicThreshold is common_lb_config healthy_panic_threshold, a
	// whole percentage 0 to 100: below it the table is built from every
	// host, Down ones included; 0 disables panic mode. Default 50 (nil
	// means the default).
	HealthyPanicThreshold *int `yaml:"healthy_panic_threshold"`
	// OverprovisioningFactor is the EDS policy overprovisioning_factor, a
	// percentage ≥ 1 (see RingOptions). Default 140.
	OverprovisioningFactor int `yaml:"overprovisioning_factor"`
}

// Effective returns o with every default filled in.
func (o MaglevOptions) Effective() MaglevOptions {
	if o.TableSize == 0 {
		o.TableSize = DefaultTableSize
	}
	if o.Sorted == nil {
		t := true
		o.Sorted = &t
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
func (o MaglevOptions) validate() error {
	m := o.TableSize
	if m > MaxTableSize {
		return fmt.Errorf("table_size %d is over Envoy's limit of %d", m, MaxTableSize)
	}
	if !isPrime(m) {
		return fmt.Errorf("table_size %d is not a prime number; Envoy requires a prime (default %d), e.g. %s", m, DefaultTableSize, nearPrimes(m))
	}
	return checkHealth(o.HealthyPanicThreshold, o.OverprovisioningFactor)
}

// isPrime reports whether m is prime. Envoy's own check (Primes::isPrime)
// also passes 1, with which it would divide by zero computing skips, so 1 is
// refused here.
func isPrime(m uint64) bool {
	if m < 2 {
		return false
	}
	for f := uint64(2); f*f <= m; f++ {
		if m%f == 0 {
			return false
		}
	}
	return true
}

// nearPrimes names the primes around m, for error messages.
func nearPrimes(m uint64) string {
	var out []string
	for p := m; p >= 2 && len(out) < 1; p-- {
		if isPrime(p) {
			out = append(out, fmt.Sprint(p))
		}
	}
	for p := m + 1; p <= MaxTableSize; p++ {
		if isPrime(p) {
			out = append(out, fmt.Sprint(p))
			break
		}
	}
	return strings.Join(out, " or ")
}

// NewMaglev validates o and returns Envoy's maglev rule.
func NewMaglev(o MaglevOptions) (profile.Rule, error) {
	e := o.Effective()
	if err := e.validate(); err != nil {
		return nil, err
	}
	return &maglevRule{opts: e}, nil
}

// maglevRule is the maglev rule for fixed, effective options.
type maglevRule struct{ opts MaglevOptions }

// Hash is KeyHash: xxHash64 seed 0 of the key.
func (r *maglevRule) Hash(key []byte) uint64 { return KeyHash(key) }

// maglevEntry is one host while the table is filled (TableBuildEntry in
// maglev_lb.h).
type maglevEntry struct {
	server       int32
	offset, skip uint64
	weight       float64
	target       float64
	next, count  uint64
}

// Build fills the table over servers; prev is not read.
func (r *maglevRule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	if err := checkEnvoyServers(servers); err != nil {
		return nil, err
	}
	hw, _, maxW, panicking, err := envoyBuildSet(servers, *r.opts.HealthyPanicThreshold, r.opts.OverprovisioningFactor)
	if err != nil {
		return nil, err
	}
	if *r.opts.Sorted {
		slices.SortFunc(hw, func(a, b hostWeight) int { return strings.Compare(a.key, b.key) })
	}
	p := fillMaglev(hw, maxW, r.opts.TableSize)
	p.panic = panicking
	return p, nil
}

// fillMaglev fills a table of m entries as OriginalMaglevTable (and the
// compact table, which places the same) does: each host has offset =
// xxHash64(key, 0) mod m and skip = xxHash64(key, 1) mod (m−1) + 1 and
// prefers entries (offset + skip·next) mod m; in rounds iteration = 1, 2, …
// each host in order takes its next free preferred entry unless
// iteration·weight < target, after which target += maxW, until the table is
// full.
func fillMaglev(hw []hostWeight, maxW float64, m uint64) *MaglevPlacement {
	p := &MaglevPlacement{m: m}
	if len(hw) == 0 {
		return p
	}
	entries := make([]maglevEntry, len(hw))
	for i, e := range hw {
		k := []byte(e.key)
		entries[i] = maglevEntry{
			server: int32(e.server),
			offset: XXH64(k, 0) % m,
			skip:   XXH64(k, 1)%(m-1) + 1,
			weight: e.weight,
		}
	}
	table := make([]int32, m)
	for i := range table {
		table[i] = -1
	}
	var filled uint64
	for iteration := uint32(1); filled < m; iteration++ {
		for i := 0; i < len(entries) && filled < m; i++ {
			e := &entries[i]
			if float64(iteration)*e.weight < e.target {
				continue
			}
			e.target += maxW
			c := (e.offset + e.skip*e.next) % m
			for table[c] >= 0 {
				e.next++
				c = (e.offset + e.skip*e.next) % m
			}
			table[c] = e.server
			e.next++
			e.count++
			filled++
		}
	}
	p.table = table
	p.minEntries, p.maxEntries = m, 0
	for _, e := range entries {
		p.minEntries = min(p.minEntries, e.count)
		p.maxEntries = max(p.maxEntries, e.count)
		if e.count > 0 {
			p.distinct++
		}
	}
	// Retry attempts 1 … 2^k with 2^k ≥ m probe every entry (see Owners).
	p.maxAttempt = uint64(1) << bits.Len64(m-1)
	return p
}

// MaglevPlacement is a filled maglev table.
type MaglevPlacement struct {
	table                  []int32 // server per entry; empty with no hosts
	m                      uint64
	distinct               int    // servers with at least one entry
	maxAttempt             uint64 // last retry attempt Owners tries
	minEntries, maxEntries uint64
	panic                  bool
}

var _ profile.Placement = (*MaglevPlacement)(nil)

// Owners appends up to r distinct servers for position h in Envoy's retry
// order: attempt 0 is entry h mod m; attempt a ≥ 1 flips the hash, h ^
// (2⁶⁴ − a) (maglev_lb.cc: hash ^= ~0ULL − attempt + 1), and takes entry
// (h ^ (2⁶⁴ − a)) mod m; a host already listed is skipped, as a
// previous_hosts retry predicate rejects it. Attempts 1 … 2^k, 2^k ≥ m,
// probe every entry, so every host with an entry is reached. In panic mode
// the table holds Down hosts and Owners returns them, as Envoy routes to
// them.
func (p *MaglevPlacement) Owners(h uint64, r int, dst []int) []int {
	if r <= 0 || len(p.table) == 0 {
		return dst
	}
	start := len(dst)
	dst = append(dst, int(p.table[h%p.m]))
	want := min(r, p.distinct)
	for a := uint64(1); len(dst)-start < want && a <= p.maxAttempt; a++ {
		s := int(p.table[(h^(^uint64(0)-a+1))%p.m])
		if !slices.Contains(dst[start:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Table appends to dst, and returns, the server index of every table entry
// in entry order (empty with no hosts).
func (p *MaglevPlacement) Table(dst []int) []int {
	for _, s := range p.table {
		dst = append(dst, int(s))
	}
	return dst
}

// TableSize is the number of entries m.
func (p *MaglevPlacement) TableSize() uint64 { return p.m }

// EntriesPerHost returns the fewest and most entries a host of the build set
// got (the min_entries_per_host and max_entries_per_host gauges).
func (p *MaglevPlacement) EntriesPerHost() (lo, hi uint64) { return p.minEntries, p.maxEntries }

// Panic reports whether Envoy built this table in panic mode, from every
// host including Down ones.
func (p *MaglevPlacement) Panic() bool { return p.panic }
