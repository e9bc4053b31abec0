package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/ringreport/ringreport/internal/nodesfrom"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/tablerules"
)

// TestSchemaCommittedCopy checks that schema.json at the repository root,
// which the example scenarios and editors use, is what `ringreport
// schema` prints.
func TestSchemaCommittedCopy(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"schema"}, &out, &errs); code != exitOK {
		t.Fatalf("ringreport schema: exit %d: %s", code, errs.String())
	}
	committed, err := os.ReadFile("../../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), committed) {
		t.Errorf("schema.json differs from the output of ringreport schema; run: go run ./cmd/ringreport schema > schema.json")
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
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
	files, _ := filepath.Glob("../../scenarios/*.yaml")
	valid, _ := filepath.Glob("../../internal/scenario/testdata/valid/*.yaml")
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
		inst, ok := yamlInstance(t, "../../internal/scenario/testdata/bad/"+name+".yaml")
		if !ok {
			t.Errorf("%s: not YAML that converts to JSON", name)
			continue
		}
		if err := sch.Validate(inst); err == nil {
			t.Errorf("%s: the schema accepts it, the parser does not", name)
		}
	}
}

// TestSchemaMatchesParser checks the schema's rule names, parameters,
// hashes and limits against internal/scenario.
func TestSchemaMatchesParser(t *testing.T) {
	var s struct {
		Properties  map[string]json.RawMessage
		Definitions map[string]struct {
			Enum       []any
			Maximum    *float64
			Properties map[string]json.RawMessage
			AnyOf      []struct{ Enum []string }
		}
	}
	if err := json.Unmarshal(schemaJSON, &s); err != nil {
		t.Fatal(err)
	}
	d := s.Definitions
	var names []string
	for _, k := range registry.Kinds {
		if !slices.ContainsFunc(k.Params, func(p rulekind.Param) bool { return p.Required }) {
			names = append(names, k.Name)
			names = append(names, k.Aliases...)
		}
		def, ok := d["rule-"+k.Name]
		if !ok {
			t.Errorf("no definition rule-%s", k.Name)
			continue
		}
		var params []string
		for p := range def.Properties {
			if p != "rule" && p != "label" {
				params = append(params, p)
			}
		}
		slices.Sort(params)
		var want []string
		for _, p := range k.Params {
			want = append(want, p.Name)
		}
		slices.Sort(want)
		if !slices.Equal(params, want) {
			t.Errorf("rule-%s has parameters %v; the registry says %v", k.Name, params, want)
		}
	}
	if got := d["rule"].AnyOf[0].Enum; !slices.Equal(got, names) {
		t.Errorf("bare rule names %v; the registry (registry.Kinds) has %v", got, names)
	}
	var hashes []string
	for _, h := range d["hash"].Enum {
		hashes = append(hashes, h.(string))
	}
	if !slices.Equal(hashes, scenario.HashNames) {
		t.Errorf("hash enum %v; internal/scenario.HashNames has %v", hashes, scenario.HashNames)
	}
	for name, want := range map[string]int{
		"vnodes": scenario.MaxVNodes, "replicas": scenario.MaxReplicas, "weight": scenario.MaxNodeWeight,
	} {
		if m := d[name].Maximum; m == nil || int(*m) != want {
			t.Errorf("definition %s: maximum %v, want %d", name, m, want)
		}
	}
	for _, lim := range []string{`"maximum": 50000000`, `"maxItems": 10000`, `"maximum": 16777216`, `"maxLength": 200`, `"maxItems": 64`} {
		if !strings.Contains(string(schemaJSON), lim) {
			t.Errorf("schema.json lacks %s", lim)
		}
	}
	var metrics []string
	for m := range d["expectation"].Properties {
		if m != "step" && m != "rule" {
			metrics = append(metrics, m)
		}
	}
	slices.Sort(metrics)
	if want := slices.Sorted(slices.Values(sim.MetricNames)); !slices.Equal(metrics, want) {
		t.Errorf("expectation metrics %v; sim.MetricNames has %v", metrics, want)
	}
	if !strings.Contains(string(schemaJSON), `"maxItems": 1000`) || scenario.MaxExpect != 1000 {
		t.Errorf("expect's limit differs from scenario.MaxExpect")
	}
	if scenario.MaxKeys != 50_000_000 || scenario.MaxNodes != 10_000 || scenario.MaxSteps != 10_000 ||
		tablerules.MaxMaglevM != 1<<24 || scenario.MaxNameLen != 200 || scenario.MaxProbes != 64 {
		t.Errorf("internal/scenario's limits changed; update schema.json and this test")
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
			writeFile(t, file, []byte(head+tt.yaml))
			inst, _ := yamlInstance(t, file)
			if err := sch.Validate(inst); (err == nil) != tt.ok {
				t.Errorf("valid = %v, want %v (%v)", err == nil, tt.ok, err)
			}
		})
	}
}

// TestSchemaNodeFormats keeps the schema's nodes: {from:} formats in step
// with internal/nodesfrom.
func TestSchemaNodeFormats(t *testing.T) {
	var s struct {
		Properties struct {
			Nodes struct {
				AnyOf []struct {
					Properties struct {
						Format struct{ Enum []string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(schemaJSON, &s); err != nil {
		t.Fatal(err)
	}
	got := s.Properties.Nodes.AnyOf[2].Properties.Format.Enum
	if !slices.Equal(got, nodesfrom.Formats) {
		t.Errorf("schema's node file formats %v; nodesfrom.Formats %v", got, nodesfrom.Formats)
	}
}
