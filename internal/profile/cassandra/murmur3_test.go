package cassandra

import (
	"encoding/hex"
	"math"
	"strings"
	"testing"
)

// tokenVectors are published Murmur3Partitioner tokens.
var tokenVectors = []struct {
	src, hex string
	token    int64
}{
	// datastax/nodejs-driver test/unit/tokenizer-tests.js (4.x),
	// "Murmur3Tokenizer #hash()": the first eight are copied from
	// Cassandra's own MurmurHash checks, the last two exercise the
	// sign-extended tail.
	{"nodejs-driver", "0102030405060708090a0b0c0d0e0f10", -5563837382979743776},
	{"nodejs-driver", "02030405060708090a0b0c0d0e0f1011", -1513403162740402161},
	{"nodejs-driver", strings.Repeat("ff", 16), -2824192546314762522},
	{"nodejs-driver", "00010203" + strings.Repeat("ff", 12), 6463632673159404390},
	{"nodejs-driver", strings.Repeat("fe", 17), -1672437813826982685},
	{"nodejs-driver", "fefefefe", 4566408979886474012},
	{"nodejs-driver", "00000000", -3485513579396041028},
	{"nodejs-driver", "00017f7f", 6573459401642635627},
	{"nodejs-driver", "e2e7e2e7e2e701", 2222373981930033306},
	{"nodejs-driver", "0000000000000080", 78142285821850151},
	// datastax/python-driver tests/unit/test_metadata.py, _verify_hash
	// (also in the Ruby and Elixir drivers' specs).
	{"python-driver", hex.EncodeToString([]byte("123")), -7468325962851647638},
	{"python-driver", strings.Repeat("00ff10fa99", 10), 5837342703291459765},
	{"python-driver", strings.Repeat("fe", 8), -8927430733708461935},
	{"python-driver", strings.Repeat("10", 8), 1446172840243228796},
	{"python-driver", hex.EncodeToString([]byte("9223372036854775807")), 7162290910810015547},
	// Printed by npm cassandra-driver 4.10.0's Murmur3Tokenizer.hash
	// (production-rules.md §9 lists the first four).
	{"cassandra-driver 4.10.0", "e2e7", -8582699461035929883},
	{"cassandra-driver 4.10.0", hex.EncodeToString([]byte("key1")), 1573573083296714675},
	{"cassandra-driver 4.10.0", hex.EncodeToString([]byte("key2")), 8482869187405483569},
	{"cassandra-driver 4.10.0", hex.EncodeToString([]byte("foo")), -2129773440516405919},
	{"cassandra-driver 4.10.0", hex.EncodeToString([]byte("héllo wörld, 日本語 🎉")), 2462748660521721658},
}

func TestTokenVectors(t *testing.T) {
	for _, v := range tokenVectors {
		key, err := hex.DecodeString(v.hex)
		if err != nil {
			t.Fatal(err)
		}
		if got := Token(key); got != v.token {
			t.Errorf("%s: Token(%s) = %d, want %d", v.src, v.hex, got, v.token)
		}
	}
}

// TestSignExtendedTail checks the one place Cassandra's hash leaves the
// reference MurmurHash3: "e2e7" is 6443948396938044106 under unsigned tail
// bytes (production-rules.md §9; mmh3.hash64(b"\xe2\xe7")[0]).
func TestSignExtendedTail(t *testing.T) {
	if got := int64(unsignedTailH1([]byte{0xe2, 0xe7})); got != 6443948396938044106 {
		t.Fatalf("reference murmur3 h1 of e2e7 = %d, want 6443948396938044106", got)
	}
	if Token([]byte{0xe2, 0xe7}) == 6443948396938044106 {
		t.Fatal("Token ignores Java's sign extension")
	}
	// Below 0x80 the two agree.
	for _, k := range []string{"a", "key1", "0123456789abcde"} {
		if int64(unsignedTailH1([]byte(k))) != Token([]byte(k)) {
			t.Errorf("%q: ASCII key differs from reference murmur3", k)
		}
	}
}

// unsignedTailH1 is reference MurmurHash3 x64_128 h1 (unsigned tail), for
// TestSignExtendedTail only.
func unsignedTailH1(key []byte) uint64 {
	var h1, h2 uint64
	n := len(key)
	tail := key[n&^15:]
	var k1, k2 uint64
	for i := len(tail) - 1; i >= 8; i-- {
		k2 ^= uint64(tail[i]) << (8 * uint(i-8))
	}
	if len(tail) > 8 {
		h2 ^= mixK2(k2)
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 ^= uint64(tail[i]) << (8 * uint(i))
	}
	if len(tail) > 0 {
		h1 ^= mixK1(k1)
	}
	if n >= 16 {
		panic("unsignedTailH1 handles short keys only")
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	return fmix64(h1) + fmix64(h2)
}

func TestTokenEdges(t *testing.T) {
	if got := Token(nil); got != math.MinInt64 {
		t.Errorf("Token(empty) = %d, want Long.MIN_VALUE (Murmur3Partitioner.MINIMUM)", got)
	}
	if got := normalize(math.MinInt64); got != math.MaxInt64 {
		t.Errorf("normalize(MIN) = %d, want MAX", got)
	}
	// Every tail length and a few body lengths, on bytes ≥ 0x80: stable
	// and never the reserved minimum.
	key := make([]byte, 200)
	for i := range key {
		key[i] = byte(0x80 + i)
	}
	for n := 1; n <= len(key); n++ {
		if tk := Token(key[:n]); tk == math.MinInt64 || tk != Token(append([]byte(nil), key[:n]...)) {
			t.Fatalf("length %d: token %d", n, tk)
		}
	}
	r, _ := New(Options{})
	for _, k := range []string{"", "x", strings.Repeat("é", 100)} {
		if int64(r.Hash([]byte(k))) != Token([]byte(k)) {
			t.Errorf("Hash(%q) is not Token's bits", k)
		}
	}
}
