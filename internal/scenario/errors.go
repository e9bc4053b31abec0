package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/text"
)

// Error is one problem in a scenario file, at a 1-based line and column
// (column counts characters). Line is 0 when the problem has no position
// in the file, such as an unusable file name.
type Error struct {
	// File is the name the scenario was parsed under.
	File string
	// Line and Col locate the offending YAML node; both are 1-based.
	Line, Col int
	// Msg says what is wrong and what would be right, in lower case
	// without a final period.
	Msg string
}

// Error formats e as "file:line:col: message", or "file: message" when e
// has no position; the file name as text.Path prints it.
func (e *Error) Error() string {
	if e.Line <= 0 {
		return fmt.Sprintf("%s: %s", text.Path(e.File), e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", text.Path(e.File), e.Line, e.Col, e.Msg)
}

// FileName returns a file name as a message prints it: text.Path's rule
// (plain names as they are, others quoted with control, invisible and
// bidirectional characters escaped), for the parser's and the site's
// messages.
func FileName(name string) string {
	return text.Path(name)
}

// ErrorList is every problem Parse found in one file, sorted by position.
type ErrorList []*Error

// Error joins the errors one per line, without a trailing newline.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Sort orders l by file, line and column. Errors at the same position keep
// the order in which they were found.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// Unwrap returns the errors as a slice, so that errors.As can find an
// individual *Error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// suggest returns the candidate that word is an obvious typo of, or "".
// A typo is a case-insensitive match, or an edit distance of 1 (2 for
// words of five or more letters) that no other candidate ties.
func suggest(word string, candidates []string) string {
	best, bestDist, tie := "", 1<<30, false
	for _, c := range candidates {
		if strings.EqualFold(word, c) {
			return c
		}
		switch d := editDistance(strings.ToLower(word), c); {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	limit := 1
	if len(word) >= 5 {
		limit = 2
	}
	if bestDist > limit || tie || bestDist >= len(word) {
		return ""
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
// Inputs longer than 64 bytes are never typos of a key, so it gives up.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 30
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
