package nginx

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Ring is the placement of `hash $key consistent` over one membership:
// nginx's continuum of CRC-32 points, sorted ascending, one point kept per
// hash value.
type Ring struct {
	pos    []uint32 // point hashes, ascending, distinct
	owner  []int32  // owner[i] is the server index of pos[i]
	down   []bool   // down[s]: server s is configured down
	live   int      // servers not down that own at least one point
	single bool     // one server: nginx skips hashing (round robin of one)
}

// NewRing builds the continuum nginx's ngx_http_upstream_init_chash builds
// for servers: 160·weight points per server (ServerPoints), every server's
// points whether down or not, sorted by hash. Where several points share a
// hash only the first in generation order is kept, so a tie between two
// servers goes to the one listed first: nginx sorts with glibc's qsort,
// which is a stable merge sort for arrays of this size on Debian 12 (glibc
// 2.36), then keeps the first of each run of equal hashes. Two servers
// whose texts split into the same host and port ("unix:/s" and "/s", or
// "a:" and "a") therefore give all their points to the first, and the
// second gets no key by hash (only, in nginx, through the round-robin
// fallback, which ringreport does not model). Servers with
// the same text are refused: nginx would share their points between them
// round robin, which no key-by-key placement can reproduce.
func NewRing(servers []profile.Server) (*Ring, error) {
	total, err := checkServers(servers)
	if err != nil {
		return nil, err
	}
	if err := checkDistinct(servers); err != nil {
		return nil, err
	}
	// Each point as hash<<32 | server index: sorting these numbers sorts by
	// hash, ties in configuration order (ties within one server may go
	// either way: the owner is the same).
	keys := make([]uint64, 0, total*PointsPerWeight)
	var chain []uint32
	for i, s := range servers {
		chain = ServerPoints(s.Name, s.Weight, chain[:0])
		for _, h := range chain {
			keys = append(keys, uint64(h)<<32|uint64(i))
		}
	}
	slices.Sort(keys)
	r := &Ring{down: make([]bool, len(servers)), single: len(servers) == 1}
	for _, k := range keys {
		h := uint32(k >> 32)
		if n := len(r.pos); n > 0 && r.pos[n-1] == h {
			continue
		}
		r.pos = append(r.pos, h)
		r.owner = append(r.owner, int32(uint32(k)))
	}
	for i, s := range servers {
		r.down[i] = s.Down
	}
	owns := make([]bool, len(servers))
	for _, s := range r.owner {
		if !owns[s] && !r.down[s] {
			owns[s] = true
			r.live++
		}
	}
	return r, nil
}

// checkDistinct refuses two servers with the same text.
func checkDistinct(servers []profile.Server) error {
	seen := make(map[string]int, len(servers))
	for i, s := range servers {
		if j, ok := seen[s.Name]; ok {
			return fmt.Errorf("nginx: servers %d and %d are both %q; under `consistent` nginx balances "+
				"one text's points round robin between its servers, so give each server its own name", j+1, i+1, s.Name)
		}
		seen[s.Name] = i
	}
	return nil
}

// start returns the index of the first point ≥ h, len(pos) when h is above
// the last point (nginx takes the index modulo the number of points).
func (r *Ring) start(h uint32) int {
	lo, hi := 0, len(r.pos)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.pos[m] < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// Owners appends the first r distinct servers that are not down met
// walking the points from the first point ≥ h (wrapping), which is the
// order nginx tries servers for the key when each earlier one fails. h is a
// KeyHash; its bits above 32 are ignored.
func (r *Ring) Owners(h uint64, want int, dst []int) []int {
	if want <= 0 || r.live == 0 {
		return dst
	}
	if want > r.live {
		want = r.live
	}
	base := len(dst)
	n := len(r.pos)
	i := r.start(uint32(h))
	for step := 0; step < n && len(dst)-base < want; step++ {
		if i == n {
			i = 0
		}
		s := int(r.owner[i])
		i++
		if !r.down[s] && !slices.Contains(dst[base:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Fallback reports whether nginx, trying servers for a key of hash h and
// finding each earlier one failed, would stop hashing before it has r
// servers: it moves to the next point on every point whose server is down
// or already tried, and after 20 such moves it falls back to round robin.
// From there Owners' answer is ringreport's continuation of the walk, not
// nginx's (whose round robin depends on earlier requests, not on the key).
// It reports false where the round robin could only agree: an upstream of
// one server, and r above the number of live servers once all are found.
func (r *Ring) Fallback(h uint64, want int) bool {
	if want > r.live {
		want = r.live // nginx's round robin finds no others either
	}
	if want <= 0 || r.single {
		return false
	}
	if want > MaxTries+2 {
		// each pick after the first costs at least one move
		return true
	}
	var tried [MaxTries + 2]int
	got, moves := 0, 0
	n := len(r.pos)
	i := r.start(uint32(h)) % n
	for {
		s := int(r.owner[i])
		if !r.down[s] && !slices.Contains(tried[:got], s) {
			tried[got] = s
			if got++; got == want {
				return false
			}
			continue
		}
		if moves++; moves > MaxTries {
			return true
		}
		if i++; i == n {
			i = 0
		}
	}
}

// Points returns the continuum: every kept point and its server, ascending.
func (r *Ring) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(r.pos))
	for i, h := range r.pos {
		pts[i] = profile.Point{Pos: uint64(h), Server: int(r.owner[i])}
	}
	return pts, 32
}

// Len returns the number of points kept after removing duplicate hashes.
func (r *Ring) Len() int { return len(r.pos) }
