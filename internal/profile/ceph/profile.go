package ceph

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Options are the pool and map settings that change placement. The zero
// value is a replicated pool with Ceph's settings for a new pool, except
// pg_num (see PGNum).
type Options struct {
	// PGNum is the pool's pg_num, the number of placement groups objects
	// hash into: 1 to 65536. Default 128. (Ceph 16.2.15 creates pools
	// with osd_pool_default_pg_num 32 and lets the autoscaler grow them;
	// ringreport defaults to a size a few dozen OSDs would be given.)
	PGNum int `yaml:"pg_num"`
	// PGPNum is the pool's pgp_num, the number of distinct placements the
	// PGs fold into: 1 to PGNum. Default PGNum.
	PGPNum int `yaml:"pgp_num"`
	// Pool is the pool id, mixed into every PG's placement seed: 1 to
	// 2^31−1. Default 1, the first pool of a cluster.
	Pool int `yaml:"pool"`
	// FailureDomain is the bucket type the rule keeps replicas apart on,
	// the "type" of `step chooseleaf firstn 0 type …`: host, rack or
	// zone. Default host (Ceph's replicated_rule).
	FailureDomain string `yaml:"failure_domain"`
	// HashPSPool is the pool flag hashpspool: true hashes the pool id into
	// the placement seed, false adds it (pools of Ceph before 0.64).
	// Default true, as every pool Ceph creates now.
	HashPSPool *bool `yaml:"hashpspool"`
	// WeightUnit is the CRUSH weight of one unit of a server's weight, in
	// CRUSH's 16.16 fixed point: 1 to 2^31−1. Default 65536 (weight 1 =
	// CRUSH weight 1.000, as a 1 TiB OSD gets). 32768 makes weight 1
	// mean 0.5.
	WeightUnit int `yaml:"weight_unit"`
}

// Defaults of Options.
const (
	DefaultPGNum         = 128
	DefaultPool          = 1
	DefaultFailureDomain = "host"
	maxPGNum             = 1 << 16
)

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.PGNum == 0 {
		o.PGNum = DefaultPGNum
	}
	if o.PGPNum == 0 {
		o.PGPNum = o.PGNum
	}
	if o.Pool == 0 {
		o.Pool = DefaultPool
	}
	if o.FailureDomain == "" {
		o.FailureDomain = DefaultFailureDomain
	}
	if o.HashPSPool == nil {
		t := true
		o.HashPSPool = &t
	}
	if o.WeightUnit == 0 {
		o.WeightUnit = WeightOne
	}
	return o
}

// failureTypes are the failure domains a rule may name, with their type
// ids.
var failureTypes = map[string]int32{"host": TypeHost, "rack": TypeRack, "zone": TypeZone}

// validate reports the first option out of range, saying what would do.
func (o Options) validate() error {
	switch {
	case o.PGNum < 1 || o.PGNum > maxPGNum:
		return fmt.Errorf("pg_num %d is not in 1..%d", o.PGNum, maxPGNum)
	case o.PGPNum < 1 || o.PGPNum > o.PGNum:
		return fmt.Errorf("pgp_num %d is not in 1..pg_num (%d)", o.PGPNum, o.PGNum)
	case o.Pool < 1 || o.Pool > 1<<31-1:
		return fmt.Errorf("pool %d is not in 1..2147483647", o.Pool)
	case o.WeightUnit < 1 || o.WeightUnit > maxWeight:
		return fmt.Errorf("weight_unit %d is not in 1..%d (CRUSH 16.16 weight of one weight unit; 65536 = 1.0)", o.WeightUnit, maxWeight)
	}
	if _, ok := failureTypes[o.FailureDomain]; !ok {
		return fmt.Errorf("failure_domain %q is not one of host, rack, zone", o.FailureDomain)
	}
	return nil
}

// Rule is Ceph's placement of objects for one pool's options.
type Rule struct {
	o  Options
	ln *LnTable
}

// New validates o and returns the rule, with crush_ln over Ceph's own
// tables (CephLn).
func New(o Options) (profile.Rule, error) {
	r, err := NewWithLn(o, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// NewWithLn is New with another crush_ln (nil: CephLn()), such as the
// generated one or one over the tables of an installed Ceph, for
// comparing them.
func NewWithLn(o Options, ln *LnTable) (*Rule, error) {
	e := o.Effective()
	if err := e.validate(); err != nil {
		return nil, fmt.Errorf("ceph: %w", err)
	}
	return &Rule{o: e, ln: ln}, nil
}

// Options returns the rule's effective options.
func (r *Rule) Options() Options { return r.o }

// Hash returns an object name's placement seed ps,
// ceph_str_hash_rjenkins(name), as a uint64. (Objects in a namespace
// hash "namespace\x1fname"; pass that as the key.)
func (r *Rule) Hash(key []byte) uint64 { return uint64(StrHash(key)) }

// Build maps the servers onto a CRUSH map (see the package doc) and
// computes the acting set of every PG. prev, when it is a Placement of
// this package, lends its OSD and bucket ids to servers and buckets that
// are still there, as a cluster keeps them.
func (r *Rule) Build(servers []profile.Server, prev profile.Placement) (profile.Placement, error) {
	p, err := r.build(servers, prev)
	if err != nil {
		return nil, fmt.Errorf("ceph: %w", err)
	}
	return p, nil
}

// build is Build without the error prefix.
func (r *Rule) build(servers []profile.Server, prev profile.Placement) (*Placement, error) {
	if err := uniqueNames(servers); err != nil {
		return nil, err
	}
	lay := &layout{}
	if pp, ok := prev.(*Placement); ok && pp != nil {
		lay = pp.lay
	}
	ids, err := assignOSDs(servers, lay)
	if err != nil {
		return nil, err
	}
	h := &hierarchy{o: r.o, prev: lay}
	m, nl, err := h.build(servers, ids)
	if err != nil {
		return nil, err
	}
	for i, s := range servers {
		nl.osd[s.Name] = ids[i]
	}
	m.Ln = r.ln
	p := &Placement{o: r.o, m: m, lay: nl, leafType: failureTypes[r.o.FailureDomain]}
	p.index(servers, ids)
	p.fill()
	return p, nil
}

// uniqueNames rejects two servers of one name: a name is an OSD's
// identity across builds.
func uniqueNames(servers []profile.Server) error {
	seen := map[string]int{}
	for i, s := range servers {
		if s.Name == "" {
			return fmt.Errorf("server %d has an empty name", i+1)
		}
		if j, ok := seen[s.Name]; ok {
			return fmt.Errorf("servers %d and %d are both named %q", j+1, i+1, s.Name)
		}
		seen[s.Name] = i
	}
	return nil
}

// Placement is Ceph's placement of one pool over one membership: every
// PG's acting set, computed by CRUSH at Build.
type Placement struct {
	o        Options
	m        *Map
	lay      *layout
	leafType int32
	reweight []uint32 // by OSD id: WeightOne, or 0 for a Down server
	server   []int32  // by OSD id: index into the servers, or -1
	osd      []int32  // by server index: OSD id
	names    []string // by server index
	acting   []int32  // cacheReps devices per PG, none where CRUSH gave up
}

// cacheReps is how many replicas Build computes for every PG: Ceph's
// osd_pool_default_size. Owners computes larger r per call.
const cacheReps = 3

// index records the OSD ids and the reweight vector: a Down server is an
// OSD marked out (reweight 0), which CRUSH rejects and retries around.
func (p *Placement) index(servers []profile.Server, ids []int32) {
	n := int(p.m.MaxDevices)
	p.reweight, p.server = make([]uint32, n), make([]int32, n)
	for i := range p.server {
		p.server[i] = -1
	}
	p.osd, p.names = ids, make([]string, len(servers))
	for i, s := range servers {
		p.server[ids[i]] = int32(i)
		p.names[i] = s.Name
		if !s.Down {
			p.reweight[ids[i]] = WeightOne
		}
	}
}

// fill computes the first cacheReps replicas of every PG.
func (p *Placement) fill() {
	p.acting = make([]int32, p.o.PGNum*cacheReps)
	for pg := range p.o.PGNum {
		reps := p.acting[pg*cacheReps : (pg+1)*cacheReps]
		p.m.chooseLeafReps(-1, p.leafType, p.PPS(pg), cacheReps, p.reweight, reps)
	}
}

// Owners appends the acting set of the PG of ps h for a pool of size r,
// primary first, as server indexes: CRUSH's result for the PG's
// placement seed, out (Down) OSDs never in it. Fewer than r come back
// when CRUSH finds fewer OSDs in distinct failure domains.
func (p *Placement) Owners(h uint64, r int, dst []int) []int {
	pg := p.Seed(h)
	if r <= cacheReps {
		for _, d := range p.acting[pg*cacheReps : pg*cacheReps+max(r, 0)] {
			if d != none {
				dst = append(dst, int(p.server[d]))
			}
		}
		return dst
	}
	var buf [16]int32
	for _, d := range p.m.ChooseLeaf(-1, p.leafType, p.PPS(pg), r, p.reweight, buf[:0]) {
		dst = append(dst, int(p.server[d]))
	}
	return dst
}

// Seed returns the PG (its seed, the "2a" of "1.2a") that ps h falls in:
// ceph_stable_mod(h, pg_num, pg_num_mask).
func (p *Placement) Seed(h uint64) int {
	n := uint32(p.o.PGNum)
	return int(StableMod(uint32(h), n, PGMask(n)))
}

// PG returns the pool id and PG seed of ps h.
func (p *Placement) PG(h uint64) (pool, seed int) {
	return p.o.Pool, p.Seed(h)
}

// PPS returns the placement seed of a PG, the CRUSH input x
// (pg_pool_t::raw_pg_to_pps): with hashpspool,
// crush_hash32_2(ceph_stable_mod(seed, pgp_num, pgp_num_mask), pool);
// without, that stable_mod plus the pool id.
func (p *Placement) PPS(seed int) uint32 {
	n := uint32(p.o.PGPNum)
	s := StableMod(uint32(seed), n, PGMask(n))
	if *p.o.HashPSPool {
		return Hash32x2(s, uint32(p.o.Pool))
	}
	return s + uint32(p.o.Pool)
}

// Acting appends the OSD ids of a PG's acting set for pool size r,
// primary first.
func (p *Placement) Acting(seed, r int, dst []int32) []int32 {
	if r <= cacheReps {
		for _, d := range p.acting[seed*cacheReps : seed*cacheReps+max(r, 0)] {
			if d != none {
				dst = append(dst, d)
			}
		}
		return dst
	}
	return p.m.ChooseLeaf(-1, p.leafType, p.PPS(seed), r, p.reweight, dst)
}

// OSD returns the OSD id Build gave server i.
func (p *Placement) OSD(i int) int { return int(p.osd[i]) }

// Map returns the CRUSH map Build made; callers must not change it.
func (p *Placement) Map() *Map { return p.m }

// Reweight returns the OSD reweight vector (WeightOne in, 0 out), by OSD
// id; callers must not change it.
func (p *Placement) Reweight() []uint32 { return p.reweight }

// LeafType returns the type id of the rule's failure domain.
func (p *Placement) LeafType() int32 { return p.leafType }

// FormatPG spells a PG the way Ceph does: the pool id, a dot and the seed
// in lower-case hex, e.g. "1.2a".
func FormatPG(pool, seed int) string {
	return fmt.Sprintf("%d.%x", pool, seed)
}

// PGDiff counts how the PGs of two placements of one pool differ.
type PGDiff struct {
	// PGs is the number of PGs compared (pg_num).
	PGs int
	// Remapped counts PGs whose set of OSDs changed: data moves.
	Remapped int
	// PrimaryOnly counts PGs on the same OSDs with another primary: no
	// data moves, but clients talk to another OSD.
	PrimaryOnly int
	// Reordered counts PGs on the same OSDs with the same primary whose
	// other replicas changed order (what crushtool --compare also counts).
	Reordered int
}

// Diff compares the acting sets of size r of every PG in a and b, which
// must have the same pg_num. OSDs are compared by OSD id, which Build
// keeps for a server across builds.
func Diff(a, b *Placement, r int) (PGDiff, error) {
	if a.o.PGNum != b.o.PGNum {
		return PGDiff{}, fmt.Errorf("ceph: pg_num %d and %d: Diff compares PGs of one pool", a.o.PGNum, b.o.PGNum)
	}
	d := PGDiff{PGs: a.o.PGNum}
	var x, y []int32
	for pg := range a.o.PGNum {
		x, y = a.Acting(pg, r, x[:0]), b.Acting(pg, r, y[:0])
		switch {
		case !sameSet(x, y):
			d.Remapped++
		case len(x) > 0 && x[0] != y[0]:
			d.PrimaryOnly++
		case !slices.Equal(x, y):
			d.Reordered++
		}
	}
	return d, nil
}

// sameSet reports whether two short OSD lists hold the same OSDs.
func sameSet(x, y []int32) bool {
	if len(x) != len(y) {
		return false
	}
	for _, a := range x {
		found := false
		for _, b := range y {
			found = found || a == b
		}
		if !found {
			return false
		}
	}
	return true
}
