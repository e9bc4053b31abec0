package text

import (
	"strings"
	"testing"
)

// TestVisible: text a report did not choose prints with everything that
// could hide, reorder or forge what is around it escaped, and cut to its
// limit; plain text, spaces included, prints as it is.
func TestVisible(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want string
	}{
		{"user:42", 0, "user:42"},
		{"a b", 0, "a b"},
		{"Zürich 東京 ✓", 0, "Zürich 東京 ✓"},
		{"evil\u202egnp.exe", 0, `evil\u202egnp.exe`},
		{"a\u200fb\u200eb\u061cc", 0, `a\u200fb\u200eb\u061cc`},
		{"zw\u200bsp\u200d\u2060\ufeff", 0, `zw\u200bsp\u200d\u2060\ufeff`},
		{"nb\u00a0sp\u3000", 0, `nb\u00a0sp\u3000`},
		{"line\nbreak\r\tesc\x1b[31m", 0, `line\nbreak\r\tesc\x1b[31m`},
		{"sep\u2028", 0, `sep\u2028`},
		{"bad\xffutf8", 0, `bad\xffutf8`},
		{"tag\U000e0041", 0, `tag\U000e0041`},
		{"abcdefgh", 4, "abcd… (4 more bytes)"},
		{"abcd", 4, "abcd"},
		{strings.Repeat("x", 1000), 200, strings.Repeat("x", 200) + "… (800 more bytes)"},
	} {
		if got := Visible(tc.in, tc.max); got != tc.want {
			t.Errorf("Visible(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestInvisible pins the characters that names may not hold.
func TestInvisible(t *testing.T) {
	for _, r := range []rune{0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0x202E, 0x2066, 0x2060, 0xFEFF, 0x00AD, 0xFE0F, 0x034F, 0x3164, 0x2800, 0xE0041} {
		if !Invisible(r) {
			t.Errorf("Invisible(%U) = false", r)
		}
	}
	for _, r := range []rune{'a', ' ', 'é', '東', '-', '_', 0x0301} {
		if Invisible(r) {
			t.Errorf("Invisible(%U) = true", r)
		}
	}
}
