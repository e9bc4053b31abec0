package redis

// Slots is the number of Redis Cluster hash slots (CLUSTER_SLOTS in
// src/cluster.h, CLUSTER_MANAGER_SLOTS in src/redis-cli.c).
const Slots = 16384

// crcTable is the byte-at-a-time table of CRC-16/XMODEM (polynomial
// 0x1021, MSB first), computed from the polynomial.
var crcTable = func() (t [256]uint16) {
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

// CRC16 is CRC-16/XMODEM as Redis' src/crc16.c computes it: polynomial
// 0x1021, initial value 0, no reflection, no final xor.
func CRC16(b []byte) uint16 {
	var c uint16
	for _, x := range b {
		c = c<<8 ^ crcTable[byte(c>>8)^x]
	}
	return c
}

// HashTag returns the bytes of key that Redis hashes (keyHashSlot): the
// bytes between the first '{' and the first '}' after it when that span is
// not empty, otherwise the whole key. The result aliases key.
func HashTag(key []byte) []byte {
	for s, c := range key {
		if c != '{' {
			continue
		}
		for e := s + 1; e < len(key); e++ {
			if key[e] == '}' {
				if e == s+1 {
					return key
				}
				return key[s+1 : e]
			}
		}
		return key
	}
	return key
}

// KeySlot is the hash slot of key, 0..16383, as CLUSTER KEYSLOT answers:
// CRC16 of the key's hash tag, low 14 bits.
func KeySlot(key []byte) int {
	return int(CRC16(HashTag(key)) & (Slots - 1))
}
