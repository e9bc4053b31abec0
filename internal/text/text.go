// Package text formats results for people: numbers with fixed decimals
// and thousands separators, and what a step did in words. The report and
// the figures both use it, so a step reads the same in a table and on a
// chart.
package text

import (
	"math"
	"strconv"
	"strings"
)

// Count formats n with a comma between groups of three digits: 12,345.
func Count(n int) string {
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

// Fixed formats x with exactly n decimals. Negative zero and values that
// round to zero print without a sign; NaN and infinities print as "—".
func Fixed(n int, x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "—"
	}
	s := strconv.FormatFloat(x, 'f', n, 64)
	if strings.Trim(s, "-0.") == "" {
		s = strings.TrimPrefix(s, "-")
	}
	return s
}

// Grouped is Fixed with the whole part's digits grouped as Count groups
// them: Grouped(1, 9901) is "9,901.0".
func Grouped(n int, x float64) string {
	s := Fixed(n, x)
	whole, frac, dot := strings.Cut(s, ".")
	w, err := strconv.Atoi(whole)
	if err != nil { // "—", or beyond an int
		return s
	}
	out := Count(w)
	if strings.HasPrefix(whole, "-") && w == 0 {
		out = "-" + out
	}
	if dot {
		out += "." + frac
	}
	return out
}

// Pct formats a fraction as a percentage with one decimal: 0.1234 → 12.3%.
func Pct(x float64) string { return Fixed(1, 100*x) + "%" }

// SignedPct is Pct with an explicit sign for non-zero values: +1.5%, −0.3%.
func SignedPct(x float64) string {
	s := Pct(x)
	switch {
	case strings.HasPrefix(s, "-"):
		return "−" + s[1:]
	case strings.Trim(s, "0.%") == "":
		return s
	}
	return "+" + s
}

// Times formats a ratio with two decimals and a multiplication sign:
// 2.60×; NaN (a ratio to zero) prints as "—".
func Times(x float64) string {
	if s := Fixed(2, x); s != "—" {
		return s + "×"
	}
	return "—"
}

// Plural returns "1 key" or "3 keys", with n formatted by Count.
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}

// List joins items with commas and a final "and".
func List(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Ratio returns a/b, or NaN when b is 0.
func Ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}
