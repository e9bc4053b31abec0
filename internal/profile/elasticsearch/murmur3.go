package elasticsearch

import (
	"math/bits"
	"unicode/utf8"
)

// Murmur3 is MurmurHash3 x86_32 with seed 0 over b, as Lucene's
// StringHelper.murmurhash3_x86_32(bytes, 0, len, 0).
func Murmur3(b []byte) uint32 {
	var m murmur3
	for len(b) >= 4 {
		m.block(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
		b = b[4:]
	}
	var tail uint32
	for i := len(b) - 1; i >= 0; i-- {
		tail = tail<<8 | uint32(b[i])
	}
	return m.finish(tail, len(b))
}

// RoutingHash is Elasticsearch's Murmur3HashFunction.hash(String): the key,
// read as UTF-8, is hashed as the little-endian bytes of its UTF-16 code
// units, the way Java sees the String's chars. Read the result as int32 to
// compare with Java. Keys that are not valid UTF-8 cannot reach
// Elasticsearch (its routing and ids travel in JSON); here each malformed
// byte becomes one U+FFFD, as Go decodes it, where Java's decoder would
// replace a maximal malformed subpart with one U+FFFD.
func RoutingHash(key []byte) uint32 {
	var m murmur3
	var pend uint32 // one code unit waiting for its pair
	odd := false
	push := func(u uint32) {
		if odd {
			m.block(pend | u<<16)
		} else {
			pend = u
		}
		odd = !odd
	}
	for len(key) > 0 {
		r, size := utf8.DecodeRune(key)
		key = key[size:]
		if r >= 0x10000 {
			r -= 0x10000
			push(0xd800 + uint32(r>>10))
			push(0xdc00 + uint32(r&0x3ff))
		} else {
			push(uint32(r))
		}
	}
	if odd {
		return m.finish(pend, 2)
	}
	return m.finish(0, 0)
}

// murmur3 is the running state of MurmurHash3 x86_32, seed 0.
type murmur3 struct {
	h, n uint32 // hash and bytes consumed
}

const (
	c1 = 0xcc9e2d51
	c2 = 0x1b873593
)

func (m *murmur3) block(k uint32) {
	k *= c1
	k = bits.RotateLeft32(k, 15)
	k *= c2
	m.h ^= k
	m.h = bits.RotateLeft32(m.h, 13)
	m.h = m.h*5 + 0xe6546b64
	m.n += 4
}

// finish mixes in a tail of tailLen (0–3) bytes, little-endian in tail,
// and the length, and returns the finalised hash.
func (m *murmur3) finish(tail uint32, tailLen int) uint32 {
	h := m.h
	if tailLen > 0 {
		k := tail * c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= m.n + uint32(tailLen)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
