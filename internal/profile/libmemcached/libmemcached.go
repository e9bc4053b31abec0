// Package libmemcached reproduces the consistent-hashing placement of
// libmemcached 1.1.4 (libmemcached-awesome, as Debian's libmemcached-dev
// 1.1.4-1 ships it for amd64): update_continuum in
// src/libmemcached/hosts.cc, dispatch_host and memcached_generate_hash in
// src/libmemcached/hash.cc, the behaviours of src/libmemcached/behavior.cc
// and the hash functions of src/libhashkit. Three modes are modelled:
// weighted (MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, libketama-compatible),
// ketama (MEMCACHED_BEHAVIOR_KETAMA, 100 points per server) and spy
// (MEMCACHED_DISTRIBUTION_CONSISTENT_KETAMA_SPY, spymemcached-compatible).
//
// Membership: a server's Name is "host:port" or "host" (port 11211,
// MEMCACHED_DEFAULT_PORT), added in list order with
// memcached_server_add_with_weight(host, port, Weight); the weight sets its
// share of points in the weighted and spy modes, and in ketama mode any
// weight above 1 switches libmemcached to the weighted continuum (server_add
// does that). A Down server is one that libmemcached's auto-eject
// (MEMCACHED_BEHAVIOR_REMOVE_FAILED_SERVERS) has taken out: the continuum
// is rebuilt over the live servers only, their count and total weight
// counting live servers, so with unequal weights every live server's point
// count can change. Without auto-eject libmemcached keeps routing to a
// failed server and its keys fail; that is not modelled. Owners for r > 1
// follows MEMCACHED_BEHAVIOR_NUMBER_OF_REPLICAS = r−1: the primary, then
// the r−1 servers after it in the server list (sorted when sort_hosts is
// on), wrapping; a Down one among them gets no copy (libmemcached's write
// to it fails) and is left out rather than replaced.
//
// Platform: amd64, where char is signed (one-at-a-time and the FNV hashes
// sign-extend bytes ≥ 0x80) and gcc contracts no float arithmetic; an arm64
// build of libmemcached reads bytes unsigned and may fuse the point count's
// multiply-add, so its placement can differ.
package libmemcached

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// libmemcached's constants (include/libmemcached-1.0/defaults.h, limits.h).
const (
	// DefaultPort is MEMCACHED_DEFAULT_PORT, left out of the weighted and
	// ketama point strings.
	DefaultPort = 11211
	// PointsPerServer is MEMCACHED_POINTS_PER_SERVER, the unweighted ketama
	// mode's points per server.
	PointsPerServer = 100
	// PointsPerServerKetama is MEMCACHED_POINTS_PER_SERVER_KETAMA, the
	// weighted modes' points for a server of average weight.
	PointsPerServerKetama = 160
	// MaxServers is the most servers Debian's build accepts under a
	// consistent distribution: update_continuum asserts
	// servers × MEMCACHED_POINTS_PER_SERVER ≤ MEMCACHED_CONTINUUM_SIZE
	// (10000) and aborts the process on the 101st.
	MaxServers = 100
	// maxHost bounds a hostname's length (< MEMCACHED_NI_MAXHOST).
	maxHost = 1025
	// maxKey is MEMCACHED_MAX_KEY; a namespaced key longer than maxKey-1
	// hashes to 0.
	maxKey = 251
	// maxNamespace is MEMCACHED_MAX_NAMESPACE; a namespace is shorter.
	maxNamespace = 128
)

// Modes, as the scenario file spells them.
const (
	ModeWeighted = "weighted"
	ModeKetama   = "ketama"
	ModeSpy      = "spy"
)

// Options are the libmemcached behaviours that change placement, set on a
// fresh memcached_st before its servers are added.
type Options struct {
	// Mode is the distribution: "weighted" (default;
	// MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED = 1: 160 points per server of
	// average weight, 4 per MD5 digest of "host-k" or "host:port-k", key
	// hash MD5), "ketama" (MEMCACHED_BEHAVIOR_KETAMA = 1, or the
	// CONSISTENT / CONSISTENT_KETAMA distributions: 100 points per server,
	// one per key-hash of "host-k" / "host:port-k", key hash one-at-a-time;
	// weights above 1 switch it to the weighted continuum) or "spy"
	// (KETAMA_WEIGHTED, then DISTRIBUTION = CONSISTENT_KETAMA_SPY, as
	// libmemcached's own test does: the weighted continuum over
	// "/host:port-k"). DISTRIBUTION = CONSISTENT_WEIGHTED alone is weighted
	// with hash one-at-a-time (it leaves the key hash alone).
	Mode string `yaml:"mode"`
	// Hash is the key hash, MEMCACHED_BEHAVIOR_HASH set after the mode:
	// one of one-at-a-time, md5, crc, fnv1-64, fnv1a-64, fnv1-32, fnv1a-32,
	// murmur, jenkins, murmur3. Default md5 in weighted and spy modes (which
	// set it), one-at-a-time (libhashkit's default) in ketama mode. It also
	// hashes the points of the unweighted ketama continuum; weighted points
	// are always MD5. MEMCACHED_BEHAVIOR_KETAMA_HASH has no effect on
	// placement in 1.1.4 and has no option.
	Hash string `yaml:"hash"`
	// SortHosts is MEMCACHED_BEHAVIOR_SORT_HOSTS (default false): the server
	// list is sorted by hostname (strcmp), then port, before the continuum
	// is built, which changes tie-breaks and the replica order.
	SortHosts bool `yaml:"sort_hosts"`
	// Namespace is the namespace (MEMCACHED_CALLBACK_NAMESPACE) hashed in
	// front of every key when MEMCACHED_BEHAVIOR_HASH_WITH_PREFIX_KEY is on;
	// empty (default) when that behaviour is off, as a namespace that is not
	// hashed does not change placement. 1 to 127 bytes, no NUL.
	Namespace string `yaml:"namespace"`
}

// Effective returns o with the product's defaults filled in.
func (o Options) Effective() Options {
	if o.Mode == "" {
		o.Mode = ModeWeighted
	}
	if o.Hash == "" {
		o.Hash = "md5"
		if o.Mode == ModeKetama {
			o.Hash = "one-at-a-time"
		}
	}
	return o
}

// validate reports the first option libmemcached would not take.
func (o Options) validate() error {
	switch o.Mode {
	case ModeWeighted, ModeKetama, ModeSpy:
	default:
		return fmt.Errorf("libmemcached: mode %q is not one of weighted, ketama, spy", o.Mode)
	}
	if _, ok := HashByName(o.Hash); !ok {
		if o.Hash == "hsieh" {
			return fmt.Errorf("libmemcached: hash hsieh is not built into Debian's libhashkit 1.1.4 "+
				"(MEMCACHED_BEHAVIOR_HASH refuses it); use one of %s", strings.Join(hashNames, ", "))
		}
		return fmt.Errorf("libmemcached: hash %q is not one of %s", o.Hash, strings.Join(hashNames, ", "))
	}
	if len(o.Namespace) >= maxNamespace {
		return fmt.Errorf("libmemcached: namespace is %d bytes; libmemcached takes at most %d", len(o.Namespace), maxNamespace-1)
	}
	if strings.IndexByte(o.Namespace, 0) >= 0 {
		return fmt.Errorf("libmemcached: namespace %q holds a NUL byte; libmemcached takes a C string", o.Namespace)
	}
	return nil
}

// New returns libmemcached's placement rule for o.
func New(o Options) (profile.Rule, error) {
	o = o.Effective()
	if err := o.validate(); err != nil {
		return nil, err
	}
	h, _ := HashByName(o.Hash)
	return &rule{opt: o, hash: h}, nil
}

// rule is one libmemcached configuration.
type rule struct {
	opt  Options
	hash KeyHash
}

// Hash is memcached_generate_hash's key hash: the configured function of
// the key, or of namespace ‖ key with HASH_WITH_PREFIX_KEY, where
// libmemcached's strncpy zeroes a key's bytes after its first NUL and a
// namespaced key longer than 250 bytes hashes to 0.
func (r *rule) Hash(key []byte) uint64 {
	ns := r.opt.Namespace
	if ns == "" {
		return uint64(r.hash(key))
	}
	if len(ns)+len(key) > maxKey-1 {
		return 0
	}
	var buf [maxKey - 1]byte
	n := copy(buf[:], ns)
	if z := slices.Index(key, 0); z >= 0 {
		copy(buf[n:], key[:z])
	} else {
		copy(buf[n:], key)
	}
	return uint64(r.hash(buf[:n+len(key)]))
}

// ParseName splits a server name into libmemcached's hostname and port:
// "host:port", "[v6]:port", or a bare host (an IPv6 address without
// brackets counts as bare), whose port is DefaultPort. Port 0 is
// DefaultPort too, as memcached_server_add_with_weight makes it.
func ParseName(name string) (host string, port int, err error) {
	host, ps := name, ""
	switch {
	case strings.HasPrefix(name, "["):
		end := strings.Index(name, "]")
		if end < 0 {
			return "", 0, fmt.Errorf("libmemcached: server %q: no closing ']'", name)
		}
		host, ps = name[1:end], strings.TrimPrefix(name[end+1:], ":")
		if rest := name[end+1:]; rest != "" && !strings.HasPrefix(rest, ":") {
			return "", 0, fmt.Errorf("libmemcached: server %q: want [address]:port", name)
		}
	case strings.Count(name, ":") == 1:
		i := strings.IndexByte(name, ':')
		host, ps = name[:i], name[i+1:]
	}
	if strings.HasSuffix(name, ":") {
		return "", 0, fmt.Errorf("libmemcached: server %q: empty port; want host, host:port or [v6]:port", name)
	}
	port = DefaultPort
	if ps != "" {
		p, perr := strconv.Atoi(ps)
		if perr != nil || p < 0 || p > 65535 {
			return "", 0, fmt.Errorf("libmemcached: server %q: port %q is not a number from 0 to 65535", name, ps)
		}
		if p != 0 {
			port = p
		}
	}
	if host == "" {
		return "", 0, fmt.Errorf("libmemcached: server %q has no host; want host, host:port or [v6]:port", name)
	}
	if len(host) >= maxHost {
		return "", 0, fmt.Errorf("libmemcached: server %q: host is %d bytes, libmemcached takes at most %d", name, len(host), maxHost-1)
	}
	if strings.IndexByte(host, 0) >= 0 {
		return "", 0, fmt.Errorf("libmemcached: server %q: host holds a NUL byte", name)
	}
	return host, port, nil
}

// AppendPointString appends the string update_continuum hashes for a
// server's k-th point (or digest): "/host:port-k" in spy mode, else
// "host-k" at DefaultPort and "host:port-k" at any other port.
func AppendPointString(dst []byte, host string, port int, spy bool, k int) []byte {
	if spy {
		dst = append(dst, '/')
	}
	dst = append(dst, host...)
	if spy || port != DefaultPort {
		dst = strconv.AppendInt(append(dst, ':'), int64(port), 10)
	}
	return strconv.AppendInt(append(dst, '-'), int64(k), 10)
}

// WeightedHashes is the number of MD5 digests (4 points each) the weighted
// continuum gives a live server of weight w when the live servers number
// live and weigh total: floor((float)(pct·160/4·(float)live + 1e-10F)),
// pct = (float)w/(float)total, every step rounded to single precision as
// hosts.cc computes it. With equal weights it is 40, but 39 at 25, 47, 50,
// 55, 61, 71, 94, 100, … servers.
func WeightedHashes(w, total uint64, live int) int {
	pct := float32(w) / float32(total)
	x := float32(pct * PointsPerServerKetama)
	x = float32(x / 4)
	x = float32(x * float32(live))
	x = float32(x + float32(1e-10))
	return int(math.Floor(float64(x)))
}
