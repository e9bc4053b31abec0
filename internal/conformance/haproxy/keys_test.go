package haproxy_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// testKeys returns the conformance keys: fixed, deterministic, varied in
// script and length (1 to 200 bytes), plus a few that an HTTP header
// cannot carry whole, to show they are skipped and why.
func testKeys() []string {
	var keys []string
	add := func(format string, n int) {
		for i := range n {
			keys = append(keys, fmt.Sprintf(format, i))
		}
	}
	add("{user%d}.x", 60)
	add("{user%d}:session:42", 40)
	add("key%d", 120)
	add("%d", 60)
	add("用户%d", 40)
	add("東京-%d-キー", 30)
	add("사용자%d", 20)
	add("🔑%d", 30)
	add("👩‍💻 dev %d", 20) // ZWJ sequence
	add("🇫🇷🇯🇵%d", 10)
	add("e\u0301\u0302%d", 20) // combining marks
	add("שלום-%d", 20)         // Hebrew, RTL
	add("مرحبا %d", 20)        // Arabic, RTL
	add("\u202eevil%d", 10)    // RTL override
	add("Zürich/%d?a=b&c=d;e", 20)
	add("%d\xff\xfe", 10) // not UTF-8
	keys = append(keys, "a", "Z", "0", "~", "{", "}", "{}", "{a}", "/test-url", "é", "東", "🔑")
	keys = append(keys, randomKeys(600)...)
	// What a header cannot carry whole: HAProxy would hash another value.
	keys = append(keys, "", "a,b", `"quoted"`, " lead", "trail ", "tab\there", "nul\x00", "cr\rlf\n", "del\x7f")
	return keys
}

// alphabet is what randomKeys draws from: ASCII without the characters a
// header splits or trims on, and runes of every UTF-8 length.
var alphabet = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:/{}[]()!#$%&'*+;<=>?@^`|~ " +
	"éüßçøñ" + "中文字符東京大阪" + "한국어" + "שלוםعربي" + "🔑😀🚀🎉" + "\u0301\u0308")

// randomKeys returns n keys of 1 to 200 bytes from a fixed seed.
func randomKeys(n int) []string {
	rng := rand.New(rand.NewPCG(2026, 6))
	keys := make([]string, 0, n)
	for i := range n {
		want := 1 + i%200
		var b strings.Builder
		for b.Len() < want {
			r := alphabet[rng.IntN(len(alphabet))]
			if b.Len()+utf8.RuneLen(r) > want {
				r = 'x'
			}
			b.WriteRune(r)
		}
		keys = append(keys, strings.Trim(b.String(), " "))
	}
	return keys
}

// headerSkip says why an X-Key header cannot carry key so that HAProxy's
// hdr() hashes exactly its bytes, or "" when it can: HAProxy balances an
// empty value round robin, takes the first comma-separated value (quotes
// group), and trims blanks; HTTP/1 forbids control characters.
func headerSkip(key string) string {
	switch {
	case key == "":
		return "empty (HAProxy balances it round robin)"
	case strings.ContainsAny(key, `,"`):
		return "comma or quote (hdr() takes the first list element)"
	case key[0] == ' ' || key[len(key)-1] == ' ':
		return "leading or trailing blank (trimmed)"
	}
	for i := range len(key) {
		if c := key[i]; c < 0x20 || c == 0x7f {
			return "control character (not allowed in HTTP/1 fields)"
		}
	}
	return ""
}

// queryEscape percent-encodes every byte but the unreserved ones, giving
// the exact bytes url_param hashes (HAProxy does not decode them).
func queryEscape(key string) string {
	var b strings.Builder
	for i := range len(key) {
		c := key[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
