package text

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invisible reports a character that shows as nothing, or as nothing but
// a change of direction, so that two strings that differ by it look the
// same: the format characters (Unicode category Cf: the bidirectional
// marks LRM, RLM and ALM, the embeddings, overrides and isolates, the
// zero-width space, joiners and non-joiner, the word joiner, the byte
// order mark, the soft hyphen, tag characters), the variation selectors,
// the combining grapheme joiner, the Hangul fillers, the Mongolian
// free variation selectors and the blank Braille pattern.
func Invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Variation_Selector, r):
		return true
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r >= 0x180B && r <= 0x180F,
		r == 0x2800, r == 0x3164, r == 0xFFA0:
		return true
	}
	return false
}

// Visible returns s as a report prints text it did not choose, such as a
// key read from a keys file: invalid UTF-8, control characters, invisible
// characters (see Invisible) and white space other than the ASCII space
// are written as Go escapes (\xff, \x1b, \u202e, \u00a0), so that none can
// reorder, hide or forge what is around it; and s is cut after max bytes
// (max ≤ 0: never) with "…" and the number of bytes left out, so that a
// huge key does not make a huge page.
func Visible(s string, max int) string {
	clean := true
	for i, r := range s {
		if r == utf8.RuneError || !shown(r) || (max > 0 && i >= max) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if max > 0 && i >= max {
			b.WriteString("… (" + Count(len(s)-i) + " more bytes)")
			break
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case !shown(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// shown reports a character that Visible prints as it is.
func shown(r rune) bool {
	if r == ' ' {
		return true
	}
	return !unicode.IsControl(r) && !unicode.IsSpace(r) && !Invisible(r) && r != 0x2028 && r != 0x2029
}

// QuoteVisible is s quoted like %q, with the invisible characters that
// strconv counts as printable (Hangul fillers, variation selectors, ...)
// escaped too, so that a message shows what it quotes.
func QuoteVisible(s string) string {
	var b strings.Builder
	for _, r := range strconv.Quote(s) {
		if Invisible(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
