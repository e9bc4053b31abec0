package envoy

import (
	"encoding/binary"

	"github.com/cespare/xxhash/v2"
)

// MurmurSeed is the seed Envoy passes to its murmur_hash_2 when it hashes
// ring points (MurmurHash::STD_HASH_SEED in source/common/common/hash.h), the
// same seed libstdc++'s std::hash<std::string> uses.
const MurmurSeed = 0xc70f6907

// murmurMul is the multiplier of the 64-bit MurmurHash2 variant libstdc++
// ships as std::_Hash_bytes.
const murmurMul = 0xc6a4a7935bd1e995

// KeyHash returns a key's position as Envoy computes it from a request:
// xxHash64 with seed 0 of the bytes a hash policy selects (a header value,
// a cookie, a query parameter or the source address string). It is what
// both rules' Hash returns. (A header with several values hashes each in
// turn, seeding the next with the previous hash; a key here is one value.)
func KeyHash(key []byte) uint64 { return xxhash.Sum64(key) }

// XXH64 returns xxHash64 of b with the given seed. Envoy hashes ring points
// and maglev offsets with seed 0 and maglev skips with seed 1.
func XXH64(b []byte, seed uint64) uint64 {
	if seed == 0 {
		return xxhash.Sum64(b)
	}
	var d xxhash.Digest
	d.ResetWithSeed(seed)
	_, _ = d.Write(b)
	return d.Sum64()
}

// MurmurHash2 returns the 64-bit MurmurHash2 of b as libstdc++ computes it in
// std::_Hash_bytes(b, len(b), seed) on a 64-bit little-endian target, which
// is what Envoy's hash_function MURMUR_HASH_2 computes (with MurmurSeed):
// whole 8-byte blocks are read little-endian and mixed, the 1–7 byte tail is
// read little-endian into one word, and the result is mixed twice more.
func MurmurHash2(b []byte, seed uint64) uint64 {
	h := seed ^ (uint64(len(b)) * murmurMul)
	for len(b) >= 8 {
		d := shiftMix(binary.LittleEndian.Uint64(b)*murmurMul) * murmurMul
		h = (h ^ d) * murmurMul
		b = b[8:]
	}
	if len(b) > 0 {
		var tail uint64
		for i := len(b) - 1; i >= 0; i-- {
			tail = tail<<8 | uint64(b[i])
		}
		h = (h ^ tail) * murmurMul
	}
	h = shiftMix(h) * murmurMul
	return shiftMix(h)
}

// shiftMix is libstdc++'s shift_mix step of _Hash_bytes.
func shiftMix(v uint64) uint64 { return v ^ (v >> 47) }
