package schematest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// root is the repository's root, from this package's folder.
const root = "../../.."

// readSchema returns schema.json, the committed copy of what `ringreport
// schema` prints.
func readSchema(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(readSchema(t)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// yamlInstance decodes a YAML file into the JSON value that a YAML
// language server would validate.
func yamlInstance(t *testing.T, file string) (any, bool) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		return nil, false
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatal(err)
	}
	return inst, true
}

// TestSchemaAcceptsValidScenarios validates the example scenarios and the
// parser's valid test scenarios against the schema.
func TestSchemaAcceptsValidScenarios(t *testing.T) {
	sch := compileSchema(t)
	files, _ := filepath.Glob(filepath.Join(root, "scenarios", "*.yaml"))
	valid, _ := filepath.Glob(filepath.Join(root, "internal", "scenario", "testdata", "valid", "*.yaml"))
	for _, f := range append(files, valid...) {
		inst, ok := yamlInstance(t, f)
		if !ok {
			t.Errorf("%s: not YAML that converts to JSON", f)
			continue
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if len(files) == 0 {
		t.Fatal("no example scenarios")
	}
}

// TestSchemaRejects checks that structural mistakes that the parser
// rejects are also caught by the schema, so editors flag them.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	for _, name := range []string{
		"two-ops", "unknown-keys", "unknown-op", "unknown-rule", "rule-params", "rules-empty",
		"steps-not-list", "title-multiline", "negative-seed", "missing-required",
		"keys-file-and-count", "wrong-types", "huge-counts", "steps-shape", "expect",
		"sweep-two-params", "sweep-empty", "seeds-zero", "seeds-too-many", "sweep-unknown", "sweep-not-mapping",
	} {
		inst, ok := yamlInstance(t, filepath.Join(root, "internal", "scenario", "testdata", "bad", name+".yaml"))
		if !ok {
			t.Errorf("%s: not YAML that converts to JSON", name)
			continue
		}
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s: the schema accepts it, the parser does not", name)
		}
	}
}

// TestSchemaSnippets checks small scenarios, one feature each.
func TestSchemaSnippets(t *testing.T) {
	sch := compileSchema(t)
	const head = "title: T\nkeys: 10\nnodes: [a, b]\n"
	tests := []struct {
		name, yaml string
		ok         bool
	}{
		{"expect", "expect:\n  - {step: 1, rule: ring, moved_fraction: \"<= 0.2\"}\n  - {recurs: none}\n  - {cv: 0.1}\n", true},
		{"expect two metrics", "expect:\n  - {moved: \"< 5\", ideal: \"> 1\"}\n", false},
		{"expect no metric", "expect:\n  - {rule: ring}\n", false},
		{"expect bad bound", "expect:\n  - {cv: \"about 0.1\"}\n", false},
		{"maglev m", "rules: [{rule: maglev, m: 65537, label: big}]\n", true},
		{"ring m", "rules: [{rule: ring, m: 7}]\n", false},
		{"weights", "steps:\n  - weight: {a: 2}\n  - add: [{name: c, weight: 3}, d]\n  - remove: random\n  - recover: all\n", true},
		{"reserved name", "steps:\n  - add: random\n", false},
		{"sweep", "sweep: {vnodes: [1, 4, 16]}\nseeds: 20\n", true},
		{"sweep two params", "sweep: {vnodes: [1, 4], m: [7, 11]}\n", false},
		{"sweep empty", "sweep: {vnodes: []}\n", false},
		{"seeds zero", "seeds: 0\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "s.yaml")
			if err := os.WriteFile(file, []byte(head+tt.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			inst, _ := yamlInstance(t, file)
			if err := sch.Validate(inst); (err == nil) != tt.ok {
				t.Errorf("valid = %v, want %v (%v)", err == nil, tt.ok, err)
			}
		})
	}
}
