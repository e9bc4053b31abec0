package cassandra

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// MurmurHash3 x64_128 constants (Appleby's reference; the same in
// Cassandra's utils/MurmurHash.hash3_x64_128).
const (
	c1 = 0x87c37b91114253d5
	c2 = 0x4cf5ad432745937f
)

// Token returns the Murmur3Partitioner token of a serialized partition key:
// the first 64-bit half (h1) of MurmurHash3 x64_128 with seed 0, read as a
// signed Java long. Two Cassandra details differ from the reference hash:
// the tail bytes (the last len%16) are read as signed Java bytes and so
// sign-extended before they are shifted in, and the token is normalised —
// the empty key is Long.MIN_VALUE (Murmur3Partitioner.MINIMUM) and a hash
// of Long.MIN_VALUE becomes Long.MAX_VALUE, so that no key but the empty one
// sits on the minimum token.
//
// For a CQL text partition key the serialized key is its UTF-8 bytes.
func Token(key []byte) int64 {
	if len(key) == 0 {
		return math.MinInt64
	}
	return normalize(int64(hash1(key)))
}

// hash1 is h1 of Cassandra's MurmurHash3 x64_128 (seed 0) over key.
func hash1(key []byte) uint64 {
	var h1, h2 uint64
	n := len(key)
	body := n &^ 15
	for i := 0; i < body; i += 16 {
		k1 := binary.LittleEndian.Uint64(key[i:])
		k2 := binary.LittleEndian.Uint64(key[i+8:])
		h1 ^= mixK1(k1)
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= mixK2(k2)
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := key[body:]
	var k1, k2 uint64
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= signExtend(tail[i]) << (8 * uint(i-8))
	}
	if len(tail) > 8 {
		h2 ^= mixK2(k2)
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= signExtend(tail[i]) << (8 * uint(i))
	}
	if len(tail) > 0 {
		h1 ^= mixK1(k1)
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	return h1 + h2
}

// signExtend widens a byte the way Java's (long) cast of a byte does.
func signExtend(b byte) uint64 { return uint64(int64(int8(b))) }

func mixK1(k uint64) uint64 { return bits.RotateLeft64(k*c1, 31) * c2 }

func mixK2(k uint64) uint64 { return bits.RotateLeft64(k*c2, 33) * c1 }

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
