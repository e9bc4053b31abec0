package svg

import "strings"

// shortNames returns each node's name for tight labels, by NodeID. When
// every name ends in the same suffix of at least three bytes that starts
// with punctuation (":11211", ".cache.internal"), the suffix is dropped
// and returned, so that a figure says it once instead of truncating
// every "10.0.0.1:1…" to the same text.
func shortNames(nodes []string) (short []string, suffix string) {
	suffix = commonSuffix(nodes)
	if i := strings.IndexAny(suffix, ":.-_/@"); i >= 0 {
		suffix = suffix[i:]
	} else {
		suffix = ""
	}
	if len(suffix) < 3 {
		return nodes, ""
	}
	short = make([]string, len(nodes))
	for i, n := range nodes {
		if short[i] = strings.TrimSuffix(n, suffix); short[i] == "" {
			return nodes, ""
		}
	}
	return short, suffix
}

// commonSuffix returns the longest byte suffix shared by every name.
func commonSuffix(names []string) string {
	if len(names) < 2 {
		return ""
	}
	s := names[0]
	for _, n := range names[1:] {
		for !strings.HasSuffix(n, s) {
			s = s[1:]
		}
	}
	return s
}

// suffixNote is the sentence a caption adds when labels drop a suffix.
func suffixNote(suffix string) string {
	if suffix == "" {
		return ""
	}
	return " Node names are shown without the ending “" + suffix + "” that they all share."
}
