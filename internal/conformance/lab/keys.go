package lab

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Keys returns n varied keys, the same on every run: ASCII words, hash
// tags, numbers, CJK, emoji, combining marks, right-to-left scripts, the
// empty key, and random bytes (not always valid UTF-8), 0 to 200 bytes.
func Keys(n int) [][]byte {
	rng := rand.New(rand.NewPCG(2026, 11))
	pieces := []string{"user", "order", "{user1}.x", "{tag}", "日本語", "键值", "한국어",
		"😀", "🔑🚀", "e\u0301", "a\u0308\u0323", "שלום", "مرحبا", "ß", "Ω", "\u200f", "-", ":", "/"}
	out := [][]byte{{}, []byte("a"), []byte("100:48069"), []byte("21"), []byte("foobar")}
	for len(out) < n {
		var b strings.Builder
		switch len(out) % 4 {
		case 0: // words and scripts
			for b.Len() < 1+rng.IntN(60) {
				b.WriteString(pieces[rng.IntN(len(pieces))])
				fmt.Fprint(&b, rng.IntN(1000))
			}
			out = append(out, []byte(b.String()))
		case 1: // hash-tag style keys
			out = append(out, fmt.Appendf(nil, "{user%d}.%s", rng.IntN(5000), pieces[rng.IntN(len(pieces))]))
		case 2: // numbers, as Kafka producers often send ids
			out = append(out, fmt.Appendf(nil, "%d", rng.Int64()))
		default: // random bytes, 1 to 200
			k := make([]byte, 1+rng.IntN(200))
			for i := range k {
				k[i] = byte(rng.UintN(256))
			}
			out = append(out, k)
		}
	}
	// One long key at the top of the range.
	out[len(out)-1] = []byte(strings.Repeat("κλειδί-", 28)[:200])
	return out
}
