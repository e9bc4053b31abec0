package nginx

import (
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Plain is the placement of plain `hash $key` over one membership
// (ngx_http_upstream_get_hash_peer): a running sum of 15-bit CRC-32 values
// taken modulo the total weight, mapped onto the servers by walking them in
// configuration order.
type Plain struct {
	cum    []uint32 // cum[i] = weight of servers 0 … i
	down   []bool
	live   int
	single bool
}

// NewPlain builds the table for servers. The total weight counts every
// server, down or not, as nginx's does.
func NewPlain(servers []profile.Server) (*Plain, error) {
	if _, err := checkServers(servers); err != nil {
		return nil, err
	}
	p := &Plain{
		cum:    make([]uint32, len(servers)),
		down:   make([]bool, len(servers)),
		single: len(servers) == 1,
	}
	var sum uint32
	for i, s := range servers {
		sum += uint32(s.Weight)
		p.cum[i] = sum
		p.down[i] = s.Down
		if !s.Down {
			p.live++
		}
	}
	return p, nil
}

// server returns the server that weight offset w < total falls on.
func (p *Plain) server(w uint32) int {
	lo, hi := 0, len(p.cum)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p.cum[m] <= w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// walk follows nginx's rehash sequence for the key at pos, appending each
// distinct live server it picks to dst until dst has want more entries or
// nginx would give up (more than 20 failed tries). It returns dst and
// whether it gave up. Try t adds TryHash(pos, t) to a running sum; the sum
// modulo the total weight picks a server; a server that is down or already
// picked is a failed try.
func (p *Plain) walk(pos uint64, want int, dst []int) ([]int, bool) {
	base := len(dst)
	crc, keyLen := uint32(pos), int(pos>>32)
	total := p.cum[len(p.cum)-1]
	var sum, op uint32
	fails := 0
	for try := 0; len(dst)-base < want; try++ {
		c := crc
		if try > 0 {
			if op == 0 {
				op = xPow8n(keyLen)
			}
			c = combine(digitsCRC(try), crc, op)
		}
		sum += c >> 16 & 0x7fff
		s := p.server(sum % total)
		if p.down[s] || slices.Contains(dst[base:], s) {
			if fails++; fails > MaxTries {
				return dst, true
			}
			continue
		}
		dst = append(dst, s)
	}
	return dst, false
}

// Owners appends up to r distinct live servers for the key at pos (a
// PlainPosition): the servers nginx picks in turn when each earlier pick
// fails. Where nginx would give up hashing (Fallback), the rest are the
// live servers not yet chosen, in configuration order: ringreport's
// deterministic stand-in for nginx's round robin.
func (p *Plain) Owners(pos uint64, want int, dst []int) []int {
	if want <= 0 || p.live == 0 {
		return dst
	}
	if want > p.live {
		want = p.live
	}
	base := len(dst)
	dst, gaveUp := p.walk(pos, want, dst)
	if !gaveUp {
		return dst
	}
	for s := range p.down {
		if len(dst)-base == want {
			break
		}
		if !p.down[s] && !slices.Contains(dst[base:], s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// Fallback reports whether nginx would stop hashing the key at pos before
// it has r servers (more than 20 failed tries) and fall back to round
// robin, so that Owners' later entries are ringreport's, not nginx's. It
// reports false where the round robin could only agree: an upstream of one
// server, and r above the number of live servers once all are found.
func (p *Plain) Fallback(pos uint64, want int) bool {
	if want > p.live {
		want = p.live // nginx's round robin finds no others either
	}
	if want <= 0 || p.single {
		return false
	}
	var buf [MaxTries + 2]int
	picked := buf[:0]
	if want > len(buf) {
		picked = make([]int, 0, want)
	}
	_, gaveUp := p.walk(pos, want, picked)
	return gaveUp
}
