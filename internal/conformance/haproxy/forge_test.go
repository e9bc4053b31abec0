package haproxy_test

import (
	"fmt"
	"hash/crc32"

	"github.com/ringreport/ringreport/internal/profile"
)

// forgeCRC returns prefix followed by 4 bytes chosen so that the IEEE
// CRC-32 of the whole is target. CRC-32 is affine over GF(2) in its input
// bits, and 32 appended bits reach every value, so the bytes solve a 32×32
// linear system.
func forgeCRC(prefix string, target uint32) string {
	buf := append([]byte(prefix), 0, 0, 0, 0)
	tail := buf[len(prefix):]
	base := crc32.ChecksumIEEE(buf)
	// rows[k] is the change in the CRC from flipping appended bit k.
	var rows [32]uint32
	for k := range 32 {
		tail[k/8] ^= 1 << (k % 8)
		rows[k] = crc32.ChecksumIEEE(buf) ^ base
		tail[k/8] ^= 1 << (k % 8)
	}
	// Gaussian elimination: combo[k] records which input bits make row k.
	var combo [32]uint32
	for k := range 32 {
		combo[k] = 1 << k
	}
	for col := range 32 {
		bit := uint32(1) << col
		p := -1
		for r := col; r < 32; r++ {
			if rows[r]&bit != 0 {
				p = r
				break
			}
		}
		if p < 0 {
			panic("crc32: appended bits do not span the output")
		}
		rows[col], rows[p] = rows[p], rows[col]
		combo[col], combo[p] = combo[p], combo[col]
		for r := range 32 {
			if r != col && rows[r]&bit != 0 {
				rows[r] ^= rows[col]
				combo[r] ^= combo[col]
			}
		}
	}
	// Now rows[col] is the single bit col, reached by flipping combo[col].
	want := target ^ base
	var flip uint32
	for col := range 32 {
		if want&(1<<col) != 0 {
			flip ^= combo[col]
		}
	}
	for k := range 32 {
		if flip&(1<<k) != 0 {
			tail[k/8] ^= 1 << (k % 8)
		}
	}
	return string(buf)
}

// tieKeys returns header-safe keys whose CRC-32 falls exactly midway
// between two neighbouring nodes of different servers (HAProxy must pick
// the node before) and one above midway (it must pick the node after),
// and keys that hit a node exactly, for "hash-type consistent crc32".
func tieKeys(pts []profile.Point, n int) []string {
	var keys []string
	try := 0
	forge := func(target uint32) {
		for {
			try++
			k := forgeCRC(fmt.Sprintf("tie-%d-", try), target)
			if crc32.ChecksumIEEE([]byte(k)) != target {
				panic(fmt.Sprintf("forgeCRC(%q) missed %#x", k, target))
			}
			if headerSkip(k) == "" {
				keys = append(keys, k)
				return
			}
		}
	}
	for i := 0; i < len(pts) && len(keys) < 3*n; i++ {
		a, b := pts[i], pts[(i+1)%len(pts)]
		lo, hi := uint32(a.Pos), uint32(b.Pos)
		gap := hi - lo // wraps for the last pair
		if a.Server == b.Server || gap%2 != 0 || gap < 4 {
			continue
		}
		mid := lo + gap/2
		forge(mid)
		forge(mid + 1)
		forge(hi)
	}
	return keys
}
