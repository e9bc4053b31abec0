package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fullOnly matches a line of .ci/run that runs tests in full:
// full_only ./pkg 'TestA|TestB'.
var fullOnly = regexp.MustCompile(`(?m)^(?:\S+=\S+ )*full_only (\./\S+) '([^']+)'$`)

// TestShortIsRunByCI checks that .ci/run's full_only lines name exactly
// the tests that read testing.Short, each with its package: .ci/run runs
// go test -short ./... and then those tests in full, so a test that
// -short skips and the list forgets would never run in CI, and a name the
// list keeps after its test is gone would run nothing.
func TestShortIsRunByCI(t *testing.T) {
	script, err := os.ReadFile("../../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{} // "./pkg TestName"
	for _, m := range fullOnly.FindAllStringSubmatch(string(script), -1) {
		for _, name := range strings.Split(m[2], "|") {
			listed[m[1]+" "+name] = true
		}
	}
	readers := shortReaders(t, "../..")
	if len(readers) < 5 {
		t.Fatalf("found %d tests that read testing.Short, want the known ones", len(readers))
	}
	for _, r := range readers {
		if !listed[r] {
			t.Errorf("%s reads testing.Short, but .ci/run runs no full_only %s", r, strings.Replace(r, " ", " '", 1)+"'")
		}
	}
	for l := range listed {
		if !slices.Contains(readers, l) {
			t.Errorf(".ci/run runs %s in full, but no such test reads testing.Short", l)
		}
	}
}

// shortReaders returns "./pkg TestName" for every top-level Test
// function of the module under root whose body calls testing.Short, and
// fails any other function that calls it.
func shortReaders(t *testing.T, root string) []string {
	var out []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "out") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			switch {
			case !ok || !callsShort(fn):
			case strings.HasPrefix(fn.Name.Name, "Test") && fn.Recv == nil:
				out = append(out, "./"+filepath.ToSlash(rel)+" "+fn.Name.Name)
			default: // .ci/run could not name what it shortens
				t.Errorf("%s: %s reads testing.Short: read it in the Test function that calls it", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// callsShort reports whether fn's body calls testing.Short.
func callsShort(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Short" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == "testing" {
				found = true
			}
		}
		return !found
	})
	return found
}
