package report

import (
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// This file holds the formatting functions that report.md.tmpl calls: one
// escape function for user strings and fixed number formats, so that the
// same input always gives the same bytes.

// markdownSpecial lists the ASCII punctuation that esc backslash-escapes.
// CommonMark allows a backslash before any ASCII punctuation; these are
// the characters that can start emphasis, code, links, HTML, entities,
// table cells, strikethrough, closing sequences of headings or attributes
// ("!" needs no escape: an image needs "[", which is escaped).
const markdownSpecial = "\\`*_[]<>&|~#{}"

// esc makes s safe as plain text inside a Markdown paragraph, heading or
// GFM table cell: it backslash-escapes markdownSpecial, turns every run
// of white space and control characters into one space and trims the
// ends, so the text can neither break a table row nor inject HTML.
func esc(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < 0x80 && strings.ContainsRune(markdownSpecial, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// dest makes a relative file name usable as a Markdown link destination.
func dest(name string) string { return url.PathEscape(name) }

// count formats n with a comma between groups of three digits: 12,345.
func count(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// fixed formats x with exactly n decimals. Negative zero and values that
// round to zero print without a sign; NaN and infinities print as "—".
func fixed(n int, x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	s := strconv.FormatFloat(x, 'f', n, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// pct formats a fraction as a percentage with one decimal: 0.1234 → 12.3%.
func pct(x float64) string { return fixed(1, 100*x) + "%" }

// signedPct is pct with an explicit sign for non-zero values: +1.5%, −0.3%.
func signedPct(x float64) string {
	s := pct(x)
	switch {
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:]
	case strings.Trim(s, "0.%") == "":
		return s
	}
	return "+" + s
}

// times formats a ratio with two decimals and a multiplication sign: 2.60×;
// NaN (a ratio to zero) prints as "—".
func times(x float64) string {
	if s := fixed(2, x); s != "—" {
		return s + "×"
	}
	return "—"
}

// plural returns "1 key" or "3 keys", with n formatted by count.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return count(n) + " " + many
}

// list joins plain-text items with commas and a final "and".
func list(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// ratio returns a/b, or NaN when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
