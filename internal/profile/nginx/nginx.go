// Package nginx reproduces the placement of nginx's upstream hash balancer,
// both `hash $key consistent` and plain `hash $key`, as nginx 1.22.1 does it
// (src/http/modules/ngx_http_upstream_hash_module.c at release-1.22.1; the
// stream module's ngx_stream_upstream_hash_module.c is the same algorithm),
// checked against Debian 12's nginx 1.22.1-9+deb12u11.
//
// Membership maps onto nginx's upstream block: each profile.Server is one
// `server NAME weight=W;` line, in configuration order, naming one address
// (a name that resolves to several addresses, which nginx balances round
// robin under one set of points, is not modelled). Weight is nginx's weight,
// ≥ 1. Down is nginx's `down` flag (or a peer that failed max_fails times):
// the server stays in the build (its 160·weight points stay on the
// continuum, its weight stays in the plain hash's total), and lookups skip
// it, walking to the next point (consistent) or rehashing (plain). Owners'
// order for r > 1 is the order nginx tries servers when the earlier ones
// fail: for `consistent`, the distinct live servers met walking the points
// from the key's point; for plain `hash`, the distinct live servers of the
// rehash sequence. nginx gives up hashing after 20 failed tries and falls
// back to round robin, which is not a function of the key; past that point
// Owners continues deterministically (see Ring.Fallback, Plain.Fallback).
// nginx also uses round robin for an empty key, which Owners cannot tell
// from another key: ringreport places it like any key of the same hash.
//
// Under `consistent` a server's points hash its name exactly as written in
// the server line, split by SplitServer: "10.0.0.1:11211" hashes host
// "10.0.0.1" and port "11211", "unix:/tmp/sock" host "/tmp/sock" and no
// port, and a name without a port ("cache1", which nginx connects to on
// port 80) hashes an empty port, not "80"; "10.0.0.1:011211" is not
// "10.0.0.1:11211". A ringreport node name that is no valid nginx address
// ("node-7") is hashed by the same rule, as nginx would hash that text.
// Plain `hash` ignores names: it uses only the order and the weights.
package nginx

import (
	"fmt"
	"hash/crc32"

	"github.com/ringreport/ringreport/internal/profile"
)

// Options are the nginx settings that change placement.
type Options struct {
	// Consistent selects `hash $key consistent` (true: nginx's CRC32
	// continuum of 160 points per unit of weight) or plain `hash $key`
	// (false: the Cache::Memcached formula, remapping almost every key when
	// the servers change). nginx's default, the directive without the
	// parameter, is false.
	Consistent bool
}

// Effective returns o with every default filled in; nginx has no
// placement setting whose zero value differs from its default, so it is o.
func (o Options) Effective() Options { return o }

// New returns the rule for o.
func New(o Options) (profile.Rule, error) {
	o = o.Effective()
	if o.Consistent {
		return consistentRule{}, nil
	}
	return plainRule{}, nil
}

// PointsPerWeight is the number of continuum points nginx gives a server
// per unit of weight.
const PointsPerWeight = 160

// MaxTries is the number of failed tries after which nginx stops hashing a
// request and falls back to round robin (`hp->tries > 20`).
const MaxTries = 20

// maxPoints bounds the continuum ringreport builds (total weight × 160).
const maxPoints = 1 << 27

// KeyHash returns the key's hash under `hash … consistent`: the CRC-32
// (IEEE, the zlib/Ethernet CRC that nginx's ngx_crc32_long computes) of the
// key's bytes, as nginx takes them from the evaluated key expression.
func KeyHash(key []byte) uint32 { return crc32.ChecksumIEEE(key) }

// PlainPosition returns the key's position under plain `hash`: its length
// in the high 32 bits and its CRC-32 in the low 32. Every rehash try nginx
// makes, CRC-32 of the decimal try number followed by the key, follows from
// these two (see TryHash), so one uint64 carries the whole retry sequence.
// Keys of 4 GiB or more are not supported.
func PlainPosition(key []byte) uint64 {
	return uint64(uint32(len(key)))<<32 | uint64(crc32.ChecksumIEEE(key))
}

// TryHash returns the 15-bit value plain `hash` adds to its running sum at
// try number try (0 for the first): (CRC-32(digits ‖ key) >> 16) & 0x7fff,
// where digits is try in decimal and is omitted for try 0. pos is the key's
// PlainPosition.
func TryHash(pos uint64, try int) uint32 {
	crc := uint32(pos)
	if try > 0 {
		crc = prefixDigits(crc, int(pos>>32), try)
	}
	return crc >> 16 & 0x7fff
}

// SplitServer returns the host and port nginx's consistent hash takes from
// a server's text, exactly as written in the `server` directive: after a
// "unix:" prefix (any case) all of the rest is the host and the port is
// empty; otherwise the text splits at its last ':' when only digits follow
// it (which may be none: "a:" is host "a", port ""); otherwise the whole
// text is the host and the port is empty. A server written without a port
// connects to port 80 but hashes an empty port, not "80".
func SplitServer(name string) (host, port string) {
	if len(name) >= 5 && isUnixPrefix(name[:5]) {
		return name[5:], ""
	}
	for i := len(name) - 1; i >= 0; i-- {
		c := name[i]
		if c == ':' {
			return name[:i], name[i+1:]
		}
		if c < '0' || c > '9' {
			break
		}
	}
	return name, ""
}

// isUnixPrefix reports whether p is "unix:" in any letter case.
func isUnixPrefix(p string) bool {
	const want = "unix:"
	for i := 0; i < len(want); i++ {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != want[i] {
			return false
		}
	}
	return true
}

// ServerPoints appends to dst, and returns, the continuum points of one
// server in the order nginx makes them: 160·weight values, each
// CRC-32(host ‖ 0x00 ‖ port ‖ LE32(previous point)), the first taking 0
// as the previous point. Host and port come from SplitServer. Any text is
// accepted, valid nginx address or not; it is hashed as that rule splits it.
func ServerPoints(name string, weight int, dst []uint32) []uint32 {
	host, port := SplitServer(name)
	base := crc32.ChecksumIEEE([]byte(host))
	base = crc32.Update(base, crc32.IEEETable, []byte{0})
	base = crc32.Update(base, crc32.IEEETable, []byte(port))
	var prev [4]byte
	for range weight * PointsPerWeight {
		h := crc32.Update(base, crc32.IEEETable, prev[:])
		dst = append(dst, h)
		prev = [4]byte{byte(h), byte(h >> 8), byte(h >> 16), byte(h >> 24)}
	}
	return dst
}

// consistentRule is `hash $key consistent`.
type consistentRule struct{}

// Hash returns KeyHash(key).
func (consistentRule) Hash(key []byte) uint64 { return uint64(KeyHash(key)) }

// Build returns the continuum over servers.
func (consistentRule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	return NewRing(servers)
}

// plainRule is plain `hash $key`.
type plainRule struct{}

// Hash returns PlainPosition(key).
func (plainRule) Hash(key []byte) uint64 { return PlainPosition(key) }

// Build returns the weight table over servers.
func (plainRule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	return NewPlain(servers)
}

// checkServers rejects what nginx's configuration check rejects: an empty
// upstream and weights below 1. It returns the total weight.
func checkServers(servers []profile.Server) (int, error) {
	if len(servers) == 0 {
		return 0, fmt.Errorf("nginx: no servers in upstream; give at least one")
	}
	total := 0
	for _, s := range servers {
		if s.Weight < 1 {
			return 0, fmt.Errorf("nginx: server %q has weight %d; nginx's weight is an integer ≥ 1", s.Name, s.Weight)
		}
		if s.Weight > maxPoints/PointsPerWeight-total {
			return 0, fmt.Errorf("nginx: weights sum past %d; ringreport builds at most %d points (total weight × 160)",
				maxPoints/PointsPerWeight, maxPoints)
		}
		total += s.Weight
	}
	return total, nil
}
