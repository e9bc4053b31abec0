package report

import (
	"math"
	"net/url"
	"strings"
	"unicode"

	"github.com/ringreport/ringreport/internal/text"
)

// This file holds the formatting functions that report.md.tmpl calls: one
// escape function for user strings and fixed number formats, so that the
// same input always gives the same bytes.

// markdownSpecial lists the ASCII punctuation that esc backslash-escapes.
// CommonMark allows a backslash before any ASCII punctuation; these are
// the characters that can start emphasis, code, links, HTML, entities,
// table cells, strikethrough, closing sequences of headings or attributes
// ("!" needs no escape: an image needs "[", which is escaped), and "$",
// which starts math on GitHub.
const markdownSpecial = "\\`*_[]<>&|~#{}$"

// esc makes s safe as plain text inside a Markdown paragraph, heading or
// GFM table cell: it backslash-escapes markdownSpecial, turns every run
// of white space and control characters into one space and trims the
// ends, so the text can neither break a table row nor inject HTML. It
// also escapes the ":" of "://" and the "." of "www.", so that a name such
// as https://evil.example or www.evil.example is not made a link by
// GitHub's autolinking (which matches those on the source text, where a
// backslash escape hides them).
func esc(s string) string {
	var b strings.Builder
	space := false
	s = strings.TrimSpace(s)
	for i, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if r < 0x80 && strings.ContainsRune(markdownSpecial, r) || autolinkStop(s, i) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// autolinkStop reports whether s[i] is the ":" of "://" or the "." of
// "www." (any case), where GFM's extended autolinks are recognised.
func autolinkStop(s string, i int) bool {
	switch s[i] {
	case ':':
		return strings.HasPrefix(s[i+1:], "//")
	case '.':
		return i >= 3 && strings.EqualFold(s[i-3:i], "www")
	}
	return false
}

// round rounds x to the nearest integer, halves away from zero, for
// count: {{count (round .Share)}}.
func round(x float64) int { return int(math.Round(x)) }

// dest makes a relative file name usable as a Markdown link destination.
func dest(name string) string { return url.PathEscape(name) }

// The number formats are shared with the figures (internal/text).
var (
	count     = text.Count
	fixed     = text.Fixed
	grouped   = text.Grouped
	pct       = text.Pct
	signedPct = text.SignedPct
	times     = text.Times
	plural    = text.Plural
	list      = text.List
	ratio     = text.Ratio
)
