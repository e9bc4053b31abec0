package svg

import (
	"strings"
	"testing"
)

// TestWrap: wrap keeps every character, keeps lines within the width,
// and breaks inside a word only when the word is wider than a line.
func TestWrap(t *testing.T) {
	for _, c := range []struct {
		s     string
		width float64
		want  []string
	}{
		{"Ring: adding and removing nodes", 1000, []string{"Ring: adding and removing nodes"}},
		{"Ring: adding and removing nodes", 13 * 6, []string{"Ring: adding", "and removing", "nodes"}},
		{"abcdefghij xy", 4 * 6, []string{"abcd", "efgh", "ij", "xy"}},
		{"", 100, []string{""}},
	} {
		got := wrap(c.s, c.width, 10)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %v) = %q, want %q", c.s, c.width, got, c.want)
		}
		if strings.ReplaceAll(strings.Join(got, ""), " ", "") != strings.ReplaceAll(c.s, " ", "") {
			t.Errorf("wrap(%q) lost text: %q", c.s, got)
		}
		for _, l := range got {
			if textW(l, 10) > max(c.width, 6) {
				t.Errorf("wrap(%q, %v): line %q is too wide", c.s, c.width, l)
			}
		}
	}
	// A heading shrinks to stay within two lines, then wraps further.
	size, lines := fitLines(strings.Repeat("word ", 30), 300, 13, 11, 2)
	if size != 11 || len(lines) < 3 {
		t.Errorf("fitLines of 150 characters in 300 px: size %v, %d lines", size, len(lines))
	}
	if size, lines := fitLines(strings.Repeat("word ", 16), 300, 13, 11, 2); len(lines) > 2 || size >= 13 {
		t.Errorf("fitLines of 80 characters in 300 px: size %v, %d lines; want a smaller size on two lines", size, len(lines))
	}
	hd := headingOf("Title", "Subtitle", 640)
	if len(hd.title) != 1 || len(hd.sub) != 1 || hd.h < 40 || hd.h > 46 {
		t.Errorf("headingOf(Title, Subtitle) = %+v", hd)
	}
}
