package keys

// FNV-1a parameters for 32 bits (http://www.isthe.com/chongo/tech/comp/fnv/).
const (
	fnvOffset32 = 2166136261
	fnvPrime32  = 16777619
)

// Hash32 is ringreport's default key and point hash, "fnv1a-fmix": 32-bit
// FNV-1a over the bytes of s, then murmur3's fmix32 finalizer. Plain FNV-1a
// leaves keys that differ only in their last characters (key-1, key-2, …)
// in clumps on the circle; the finalizer's avalanche spreads them.
func Hash32(s string) uint32 { return fnv1aFmix(s) }

// hash32Bytes is Hash32 over a byte slice.
func hash32Bytes(b []byte) uint32 { return fnv1aFmix(b) }

func fnv1aFmix[T string | []byte](b T) uint32 { return Fmix32(fnv1a(fnvOffset32, b)) }

// fnv1a continues 32-bit FNV-1a from state h over the bytes of b, so that
// keys sharing a prefix can start from the prefix's state.
func fnv1a[T string | []byte](h uint32, b T) uint32 {
	for i := 0; i < len(b); i++ {
		h ^= uint32(b[i])
		h *= fnvPrime32
	}
	return h
}

// Fmix32 is the final avalanche step of MurmurHash3 (Austin Appleby,
// public domain): every input bit affects every output bit.
func Fmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// Mix64 is the SplitMix64 finalizer (Steele, Lea, Flood 2014), used to
// fingerprint assignments; it is a bijection on uint64.
func Mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// NameHash64 is a 64-bit hash of a node name: FNV-1a 64 then mix64.
func NameHash64(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return Mix64(h)
}
