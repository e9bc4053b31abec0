package nginx_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// candidateKeys returns the deterministic key set of the conformance test:
// plain and tagged ASCII keys, CJK, emoji (with ZWJ and flags), combining
// marks, right-to-left text, every single byte, control bytes and tabs,
// invalid UTF-8, and random keys of 1 to 200 bytes; plus a few keys no
// header can carry, which carryable drops.
func candidateKeys() [][]byte {
	rng := rand.New(rand.NewPCG(2024, 1221))
	var keys [][]byte
	add := func(format string, n int) {
		for i := range n {
			keys = append(keys, []byte(fmt.Sprintf(format, i)))
		}
	}
	add("user:%d", 150)
	add("{user%d}.x", 60)
	add("session-{%d}-cart", 40)
	add("用户%d", 40)
	add("キー%d の値", 40)
	add("사용자%d", 20)
	add("🔑%d", 30)
	add("👩\u200d💻%d🇫🇷", 30)
	add("e\u0301a\u0308\u0323%d", 30)
	add("مفتاح%d", 30)
	add("\u200fשלום-%d", 30)
	add("%d", 60)
	add("path/to/object %d.jpg", 20) // inner spaces are kept
	add("a\tb%d", 10)
	add("\tlead-tab-%d", 5) // nginx trims only spaces, not tabs
	add("trail-tab-%d\t", 5)
	add("ctl\x01\x1f\x7f%d", 10)
	add("%%41%d+x", 10)
	for b := 1; b < 256; b++ {
		keys = append(keys, []byte{byte(b)}) // all single bytes (carryable filters)
	}
	for i := range 40 {
		keys = append(keys, append([]byte{0xff, 0xfe, byte(0x80 + i)}, "bad-utf8"...))
	}
	for n := 1; n <= 200; n++ {
		keys = append(keys, bytes.Repeat([]byte{'a' + byte(n%26)}, n))
	}
	for range 260 {
		k := make([]byte, 1+rng.IntN(200))
		for j := range k {
			k[j] = byte(0x21 + rng.IntN(0x100-0x21))
		}
		keys = append(keys, k)
	}
	// what no header carries
	keys = append(keys, nil, []byte(" lead-space"), []byte("trail-space "), []byte("nul\x00byte"),
		[]byte("cr\rbyte"), []byte("lf\nbyte"), []byte("   "))
	return keys
}

// carryable reports whether nginx receives the key unchanged as the value
// of an X-Key header, and why not. nginx 1.22.1 (ngx_http_parse_header_line)
// drops spaces (only 0x20, not tabs) before and after a value, rejects a
// NUL with 400, and ends the line at CR or LF; and an empty key is hashed
// by nobody (nginx uses round robin).
func carryable(k []byte) (bool, string) {
	switch {
	case len(k) == 0:
		return false, "empty: nginx uses round robin"
	case bytes.IndexByte(k, 0) >= 0:
		return false, "NUL: nginx answers 400"
	case bytes.ContainsAny(k, "\r\n"):
		return false, "CR or LF: ends the header line"
	case k[0] == ' ' || k[len(k)-1] == ' ':
		return false, "leading or trailing space: nginx trims it"
	}
	return true, ""
}

// keySet returns the carryable keys and a summary of those skipped.
func keySet() ([][]byte, string) {
	var keep [][]byte
	why := map[string]int{}
	for _, k := range candidateKeys() {
		if ok, reason := carryable(k); ok {
			keep = append(keep, k)
		} else {
			why[reason]++
		}
	}
	var parts []string
	for _, r := range []string{"empty: nginx uses round robin", "NUL: nginx answers 400",
		"CR or LF: ends the header line", "leading or trailing space: nginx trims it"} {
		parts = append(parts, fmt.Sprintf("%d (%s)", why[r], r))
	}
	return keep, strings.Join(parts, ", ")
}
