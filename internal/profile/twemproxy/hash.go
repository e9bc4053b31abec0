package twemproxy

import (
	"hash/crc32"

	"github.com/ringreport/ringreport/internal/profile/libmemcached"
)

// Hash names as nutcracker.yml spells them, in twemproxy's HASH_CODEC order.
var hashNames = []string{
	"one_at_a_time", "md5", "crc16", "crc32", "crc32a", "fnv1_64", "fnv1a_64",
	"fnv1_32", "fnv1a_32", "hsieh", "murmur", "jenkins",
}

// hashFuncs maps each name to its function. twemproxy's one_at_a_time, md5,
// crc32, FNV, murmur and jenkins are libmemcached's libhashkit functions,
// line for line (src/hashkit/*.c; its src/test_all.c checks them against
// libmemcached's vectors), so they are shared; crc16, crc32a and hsieh are
// twemproxy's own here (Debian's libhashkit lacks hsieh).
var hashFuncs = map[string]func([]byte) uint32{
	"one_at_a_time": libmemcached.OneAtATime,
	"md5":           libmemcached.MD5,
	"crc16":         CRC16,
	"crc32":         libmemcached.CRC,
	"crc32a":        CRC32a,
	"fnv1_64":       libmemcached.FNV1_64,
	"fnv1a_64":      libmemcached.FNV1a64,
	"fnv1_32":       libmemcached.FNV1_32,
	"fnv1a_32":      libmemcached.FNV1a32,
	"hsieh":         Hsieh,
	"murmur":        libmemcached.Murmur,
	"jenkins":       libmemcached.Jenkins,
}

// HashNames lists the key hashes a pool may name, in nc_hashkit.h's
// order.
func HashNames() []string {
	return []string{"one_at_a_time", "md5", "crc16", "crc32", "crc32a", "fnv1_64", "fnv1a_64", "fnv1_32", "fnv1a_32", "hsieh", "murmur", "jenkins"}
}

// HashByName returns the twemproxy key hash a pool's `hash` names, or false.
func HashByName(name string) (func([]byte) uint32, bool) {
	f, ok := hashFuncs[name]
	return f, ok
}

// crc16tab is the CRC-16/XMODEM table (polynomial 0x1021) of nc_crc16.c.
var crc16tab = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC16 is hash_crc16: CRC-16/XMODEM kept in a 32-bit register that is
// never masked, so the bits shifted out above bit 15 stay in the result.
func CRC16(key []byte) uint32 {
	var crc uint32
	for _, b := range key {
		crc = crc<<8 ^ uint32(crc16tab[(crc>>8^uint32(b))&0xff])
	}
	return crc
}

// CRC32a is hash_crc32a: the whole IEEE CRC-32.
func CRC32a(key []byte) uint32 { return crc32.ChecksumIEEE(key) }

// get16 is hsieh's get16bits on a little-endian machine other than i386.
func get16(b []byte) uint32 { return uint32(b[1])<<8 | uint32(b[0]) }

// Hsieh is hash_hsieh, Paul Hsieh's SuperFastHash; the one byte it reads
// through a plain char (the third of a 3-byte tail) is sign-extended.
func Hsieh(key []byte) uint32 {
	if len(key) == 0 {
		return 0
	}
	var h uint32
	rem := len(key) & 3
	for ; len(key) >= 4; key = key[4:] {
		h += get16(key)
		tmp := get16(key[2:])<<11 ^ h
		h = h<<16 ^ tmp
		h += h >> 11
	}
	switch rem {
	case 3:
		h += get16(key)
		h ^= h << 16
		h ^= uint32(int32(int8(key[2]))) << 18
		h += h >> 11
	case 2:
		h += get16(key)
		h ^= h << 11
		h += h >> 17
	case 1:
		h += uint32(key[0])
		h ^= h << 10
		h += h >> 1
	}
	h ^= h << 3
	h += h >> 5
	h ^= h << 4
	h += h >> 17
	h ^= h << 25
	h += h >> 6
	return h
}
