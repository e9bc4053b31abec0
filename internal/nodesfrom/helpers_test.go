package nodesfrom

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// itoa is strconv.Itoa, short.
func itoa(n int) string { return strconv.Itoa(n) }

// tc is one table case: data in a format, and either the servers it names
// or the problems it has, each written "line:col: part of the message".
type tc struct {
	name string
	sel  string
	in   string
	want []Node
	errs []string
	// product says how the product-validation test treats the case: ""
	// checks that the product accepts it (no errs) or refuses it (errs);
	// any other text skips it and says why.
	product string
}

// n builds a Node for a table: name, weight, line, col.
func n(name string, weight, line, col int) Node {
	return Node{Name: name, Weight: weight, Line: line, Col: col}
}

func (x Node) down() Node          { x.Down = true; return x }
func (x Node) backup() Node        { x.Backup = true; return x }
func (x Node) label(s string) Node { x.Label = s; return x }
func (x Node) id(i int) Node       { x.ID = i; return x }

// run checks every case of a table against Parse in format.
func run(t *testing.T, format string, cases []tc) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, errs := Parse(format, []byte(c.in), c.sel)
			checkResult(t, got, errs, c.want, c.errs)
		})
	}
}

func checkResult(t *testing.T, got []Node, errs []Error, want []Node, wantErrs []string) {
	t.Helper()
	if len(errs) > 0 && got != nil {
		t.Errorf("Parse returned %d servers and %d problems; it returns one or the other", len(got), len(errs))
	}
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	if len(wantErrs) != len(errs) {
		t.Fatalf("got %d problems, want %d:\n  got:  %s\n  want: %s", len(errs), len(wantErrs),
			strings.Join(msgs, "\n        "), strings.Join(wantErrs, "\n        "))
	}
	for i, w := range wantErrs {
		at, part, _ := strings.Cut(w, ": ")
		gotAt := fmt.Sprintf("%d:%d", errs[i].Line, errs[i].Col)
		if gotAt != at || !strings.Contains(errs[i].Msg, part) {
			t.Errorf("problem %d:\n  got  %s\n  want %s", i, msgs[i], w)
		}
	}
	if len(wantErrs) > 0 {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("got %d servers, want %d:\n  got  %+v\n  want %+v", len(got), len(want), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("server %d:\n  got  %+v\n  want %+v", i, got[i], want[i])
		}
	}
}
