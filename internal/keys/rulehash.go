package keys

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"sync"

	"github.com/cespare/xxhash/v2"
)

// HashNames lists the values RuleSpec.Hash accepts, the default first:
//
//   - "fnv1a-fmix": Hash32, 32-bit FNV-1a then murmur3's fmix32;
//   - "xxhash64": XXH64 with seed 0 (xxhash.Sum64); 32-bit rules use its
//     low 32 bits, jump and rendezvous the full 64;
//   - "crc32": CRC-32/IEEE (hash/crc32.ChecksumIEEE);
//   - "md5": the first 4 bytes of MD5, little-endian (libketama's
//     ketama_hashi).
//
// ketama and slots fix their own hash (MD5 and CRC16) and take none.
var HashNames = []string{"fnv1a-fmix", "xxhash64", "crc32", "md5"}

// hashKind is a parsed RuleSpec.Hash.
type hashKind uint8

const (
	HashFNV hashKind = iota
	HashXX
	HashCRC32
	HashMD5
)

// ParseHash returns the hash a rule names; "" is the default.
func ParseHash(kind, name string) (hashKind, error) {
	if name == "" {
		return HashFNV, nil
	}
	for i, n := range HashNames {
		if n == name {
			return hashKind(i), nil
		}
	}
	return 0, fmt.Errorf("rule %s: unknown hash %q (want one of %v)", kind, name, HashNames)
}

// Sum32 is the 32-bit form of the hash: a key's position on the circle.
func (h hashKind) Sum32(b []byte) uint32 {
	switch h {
	case HashXX:
		return uint32(xxhash.Sum64(b))
	case HashCRC32:
		return crc32.ChecksumIEEE(b)
	case HashMD5:
		d := md5.Sum(b)
		return binary.LittleEndian.Uint32(d[:4])
	}
	return hash32Bytes(b)
}

// Sum64 is the 64-bit form: xxhash64 in full, the others zero-extended.
func (h hashKind) Sum64(b []byte) uint64 {
	if h == HashXX {
		return xxhash.Sum64(b)
	}
	return uint64(h.Sum32(b))
}

// KeyCache holds one rule's per-key hashes, computed once on first use
// from KeySet.AppendName, and the rule's position order of the keys. The
// slices it returns are read-only. Its methods are safe for concurrent
// use, as a shared cache (KeySet.ShareCaches) needs.
type KeyCache struct {
	mu     sync.Mutex // guards the fields computed on first use
	keys   *KeySet
	Hash   hashKind
	h32    []uint32
	h64    []uint64
	perm   []uint32 // rule order → canonical index, nil when canonical
	rank   []uint32 // canonical index → rule order, nil when canonical
	sorted []uint32 // positions in rule order
	done   bool     // perm, rank and sorted are set
}

// NewKeyCache returns a cache of keys under hash h: a new one, or the
// one every cache of h shares when keys shares its caches.
func NewKeyCache(keys *KeySet, h hashKind) *KeyCache {
	if keys.shared != nil {
		return keys.shared.of(keys, h)
	}
	return &KeyCache{keys: keys, Hash: h}
}

// sharedCaches holds one KeyCache per hash for a key set whose caches are
// shared.
type sharedCaches struct {
	mu sync.Mutex
	by map[hashKind]*KeyCache
}

func (s *sharedCaches) of(keys *KeySet, h hashKind) *KeyCache {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by[h] == nil {
		s.by[h] = &KeyCache{keys: keys, Hash: h}
	}
	return s.by[h]
}

// ShareCaches makes every KeyCache of k, from now on, one per hash:
// the keys are hashed and sorted under a hash once, however many rules
// and replays use them (a sweep's values under one seed), at the price
// of keeping those arrays as long as k lives. Call it before any cache
// is made.
func (k *KeySet) ShareCaches() { k.shared = &sharedCaches{by: map[hashKind]*KeyCache{}} }

// Sharing returns k when its caches are shared, else a copy of k whose
// caches are, leaving k's own unshared: the placers made with the copy
// hash and sort the keys once per hash. A rule's replay gives it to the
// placers that recompute earlier placements (sim), which then cost
// their placement alone, not another pass of the rule's hash over every
// key (MD5 under ketama: 120 ns a key). The caches live as long as the
// copy.
func (k *KeySet) Sharing() *KeySet {
	if k.shared != nil {
		return k
	}
	c := *k
	c.ShareCaches()
	return &c
}

// Pos32 returns every key's 32-bit hash by canonical index.
func (c *KeyCache) Pos32() []uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pos32()
}

func (c *KeyCache) pos32() []uint32 {
	if c.Hash == HashFNV {
		return c.keys.Pos
	}
	if c.h32 == nil {
		if c.Hash == HashXX {
			c.h32 = make([]uint32, c.keys.Len())
			for i, h := range c.pos64() {
				c.h32[i] = uint32(h)
			}
			return c.h32
		}
		c.h32 = c.Each32(c.Hash.Sum32)
	}
	return c.h32
}

// pos64 returns every key's 64-bit hash by canonical index: the xxhash64
// hashes, or nil for a 32-bit hash, whose 64-bit form is pos32
// zero-extended (see sum64) and is not stored, to save 8 bytes per key.
func (c *KeyCache) pos64() []uint64 {
	if c.Hash != HashXX {
		return nil
	}
	if c.h64 == nil {
		c.h64 = make([]uint64, c.keys.Len())
		var buf []byte
		for i := range c.h64 {
			buf = c.keys.AppendName(buf[:0], i)
			c.h64[i] = xxhash.Sum64(buf)
		}
	}
	return c.h64
}

// Keys64 is the 64-bit hashes of every key, stored or derived: key i's
// is h64[i] when h64 is not nil, else uint64(h32[i]).
type Keys64 struct {
	h64 []uint64
	h32 []uint32
}

func (c *KeyCache) Keys64() Keys64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h := c.pos64(); h != nil {
		return Keys64{h64: h}
	}
	return Keys64{h32: c.pos32()}
}

// At returns key i's 64-bit hash.
func (k Keys64) At(i int) uint64 {
	if k.h64 != nil {
		return k.h64[i]
	}
	return uint64(k.h32[i])
}

// Fill writes the 64-bit hashes of keys lo to lo+len(dst)−1 into dst and
// returns dst: one loop of plain loads, which a loop over many keys runs
// ahead of its hashing rather than asking At, and its branch, per key.
func (k Keys64) Fill(dst []uint64, lo int) []uint64 {
	if k.h64 != nil {
		copy(dst, k.h64[lo:lo+len(dst)])
		return dst
	}
	for i, h := range k.h32[lo : lo+len(dst)] {
		dst[i] = uint64(h)
	}
	return dst
}

// Each32 applies f to every key's bytes, by canonical index.
func (c *KeyCache) Each32(f func([]byte) uint32) []uint32 {
	out := make([]uint32, c.keys.Len())
	var buf []byte
	for i := range out {
		buf = c.keys.AppendName(buf[:0], i)
		out[i] = f(buf)
	}
	return out
}

// Order returns the permutation that lists keys by ascending 32-bit
// position under the rule's hash (ties by canonical index) and its
// inverse; both are nil when that is the canonical order.
func (c *KeyCache) Order() (perm, rank []uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order()
	return c.perm, c.rank
}

func (c *KeyCache) order() {
	if !c.done {
		c.sorted = c.keys.Pos
		if c.Hash != HashFNV {
			c.sorted, c.perm, c.rank = RankBy(c.pos32())
		}
		c.done = true
	}
}

// SortedPos returns the key positions in ascending order: the t-th is the
// position of canonical key canonicalAt(perm, t).
func (c *KeyCache) SortedPos() []uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.order()
	return c.sorted
}

// RankBy sorts canonical indices by vals (stable) and returns the sorted
// values, the sorted indices and each index's rank.
func RankBy(vals []uint32) (sorted, perm, rank []uint32) {
	sorted, perm = sortByPosition(vals)
	rank = make([]uint32, len(perm))
	for t, i := range perm {
		rank[i] = uint32(t)
	}
	return sorted, perm, rank
}

// CanonicalAt returns the canonical index of the t-th key in rule order.
func CanonicalAt(perm []uint32, t int) int {
	if perm == nil {
		return t
	}
	return int(perm[t])
}

// ln2Hi + ln2Lo = ln 2, split so that e·ln2Hi is exact (fdlibm e_log.c).
const (
	ln2Hi = 6.93147180369123816490e-01
	ln2Lo = 1.90821492927058770002e-10
)

// DetLog returns ln x for x > 0 using only IEEE-754 operations that Go
// rounds correctly, each product rounded explicitly so that no compiler
// fuses a multiply-add: the same bits on every architecture, unlike
// math.Log, which is assembly on amd64 and Go elsewhere. x = f·2^e with
// f in [√½, √2), and ln f = 2·atanh(s), s = (f−1)/(f+1), by its series
// to s¹⁹ (|s| ≤ 0.172, error below 1e-17).
func DetLog(x float64) float64 {
	f, e := math.Frexp(x)
	if f < math.Sqrt2/2 {
		f *= 2
		e--
	}
	s := (f - 1) / (f + 1)
	s2 := float64(s * s)
	p := 1.0 / 19
	for _, c := range [...]float64{1.0 / 17, 1.0 / 15, 1.0 / 13, 1.0 / 11, 1.0 / 9, 1.0 / 7, 1.0 / 5, 1.0 / 3, 1} {
		p = float64(p*s2) + c
	}
	lnf := float64(2 * float64(s*p))
	k := float64(e)
	return float64(k*ln2Hi) + (lnf + float64(k*ln2Lo))
}

// AtLeast sets bit j%8 of mask[j/8] exactly where the top 32 bits of
// Mix64(key(lo+j) ^ seed) are at least hi[j], for every j < len(hi), and
// clears the others: which keys a new seed (a joining rendezvous node)
// may take from the owners whose hashes' top bits are hi. mask must hold
// ⌈len(hi)/8⌉ bytes. With AVX-512 it takes eight keys an instruction.
func (k Keys64) AtLeast(mask []uint8, lo int, seed uint64, hi []uint32) {
	mask = mask[:(len(hi)+7)/8]
	n := 0
	if hasVector512 {
		n = len(hi) &^ (mixMaxBlock - 1)
		if n > 0 && k.h64 != nil {
			mixAtLeast64Vector(&mask[0], &k.h64[lo], &hi[0], n, seed)
		} else if n > 0 {
			mixAtLeast32Vector(&mask[0], &k.h32[lo], &hi[0], n, seed)
		}
	}
	clear(mask[n/8:])
	for j := n; j < len(hi); j++ {
		if uint32(Mix64(k.At(lo+j)^seed)>>32) >= hi[j] {
			mask[j/8] |= 1 << (j % 8)
		}
	}
}
