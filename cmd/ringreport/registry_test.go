package main

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/productrules"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// toyRule is a test-only placement rule: a key goes to live server
// (h mod 7) mod n, walking on for replicas. It exists to prove that a
// rule is one registry entry: nothing outside this test names it.
type toyRule struct{ skew int }

func (toyRule) Hash(key []byte) uint64 { return uint64(len(key)) * 2654435761 % 4294967291 }

func (r toyRule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	var live []int
	for i, s := range servers {
		if !s.Down {
			live = append(live, i)
		}
	}
	return toyPlacement{live: live, skew: r.skew}, nil
}

type toyPlacement struct {
	live []int
	skew int
}

func (p toyPlacement) Owners(h uint64, r int, dst []int) []int {
	for j := 0; j < r && j < len(p.live); j++ {
		dst = append(dst, p.live[(int(h%7)+p.skew+j)%len(p.live)])
	}
	return dst
}

var toyKind = productrules.Kind(rulekind.Profile{
	Name: "toy-rule", Doc: "A test-only rule.", Bits: 32, Mosaic: true,
	Params: []rulekind.Param{rulekind.Opt(rulekind.Param{Name: "skew", Type: rulekind.ParamInt, Min: 0, Max: 5, Default: "2",
		Doc: "Buckets to skip.", Prefix: "skew "})},
	New: func(spec placer.RuleSpec) (profile.Rule, error) {
		n, err := strconv.Atoi(spec.Opts["skew"])
		return toyRule{skew: n}, err
	},
})

// TestToyRuleEndToEnd registers a rule that no other file knows and builds
// a scenario with it: the parser accepts it and its parameter, the schema
// describes it, and every output names it, with no edit anywhere else.
func TestToyRuleEndToEnd(t *testing.T) {
	saved := registry.Kinds
	registry.Kinds = append(append([]rulekind.Kind(nil), saved...), toyKind)
	t.Cleanup(func() { registry.Kinds = saved })

	if !bytes.Contains(buildSchema(), []byte(`"rule-toy-rule"`)) {
		t.Error("the schema has no definition of the toy rule")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "scenarios")
	writeFile(t, filepath.Join(src, "toy.yaml"), []byte("title: Toy\nkeys: 200\nnodes: [a, b, c]\n"+
		"rules: [ring, {rule: toy-rule, skew: 3}]\nreplicas: 2\nprobes: [key-1]\nsteps:\n  - add: d\n  - fail: a\n"))
	var out, errs bytes.Buffer
	if code := run([]string{"build", "-o", filepath.Join(dir, "out"), src}, &out, &errs); code != exitOK {
		t.Fatalf("build: exit %d: %s", code, errs.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "out", "toy", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "toy-rule") || !strings.Contains(string(md), "skew 3") {
		t.Errorf("report.md does not name the toy rule with its parameter:\n%s", md)
	}
	var data struct {
		Rules []struct{ Label, Kind string }
	}
	js, err := os.ReadFile(filepath.Join(dir, "out", "toy", "data.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Rules) != 2 || data.Rules[1].Kind != "toy-rule" {
		t.Errorf("data.json rules = %+v", data.Rules)
	}

	writeFile(t, filepath.Join(src, "toy.yaml"), []byte("title: Toy\nkeys: 20\nnodes: [a]\nrules: [{rule: toy-rule, skew: 9}]\n"))
	errs.Reset()
	if code := run([]string{"validate", src}, &out, &errs); code == exitOK || !strings.Contains(errs.String(), "skew must be from 0 to 5") {
		t.Errorf("validate: exit %d, %q; want the toy parameter's bounds", code, errs.String())
	}
}

// TestNoRuleNamesOutsideRegistry checks that no non-test Go file spells a
// rule kind as a string literal except where the rule declares itself (the
// Name and Aliases of its Kind or Profile, in the rule packages), so that
// adding a rule never needs an edit elsewhere. The figure named ring
// (`render ring`, the rings of a step) is a figure, not a rule, and is
// allowed in the pipeline's one constant for it (internal/build/one.go)
// only.
func TestNoRuleNamesOutsideRegistry(t *testing.T) {
	names := map[string]bool{}
	for _, k := range registry.Kinds {
		names[k.Name] = true
		for _, a := range k.Aliases {
			names[a] = true
		}
	}
	root := "../.."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "out" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		// The product packages, and the readers of the products'
		// configuration files, speak their products' own words
		// ("distribution: ketama", the nginx format) and know nothing of
		// ringreport's rules.
		if strings.HasPrefix(rel, "internal/profile/") || strings.HasPrefix(rel, "internal/conformance/") ||
			strings.HasPrefix(rel, "internal/nodesfrom/") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		declared := map[*ast.BasicLit]bool{}
		if slices.Contains(rulePackages, filepath.Dir(rel)) {
			declared = ruleDeclarations(f)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING || declared[lit] {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err == nil && names[s] && !(rel == "internal/build/one.go" && s == "ring") {
				t.Errorf("%s: rule name %q as a literal; read it from the registry (internal/registry)", fset.Position(lit.Pos()), s)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rulePackages are where rules declare themselves.
var rulePackages = []string{"internal/ringrules", "internal/tablerules", "internal/productrules"}

// ruleDeclarations returns the string literals of f that a rule declares
// itself with: the value of a Name field and the elements of an Aliases
// field in a composite literal.
func ruleDeclarations(f *ast.File) map[*ast.BasicLit]bool {
	out := map[*ast.BasicLit]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, _ := kv.Key.(*ast.Ident)
		switch {
		case key == nil:
		case key.Name == "Name":
			if lit, ok := kv.Value.(*ast.BasicLit); ok {
				out[lit] = true
			}
		case key.Name == "Aliases":
			if cl, ok := kv.Value.(*ast.CompositeLit); ok {
				for _, e := range cl.Elts {
					if lit, ok := e.(*ast.BasicLit); ok {
						out[lit] = true
					}
				}
			}
		}
		return true
	})
	return out
}
