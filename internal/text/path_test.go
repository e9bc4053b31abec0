package text

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestPath: a file name that could break a line, forge a CI annotation,
// move a terminal's cursor or hide its own spelling is quoted with its
// characters escaped; a plain one prints as it is.
func TestPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"scenarios/ring.yaml", "scenarios/ring.yaml"},
		{"my scenario.yaml", "my scenario.yaml"},
		{"équipe/anneau.yaml", "équipe/anneau.yaml"},
		{"a\n::error file=x.yaml::forged.yaml", `"a\n::error file=x.yaml::forged.yaml"`},
		{"\x1b[2J\x1b[31mred.yaml", `"\x1b[2J\x1b[31mred.yaml"`},
		{"a\rb.yaml", `"a\rb.yaml"`},
		{"evil\u202egnp.yaml", `"evil\u202egnp.yaml"`},
		{"a\u2028b.yaml", `"a\u2028b.yaml"`},
		{"bad\xffutf8.yaml", `"bad\xffutf8.yaml"`},
		{`quote".yaml`, `"quote\".yaml"`},
		{" lead.yaml", `" lead.yaml"`},
		{"", `""`},
	} {
		got := Path(tc.in)
		if got != tc.want {
			t.Errorf("Path(%q) = %s, want %s", tc.in, got, tc.want)
		}
		for _, c := range got {
			if c < 0x20 || c == 0x7f || c == '\u202e' || c == '\u2028' {
				t.Errorf("Path(%q) = %q holds control character %U", tc.in, got, c)
			}
		}
	}
}

// TestPathError: the operating system's errors name their files through
// Path, and stay in the chain for errors.Is.
func TestPathError(t *testing.T) {
	_, err := os.Open("no\nsuch\x1b.yaml")
	qe := PathError(err)
	if strings.ContainsAny(qe.Error(), "\n\x1b") || !strings.Contains(qe.Error(), `"no\nsuch\x1b.yaml"`) {
		t.Errorf("PathError = %q", qe)
	}
	if !errors.Is(qe, fs.ErrNotExist) {
		t.Errorf("PathError lost the cause: %v", qe)
	}
	le := PathError(os.Rename("a\nb", "c\x1bd"))
	if strings.ContainsAny(le.Error(), "\n\x1b") {
		t.Errorf("PathError of a LinkError = %q", le)
	}
	plain := errors.New("plain")
	if PathError(plain) != plain || PathError(nil) != nil {
		t.Error("PathError changed an error without a file name")
	}
}
