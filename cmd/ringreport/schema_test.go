package main

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

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
	if err := json.Unmarshal(schemaJSON(), &s); err != nil {
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
		if !strings.Contains(string(schemaJSON()), lim) {
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
	if !strings.Contains(string(schemaJSON()), `"maxItems": 1000`) || scenario.MaxExpect != 1000 {
		t.Errorf("expect's limit differs from scenario.MaxExpect")
	}
	if scenario.MaxKeys != 50_000_000 || scenario.MaxNodes != 10_000 || scenario.MaxSteps != 10_000 ||
		tablerules.MaxMaglevM != 1<<24 || scenario.MaxNameLen != 200 || scenario.MaxProbes != 64 {
		t.Errorf("internal/scenario's limits changed; update schema.json and this test")
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
	if err := json.Unmarshal(schemaJSON(), &s); err != nil {
		t.Fatal(err)
	}
	got := s.Properties.Nodes.AnyOf[2].Properties.Format.Enum
	if !slices.Equal(got, nodesfrom.Formats) {
		t.Errorf("schema's node file formats %v; nodesfrom.Formats %v", got, nodesfrom.Formats)
	}
}
