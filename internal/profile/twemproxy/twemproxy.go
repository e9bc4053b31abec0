// Package twemproxy reproduces the `distribution: ketama` placement of
// twemproxy (nutcracker) 0.5.0, twitter/twemproxy at tag 0.5.0, the version
// Debian 12 packages as nutcracker 0.5.0+dfsg-2: ketama_update and
// ketama_dispatch in src/hashkit/nc_ketama.c, server_pool_idx and
// server_pool_hash in src/nc_server.c, the server names of conf_add_server
// in src/nc_conf.c and the hash functions of src/hashkit. It is derived from
// that source and its src/test_all.c vectors; it has not been run against
// a real nutcracker.
//
// The continuum is libmemcached's weighted ketama (160 points for a server
// of average weight, floor of a single-precision share, 4 points per MD5
// digest of "name-k"), with three differences: the string hashed is the
// server's configured name when it has one ("host:port:weight name"), else
// "host" at port 11211 and "host:port" otherwise; points at equal values
// keep server order only because glibc's qsort is a stable merge sort
// (ketama_item_cmp compares values alone); and keys are hashed with
// twemproxy's own hash option (default fnv1a_64), after hash_tag extraction,
// an empty key hashing to 0.
//
// Membership: servers in configuration order; weights are the "weight"
// field. A Down server is one that auto_eject_hosts has ejected: the
// continuum is rebuilt over the live servers, whose count and total weight
// set every live server's share. Without auto_eject_hosts twemproxy keeps
// routing to a failed server (its requests fail); that is not modelled.
// twemproxy has no replicas and no failover order: Owners for r > 1 walks
// the continuum clockwise from the key to further distinct servers, which
// is ringreport's convention, not twemproxy's.
//
// Platform: amd64, where char is signed (one_at_a_time, the FNV hashes and
// hsieh sign-extend bytes ≥ 0x80).
package twemproxy

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// twemproxy's constants (src/hashkit/nc_ketama.c, src/nc_conf.h).
const (
	// PointsPerServer is KETAMA_POINTS_PER_SERVER, the points of a server
	// of average weight.
	PointsPerServer = 160
	// DefaultKetamaPort is CONF_DEFAULT_KETAMA_PORT, left out of an unnamed
	// server's string.
	DefaultKetamaPort = 11211
	// maxHostLen is KETAMA_MAX_HOSTLEN; a point string is cut to one less.
	maxHostLen = 273
)

// Options are the pool settings of nutcracker.yml that change placement.
type Options struct {
	// Distribution is the pool's `distribution`: only "ketama" (the default)
	// is modelled; modula and random are not.
	Distribution string `yaml:"distribution"`
	// Hash is the pool's `hash`, the key hash: one of one_at_a_time, md5,
	// crc16, crc32, crc32a, fnv1_64, fnv1a_64 (default), fnv1_32, fnv1a_32,
	// hsieh, murmur, jenkins. The points are always MD5.
	Hash string `yaml:"hash"`
	// HashTag is the pool's `hash_tag`: two bytes, e.g. "{}"; when a key
	// holds the first and, later, the second with something between them,
	// only what lies between is hashed. Empty (default) hashes whole keys.
	HashTag string `yaml:"hash_tag"`
	// NamedServers (default false) says the servers' Names are the names
	// given after the weight in `servers:` ("127.0.0.1:11211:1 cache-a"),
	// which twemproxy hashes verbatim. When false a Name is the server's
	// "host:port" (a bare host means port 11211; "/path" a unix socket), and
	// twemproxy hashes "host" at port 11211, "host:port" at other ports and
	// "/path:" for a socket.
	NamedServers bool `yaml:"named_servers"`
}

// Effective returns o with twemproxy's defaults filled in.
func (o Options) Effective() Options {
	if o.Distribution == "" {
		o.Distribution = "ketama"
	}
	if o.Hash == "" {
		o.Hash = "fnv1a_64"
	}
	return o
}

// New returns twemproxy's ketama rule for o.
func New(o Options) (profile.Rule, error) {
	o = o.Effective()
	if o.Distribution != "ketama" {
		if o.Distribution == "modula" || o.Distribution == "random" {
			return nil, fmt.Errorf("twemproxy: distribution %s is not modelled; only ketama is", o.Distribution)
		}
		return nil, fmt.Errorf("twemproxy: distribution %q is not one of ketama, modula, random", o.Distribution)
	}
	h, ok := HashByName(o.Hash)
	if !ok {
		return nil, fmt.Errorf("twemproxy: hash %q is not one of %s", o.Hash, strings.Join(hashNames, ", "))
	}
	if o.HashTag != "" && len(o.HashTag) != 2 {
		return nil, fmt.Errorf("twemproxy: hash_tag %q is %d bytes; twemproxy takes exactly two, e.g. \"{}\"", o.HashTag, len(o.HashTag))
	}
	return &rule{opt: o, hash: h}, nil
}

// rule is one twemproxy pool configuration.
type rule struct {
	opt  Options
	hash func([]byte) uint32
}

// Hash is server_pool_idx's key hash: the part of the key inside the hash
// tag when there is one, then 0 for an empty key (server_pool_hash), else
// the configured hash.
func (r *rule) Hash(key []byte) uint64 {
	key = TagPart(key, r.opt.HashTag)
	if len(key) == 0 {
		return 0
	}
	return uint64(r.hash(key))
}

// TagPart returns the bytes server_pool_idx hashes: those strictly between
// the first tag[0] and the first tag[1] after it, when both are there and
// at least one byte lies between; otherwise the whole key. tag is empty or
// two bytes.
func TagPart(key []byte, tag string) []byte {
	if len(tag) != 2 {
		return key
	}
	s := slices.Index(key, tag[0])
	if s < 0 {
		return key
	}
	e := slices.Index(key[s+1:], tag[1])
	if e < 1 {
		return key
	}
	return key[s+1 : s+1+e]
}

// Identity returns the string twemproxy's continuum hashes for a server
// (before "-k"): the name verbatim when named, else the address as
// conf_add_server spells it: "host" at port 11211, "host:port" as written
// otherwise, "/path:" for a unix socket.
func Identity(name string, named bool) (string, error) {
	if name == "" {
		return "", fmt.Errorf("twemproxy: a server has an empty name")
	}
	if named {
		return name, nil
	}
	if strings.HasPrefix(name, "/") {
		return name + ":", nil
	}
	i := strings.LastIndexByte(name, ':')
	if i < 0 {
		return name, nil
	}
	host, ps := name[:i], name[i+1:]
	port, err := strconv.Atoi(ps)
	if err != nil || port < 1 || port > 65535 || ps[0] == '+' || ps[0] == '-' || host == "" {
		return "", fmt.Errorf("twemproxy: server %q: want host:port with a port from 1 to 65535 (or named_servers: true)", name)
	}
	if port == DefaultKetamaPort {
		return host, nil
	}
	return name, nil
}

// Hashes is the number of MD5 digests (4 points each) ketama_update gives
// a live server of weight w among live servers weighing total:
// floorf((float)(pct·160/4·(float)live + 0.0000000001)), pct and the
// products in single precision, the addition in double.
func Hashes(w, total uint32, live int) int {
	pct := float32(w) / float32(total)
	x := float32(float32(pct*PointsPerServer) / 4)
	x = float32(x * float32(live))
	return int(math.Floor(float64(float32(float64(x) + 0.0000000001))))
}

// Build returns twemproxy's continuum over servers, Down ones ejected.
// prev is not read.
func (r *rule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	ids := make([]string, len(servers))
	live, total := 0, uint32(0)
	for i, s := range servers {
		id, err := Identity(s.Name, r.opt.NamedServers)
		if err != nil {
			return nil, err
		}
		if s.Weight < 1 || s.Weight > math.MaxInt32 {
			return nil, fmt.Errorf("twemproxy: server %q has weight %d; weights are ≥ 1", s.Name, s.Weight)
		}
		ids[i] = id
		if !s.Down {
			live++
			total += uint32(s.Weight)
		}
	}
	p := &placement{live: live}
	if live == 0 {
		return p, nil
	}
	buf := make([]byte, 0, 64)
	for i, s := range servers {
		if s.Down {
			continue
		}
		for k := range Hashes(uint32(s.Weight), total, live) {
			buf = strconv.AppendInt(append(append(buf[:0], ids[i]...), '-'), int64(k), 10)
			if len(buf) >= maxHostLen {
				buf = buf[:maxHostLen-1]
			}
			d := md5.Sum(buf)
			for a := range 4 {
				p.vals = append(p.vals, binary.LittleEndian.Uint32(d[4*a:]))
				p.idx = append(p.idx, int32(i))
			}
		}
	}
	p.sort()
	return p, nil
}

// placement is one twemproxy continuum.
type placement struct {
	vals []uint32 // point values, ascending
	idx  []int32  // server of each point
	live int      // servers with points, at most
}

// sort orders the points by value alone, keeping equal values in the order
// they were made, as glibc's merge-sort qsort does.
func (p *placement) sort() {
	order := make([]int, len(p.vals))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case p.vals[a] < p.vals[b]:
			return -1
		case p.vals[a] > p.vals[b]:
			return 1
		}
		return 0
	})
	vals, idx := make([]uint32, len(order)), make([]int32, len(order))
	for i, o := range order {
		vals[i], idx[i] = p.vals[o], p.idx[o]
	}
	p.vals, p.idx = vals, idx
}

// Owners is ketama_dispatch for r = 1: the first point ≥ h, wrapping. For
// r > 1 it goes on clockwise to the next distinct servers (ringreport's
// convention).
func (p *placement) Owners(h uint64, r int, dst []int) []int {
	n := len(p.vals)
	if r <= 0 || n == 0 {
		return dst
	}
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if uint64(p.vals[m]) < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	start, want := len(dst), min(r, p.live)
	for i := 0; i < n && len(dst)-start < want; i++ {
		s := int(p.idx[(lo+i)%n])
		if !slices.Contains(dst[start:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Points returns the continuum's points in order; positions are 32-bit.
func (p *placement) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(p.vals))
	for i, v := range p.vals {
		pts[i] = profile.Point{Pos: uint64(v), Server: int(p.idx[i])}
	}
	return pts, 32
}
