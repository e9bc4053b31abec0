package sim

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/registry"
)

// TestReadmeRuleTable checks the README's table of placement rules
// against the registry: one row per kind, in registry order, naming every
// parameter the kind accepts.
func TestReadmeRuleTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\| [^|]*\\| ([^|]*) \\|")
	var rows []string
	params := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		rows = append(rows, m[1])
		params[m[1]] = m[2]
	}
	var kinds []string
	for _, k := range registry.Kinds {
		kinds = append(kinds, k.Name)
		for _, p := range k.Params {
			if !strings.Contains(params[k.Name], "`"+p.Name+"`") {
				t.Errorf("README: the row of %s does not name its parameter `%s`", k.Name, p.Name)
			}
		}
	}
	if !slices.Equal(rows, kinds) {
		t.Errorf("README's rule table lists %v; the registry (registry.Kinds) has %v", rows, kinds)
	}
}
