package redis_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// probeKeys returns n ≥ 1,000 varied keys, the same on every run (PCG
// seeded): hash tags of every shape keyHashSlot distinguishes, Unicode
// (CJK, emoji, combining marks, right-to-left scripts), raw bytes
// including NUL, CR and LF, the empty key, and lengths 1..200 bytes. RESP
// carries any byte string, so no key is skipped.
func probeKeys(n int) [][]byte {
	rng := rand.New(rand.NewPCG(7015, 16384))
	fixed := []string{
		"", "123456789", "somekey", "foo{hash_tag}", "bar{hash_tag}",
		"{a}b", "{}x", "a{}{b}", "{", "}", "{}", "{{a}}", "foo{}{bar}",
		"foo{{bar}}zap", "foo{bar}{zap}", "{user1}.following", "日本語{タグ}",
		"{中文}key", "🎉", "}{", "{}{}", "{x", "x}", "\x00", "{\x00}",
	}
	shapes := []func(i int) string{
		func(i int) string { return fmt.Sprintf("{user%d}.following", i) },
		func(i int) string { return fmt.Sprintf("session:%d{shard%d}", i, i%7) },
		func(i int) string { return fmt.Sprintf("{}x%d", i) },
		func(i int) string { return fmt.Sprintf("a{}{b%d}", i) },
		func(i int) string { return fmt.Sprintf("{{t%d}}", i) },
		func(i int) string { return fmt.Sprintf("}{%d}", i) },
		func(i int) string { return fmt.Sprintf("日本語{タグ%d}", i) },
		func(i int) string { return fmt.Sprintf("用户:%d:资料", i) },
		func(i int) string { return fmt.Sprintf("🎉%d🚀", i) },
		func(i int) string { return fmt.Sprintf("e\u0301\u0327%d", i) },
		func(i int) string { return fmt.Sprintf("مرحبا-%d", i) },
		func(i int) string { return fmt.Sprintf("שלום{%d}", i) },
		func(i int) string { return fmt.Sprintf("k%d", i) },
	}
	runes := []rune("abcXYZ019{}:._-日本語中文한국어🎉🚀👍\u0301\u05d0\u0627 \t")
	keys := make([][]byte, 0, n)
	for _, f := range fixed {
		keys = append(keys, []byte(f))
	}
	for i := 0; len(keys) < n; i++ {
		switch i % 4 {
		case 0, 1:
			keys = append(keys, []byte(shapes[i%len(shapes)](i)))
		case 2: // random text of 1..200 bytes
			size := 1 + rng.IntN(200)
			var b strings.Builder
			for b.Len() < size {
				r := runes[rng.IntN(len(runes))]
				if b.Len() > 0 && b.Len()+utf8.RuneLen(r) > size {
					break
				}
				b.WriteRune(r)
			}
			keys = append(keys, []byte(b.String()))
		default: // random bytes of 1..200 bytes, tags likely
			k := make([]byte, 1+rng.IntN(200))
			for j := range k {
				k[j] = byte(rng.UintN(256))
				if rng.IntN(16) == 0 {
					k[j] = "{}"[rng.IntN(2)]
				}
			}
			keys = append(keys, k)
		}
	}
	return keys
}
