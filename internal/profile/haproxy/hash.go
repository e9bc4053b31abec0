package haproxy

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// FullHash is HAProxy's full_hash: Bob Jenkins' 32-bit integer avalanche
// followed by a multiplication by 3221225473 (a prime close to 3/4 of the
// 32-bit space), all in uint32 arithmetic. HAProxy applies it to a request
// hash when avalanche is on, and to every node input when it builds the
// consistent-hash tree. Every step is invertible, so FullHash is a
// bijection of the 32-bit space: distinct inputs give distinct node keys.
func FullHash(a uint32) uint32 {
	a = (a + 0x7ed55d16) + (a << 12)
	a = (a ^ 0xc761c23c) ^ (a >> 19)
	a = (a + 0x165667b1) + (a << 5)
	a = (a + 0xd3a2646c) ^ (a << 9)
	a = (a + 0xfd7046c5) + (a << 3)
	a = (a ^ 0xb55a4f09) ^ (a >> 16)
	return a * 3221225473
}

// SDBM is HAProxy's hash_sdbm, its default request hash: for each byte c
// (unsigned), h = c + (h << 6) + (h << 16) − h, from h = 0.
func SDBM(b []byte) uint32 {
	var h uint32
	for _, c := range b {
		h = uint32(c) + (h << 6) + (h << 16) - h
	}
	return h
}

// DJB2 is HAProxy's hash_djb2: h = h·33 + c from h = 5381.
func DJB2(b []byte) uint32 {
	h := uint32(5381)
	for _, c := range b {
		h = (h << 5) + h + uint32(c)
	}
	return h
}

// WT6 is HAProxy's hash_wt6 (Willy Tarreau's hash with data-dependent
// rotations): two 32-bit lanes seeded 0xa53c965a and 0x5ca6953a whose
// rotation counts, initially 6 and 18, are drawn from the lanes after each
// byte; the result is the xor of the lanes.
func WT6(b []byte) uint32 {
	h0, h1 := uint32(0xa53c965a), uint32(0x5ca6953a)
	step0, step1 := 6, 18
	for _, c := range b {
		t := uint32(c)
		h0 = ^(h0 ^ t)
		h1 = ^(h1 + t)
		h0, h1 = bits.RotateLeft32(h1, step0), bits.RotateLeft32(h0, step1)
		t = ((h0 >> 16) ^ h1) & 0xffff
		step0 = int(t & 0x1f)
		step1 = int(t >> 11)
	}
	return h0 ^ h1
}

// CRC32 is HAProxy's hash_crc32: the IEEE (zlib) CRC-32.
func CRC32(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// xxh32 primes, from the xxHash specification.
const (
	xxP1 uint32 = 2654435761
	xxP2 uint32 = 2246822519
	xxP3 uint32 = 3266489917
	xxP4 uint32 = 668265263
	xxP5 uint32 = 374761393
)

// XXH32 is the 32-bit xxHash of b with a seed, as HAProxy 3.x uses it for
// the node keys of IPv6 servers under hash-key addr and addr-port.
func XXH32(b []byte, seed uint32) uint32 {
	n := len(b)
	var h uint32
	if n >= 16 {
		v1, v2, v3, v4 := seed+xxP1+xxP2, seed+xxP2, seed, seed-xxP1
		for len(b) >= 16 {
			v1 = xxRound(v1, binary.LittleEndian.Uint32(b[0:]))
			v2 = xxRound(v2, binary.LittleEndian.Uint32(b[4:]))
			v3 = xxRound(v3, binary.LittleEndian.Uint32(b[8:]))
			v4 = xxRound(v4, binary.LittleEndian.Uint32(b[12:]))
			b = b[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) +
			bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = seed + xxP5
	}
	h += uint32(n)
	for len(b) >= 4 {
		h += binary.LittleEndian.Uint32(b) * xxP3
		h = bits.RotateLeft32(h, 17) * xxP4
		b = b[4:]
	}
	for _, c := range b {
		h += uint32(c) * xxP5
		h = bits.RotateLeft32(h, 11) * xxP1
	}
	h ^= h >> 15
	h *= xxP2
	h ^= h >> 13
	h *= xxP3
	h ^= h >> 16
	return h
}

// xxRound is one lane step of XXH32.
func xxRound(acc, in uint32) uint32 {
	acc += in * xxP2
	return bits.RotateLeft32(acc, 13) * xxP1
}
