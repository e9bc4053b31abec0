package scenario

import (
	"strings"
	"testing"
)

// TestErrorFileName: a scenario file whose name could break a line,
// forge a CI annotation, move a terminal's cursor or hide its spelling is
// named in messages quoted with those characters escaped; a plain name
// prints as it is, so that editors can still jump to file:line:col.
func TestErrorFileName(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"scenarios/ring.yaml", "scenarios/ring.yaml:1:1: bad"},
		{"my ring.yaml", "my ring.yaml:1:1: bad"},
		{"équipe/anneau.yaml", "équipe/anneau.yaml:1:1: bad"},
		{"a\n::error file=x.yaml::forged.yaml", `"a\n::error file=x.yaml::forged.yaml":1:1: bad`},
		{"\x1b[2J\x1b[31mred.yaml", `"\x1b[2J\x1b[31mred.yaml":1:1: bad`},
		{"evil\u202egnp.yaml", `"evil\u202egnp.yaml":1:1: bad`},
		{"rlm\u200f.yaml", `"rlm\u200f.yaml":1:1: bad`},
		{"filler\u3164.yaml", `"filler\u3164.yaml":1:1: bad`},
		{"bad\xffutf8.yaml", `"bad\xffutf8.yaml":1:1: bad`},
		{" lead.yaml", `" lead.yaml":1:1: bad`},
	} {
		got := (&Error{File: tc.file, Line: 1, Col: 1, Msg: "bad"}).Error()
		if got != tc.want {
			t.Errorf("Error() for %q = %s, want %s", tc.file, got, tc.want)
		}
	}
	// Parse's own messages, and an expectation's place, name the file so.
	_, err := Parse("x\n::error::.yaml", []byte("title: T\n"), Options{})
	if err == nil || strings.Contains(err.Error(), "\n::error") {
		t.Errorf("Parse error %q prints the file name raw", err)
	}
	s, err := Parse("x\x1b.yaml", []byte("title: T\nkeys: 1\nnodes: [a]\nexpect: [{moved: 0}]\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Expect[0].Where != `"x\x1b.yaml":4:10` {
		t.Errorf("expectation place %q", s.Expect[0].Where)
	}
}
