package ceph

// The hashes below are Bob Jenkins' 96-bit mix as Ceph applies it: once to
// object names (ceph_str_hash_rjenkins in src/common/ceph_hash.cc) and to
// small tuples of integers inside CRUSH (crush_hash32_rjenkins1_* in
// src/crush/hash.c). Both keep the mix's state in uint32 and wrap on
// overflow, which Go's uint32 arithmetic does too.

// hashSeed is CRUSH's crush_hash_seed, mixed into every integer hash.
const hashSeed uint32 = 1315423911

// Two constants CRUSH feeds the mix as extra state words.
const (
	hashX uint32 = 231232
	hashY uint32 = 1232
)

// golden is the initial state of the string hash (the golden ratio).
const golden uint32 = 0x9e3779b9

// mix is Jenkins' reversible 96-bit mix of (a, b, c); it returns the mixed
// words, c being the hash output.
func mix(a, b, c uint32) (uint32, uint32, uint32) {
	a -= b
	a -= c
	a ^= c >> 13
	b -= c
	b -= a
	b ^= a << 8
	c -= a
	c -= b
	c ^= b >> 13
	a -= b
	a -= c
	a ^= c >> 12
	b -= c
	b -= a
	b ^= a << 16
	c -= a
	c -= b
	c ^= b >> 5
	a -= b
	a -= c
	a ^= c >> 3
	b -= c
	b -= a
	b ^= a << 10
	c -= a
	c -= b
	c ^= b >> 15
	return a, b, c
}

// Hash32x2 is CRUSH's two-input rjenkins1 hash (crush_hash32_2 with
// CRUSH_HASH_RJENKINS1). Ceph uses it for the is_out test of a partly
// reweighted OSD, hash(x, osd), and for a hashpspool pool's placement
// seed, hash(stable_mod(ps, pgp_num), pool).
func Hash32x2(a, b uint32) uint32 {
	h := hashSeed ^ a ^ b
	a, b, h = mix(a, b, h)
	_, _, h = mix(hashX, a, h)
	_, _, h = mix(b, hashY, h)
	return h
}

// Hash32x3 is CRUSH's three-input rjenkins1 hash (crush_hash32_3 with
// CRUSH_HASH_RJENKINS1). A straw2 bucket draws each item's straw from
// hash(x, item id, r). As in Hash32x2, each mix rewrites the words it is
// given and the later mixes read the rewritten ones.
func Hash32x3(a, b, c uint32) uint32 {
	h := hashSeed ^ a ^ b ^ c
	x, y := hashX, hashY
	a, b, h = mix(a, b, h)
	c, x, h = mix(c, x, h)
	y, _, h = mix(y, a, h)
	_, _, h = mix(b, x, h)
	_, _, h = mix(y, c, h)
	return h
}

// StrHash is ceph_str_hash_rjenkins, the object-name hash of every pool
// with object_hash rjenkins (the only hash a new pool gets): the name's
// placement seed ps, before any reduction to a placement group.
func StrHash(name []byte) uint32 {
	a, b, c := golden, golden, uint32(0)
	k := name
	for len(k) >= 12 {
		a += le32(k[0:4])
		b += le32(k[4:8])
		c += le32(k[8:12])
		a, b, c = mix(a, b, c)
		k = k[12:]
	}
	c += uint32(len(name))
	// The tail: bytes 0–3 go to a, 4–7 to b, 8–10 to c above its lowest
	// byte, which holds the length.
	for i := len(k) - 1; i >= 0; i-- {
		v := uint32(k[i])
		switch {
		case i < 4:
			a += v << (8 * i)
		case i < 8:
			b += v << (8 * (i - 4))
		default:
			c += v << (8 * (i - 7))
		}
	}
	_, _, c = mix(a, b, c)
	return c
}

// le32 reads 4 bytes as a little-endian uint32.
func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// StableMod is ceph_stable_mod (src/include/rados.h): x reduced to [0, b)
// with mask = 2^⌈log2 b⌉ − 1, such that growing b one step at a time
// splits one bucket in two instead of reshuffling all of them.
func StableMod(x, b, mask uint32) uint32 {
	if x&mask < b {
		return x & mask
	}
	return x & (mask >> 1)
}

// PGMask is the mask Ceph pairs with a pg_num or pgp_num of n: the
// smallest 2^k − 1 ≥ n − 1 (pg_pool_t::calc_pg_masks).
func PGMask(n uint32) uint32 {
	m := uint32(0)
	for m < n-1 {
		m = m<<1 | 1
	}
	return m
}
