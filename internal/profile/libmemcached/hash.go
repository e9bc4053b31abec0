package libmemcached

import (
	"crypto/md5"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
)

// A KeyHash is one of libhashkit's 32-bit hash functions, as
// memcached_behavior_set(MEMCACHED_BEHAVIOR_HASH) installs it: it hashes
// keys in every mode, and the continuum's points in the unweighted ketama
// mode.
type KeyHash func(key []byte) uint32

// Hash names, as the scenario file spells them, in libhashkit's enum order
// (hashkit_hash_algorithm_t). hsieh is left out: Debian's libhashkit 1.1.4
// is built without HAVE_HSIEH_HASH, so MEMCACHED_BEHAVIOR_HASH refuses it.
var hashNames = []string{
	"one-at-a-time", "md5", "crc", "fnv1-64", "fnv1a-64", "fnv1-32", "fnv1a-32",
	"murmur", "jenkins", "murmur3",
}

var hashFuncs = map[string]KeyHash{
	"one-at-a-time": OneAtATime,
	"md5":           MD5,
	"crc":           CRC,
	"fnv1-64":       FNV1_64,
	"fnv1a-64":      FNV1a64,
	"fnv1-32":       FNV1_32,
	"fnv1a-32":      FNV1a32,
	"murmur":        Murmur,
	"jenkins":       Jenkins,
	"murmur3":       Murmur3,
}

// HashNames lists the key hashes a scenario may name, in libhashkit's
// enum order.
func HashNames() []string { return append([]string(nil), hashNames...) }

// HashByName returns the libhashkit function a scenario names ("md5",
// "one-at-a-time", …), or false.
func HashByName(name string) (KeyHash, bool) {
	f, ok := hashFuncs[name]
	return f, ok
}

// schar is a key byte as libhashkit reads it through a plain char pointer:
// signed on x86-64, so bytes ≥ 0x80 sign-extend to 0xffffff80…0xffffffff.
func schar(b byte) uint32 { return uint32(int32(int8(b))) }

// OneAtATime is hashkit_one_at_a_time, libhashkit's default: Jenkins'
// one-at-a-time over the key's bytes read as signed chars (x86-64).
func OneAtATime(key []byte) uint32 {
	var v uint32
	for _, b := range key {
		v += schar(b)
		v += v << 10
		v ^= v >> 6
	}
	v += v << 3
	v ^= v >> 11
	v += v << 15
	return v
}

// MD5 is hashkit_md5: the first 4 bytes of MD5(key), little-endian (the
// same as libketama's ketama_hashi).
func MD5(key []byte) uint32 {
	d := md5.Sum(key)
	return binary.LittleEndian.Uint32(d[:4])
}

// CRC is hashkit_crc32: bits 16..30 of the IEEE CRC-32, a value in
// [0, 32767].
func CRC(key []byte) uint32 {
	return (crc32.ChecksumIEEE(key) >> 16) & 0x7fff
}

// FNV1_64 is hashkit_fnv1_64: 64-bit FNV-1 over sign-extended bytes, its low
// 32 bits.
func FNV1_64(key []byte) uint32 {
	h := uint64(0xcbf29ce484222325)
	for _, b := range key {
		h *= 0x100000001b3
		h ^= uint64(int64(int8(b)))
	}
	return uint32(h)
}

// FNV1a64 is hashkit_fnv1a_64, which despite its name runs in 32 bits: the
// low words of the 64-bit FNV offset basis (0x84222325) and prime (0x1b3),
// FNV-1a order, over sign-extended bytes.
func FNV1a64(key []byte) uint32 {
	h := uint32(0x84222325)
	for _, b := range key {
		h ^= schar(b)
		h *= 0x1b3
	}
	return h
}

// FNV1_32 is hashkit_fnv1_32: 32-bit FNV-1 over sign-extended bytes.
func FNV1_32(key []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range key {
		h *= 16777619
		h ^= schar(b)
	}
	return h
}

// FNV1a32 is hashkit_fnv1a_32: 32-bit FNV-1a over sign-extended bytes.
func FNV1a32(key []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range key {
		h ^= schar(b)
		h *= 16777619
	}
	return h
}

// Murmur is hashkit_murmur: MurmurHash2 (m = 0x5bd1e995, r = 24) with seed
// 0xdeadbeef·len, little-endian words.
func Murmur(key []byte) uint32 {
	const m = 0x5bd1e995
	n := uint32(len(key))
	h := (0xdeadbeef * n) ^ n
	for len(key) >= 4 {
		k := binary.LittleEndian.Uint32(key)
		k *= m
		k ^= k >> 24
		k *= m
		h *= m
		h ^= k
		key = key[4:]
	}
	if len(key) > 0 {
		h ^= tail32(key)
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}

// tail32 is the last 1 to 3 bytes of a key as a little-endian word.
func tail32(b []byte) uint32 {
	var k uint32
	for i, c := range b {
		k |= uint32(c) << (8 * i)
	}
	return k
}

// Murmur3 is hashkit_murmur3: MurmurHash3 x86_32 with seed 0xdeadbeef·len.
func Murmur3(key []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	n := len(key)
	h := 0xdeadbeef * uint32(n)
	for len(key) >= 4 {
		k := binary.LittleEndian.Uint32(key)
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
		key = key[4:]
	}
	k := tail32(key)
	k *= c1
	k = bits.RotateLeft32(k, 15)
	k *= c2
	h ^= k
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// Jenkins is hashkit_jenkins: Bob Jenkins' lookup3 hashlittle with initval
// 13, little-endian (its aligned and unaligned paths agree there).
func Jenkins(key []byte) uint32 {
	a := 0xdeadbeef + uint32(len(key)) + 13
	b, c := a, a
	if len(key) == 0 {
		return c
	}
	for len(key) > 12 {
		a += binary.LittleEndian.Uint32(key)
		b += binary.LittleEndian.Uint32(key[4:])
		c += binary.LittleEndian.Uint32(key[8:])
		a, b, c = jenkinsMix(a, b, c)
		key = key[12:]
	}
	var last [12]byte
	copy(last[:], key)
	a += binary.LittleEndian.Uint32(last[:])
	b += binary.LittleEndian.Uint32(last[4:])
	c += binary.LittleEndian.Uint32(last[8:])
	return jenkinsFinal(a, b, c)
}

// jenkinsMix is lookup3's mix().
func jenkinsMix(a, b, c uint32) (uint32, uint32, uint32) {
	rot := bits.RotateLeft32
	a -= c
	a ^= rot(c, 4)
	c += b
	b -= a
	b ^= rot(a, 6)
	a += c
	c -= b
	c ^= rot(b, 8)
	b += a
	a -= c
	a ^= rot(c, 16)
	c += b
	b -= a
	b ^= rot(a, 19)
	a += c
	c -= b
	c ^= rot(b, 4)
	b += a
	return a, b, c
}

// jenkinsFinal is lookup3's final(), returning c.
func jenkinsFinal(a, b, c uint32) uint32 {
	rot := bits.RotateLeft32
	c ^= b
	c -= rot(b, 14)
	a ^= c
	a -= rot(c, 11)
	b ^= a
	b -= rot(a, 25)
	c ^= b
	c -= rot(b, 16)
	a ^= c
	a -= rot(c, 4)
	b ^= a
	b -= rot(a, 14)
	c ^= b
	c -= rot(b, 24)
	return c
}
