package kafka

import (
	"hash/crc32"
)

// Murmur2 is Kafka's murmur2: MurmurHash2 (32-bit) with seed 0x9747b28c,
// as in org.apache.kafka.common.utils.Utils.murmur2. The Java method
// returns the same 32 bits as an int; read the result as int32 to compare
// with Java.
func Murmur2(b []byte) uint32 {
	const (
		seed uint32 = 0x9747b28c
		m    uint32 = 0x5bd1e995
		r           = 24
	)
	h := seed ^ uint32(len(b))
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		k := uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	switch len(b) & 3 {
	case 3:
		h ^= uint32(b[n+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(b[n+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(b[n])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return h
}

// FNV1a32 is the 32-bit FNV-1a hash (offset basis 0x811c9dc5, prime
// 0x01000193) that sarama's hash partitioners and librdkafka's fnv1a
// partitioner use.
func FNV1a32(b []byte) uint32 {
	h := uint32(0x811c9dc5)
	for _, c := range b {
		h ^= uint32(c)
		h *= 0x01000193
	}
	return h
}

// CRC32 is the IEEE CRC-32 (zlib's) that librdkafka's consistent
// partitioners and sarama's NewConsistentCRCHashPartitioner use.
func CRC32(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// ToPositive is Kafka's Utils.toPositive: the int with its sign bit
// cleared (not its absolute value).
func ToPositive(v int32) int32 { return v & 0x7fffffff }
