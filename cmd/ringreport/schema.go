package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/sim"
)

// schemaTemplate is the JSON Schema (draft-07) of the scenario format but
// for the rules: the line `"@generated": null,` in its definitions stands
// for the definitions built from the rule registry (registry.Kinds).
//
//go:embed schema.tmpl.json
var schemaTemplate string

// schemaJSON returns the JSON Schema of the scenario format. schema_test.go
// keeps it in step with internal/scenario and with the copy at the
// repository root. It is built on first use, not when the command starts:
// building it is most of the command's start-up (2 ms of CPU), and only
// schema needs it.
var schemaJSON = sync.OnceValue(buildSchema)

// generatedMarker is the template line that ruleDefinitions replace.
const generatedMarker = `    "@generated": null,` + "\n"

func buildSchema() []byte {
	defs := ruleDefinitions()
	var b bytes.Buffer
	for _, d := range defs {
		js, err := json.MarshalIndent(d.value, "    ", "  ")
		if err != nil {
			panic(err) // the values are built here, from plain types
		}
		if strings.Contains(schemaTemplate, "\n    "+strconv.Quote(d.name)+": {") {
			panic("schema: definition " + d.name + " is both generated and in schema.tmpl.json")
		}
		fmt.Fprintf(&b, "    %q: %s,\n", d.name, js)
	}
	if strings.Count(schemaTemplate, generatedMarker) != 1 {
		panic("schema.tmpl.json must hold the generated marker once")
	}
	return []byte(strings.Replace(schemaTemplate, generatedMarker, b.String(), 1))
}

// obj is a JSON object whose keys keep their order.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.k)
		v, err := json.Marshal(e.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

type definition struct {
	name  string
	value obj
}

// ruleDefinitions are the schema's definitions of rules: "rule" (a bare
// name or one of the mappings), one "rule-<name>" per kind, and one per
// parameter that several kinds share, named after the parameter.
func ruleDefinitions() []definition {
	// A parameter is shared when several kinds declare it alike; a kind
	// whose parameter of the same name differs (libmemcached's hash) has
	// its own inline.
	uses, first := map[string]int{}, map[string]string{}
	for _, k := range registry.Kinds {
		for _, p := range k.Params {
			sig := paramSignature(p)
			if _, ok := first[p.Name]; !ok {
				first[p.Name] = sig
			}
			if first[p.Name] == sig {
				uses[p.Name]++
			}
		}
	}
	var names []string
	anyOf := []any{nil}
	var defs, shared []definition
	seen := map[string]bool{}
	for _, k := range registry.Kinds {
		if !slices.ContainsFunc(k.Params, func(p rulekind.Param) bool { return p.Required }) {
			names = append(names, k.Name)
			names = append(names, k.Aliases...)
		}
		spelling := kv{"const", k.Name}
		if len(k.Aliases) > 0 {
			spelling = kv{"enum", append([]string{k.Name}, k.Aliases...)}
		}
		props := obj{{"rule", obj{spelling, {"description", k.Doc}}}, {"label", ref("label")}}
		for _, p := range k.Params {
			if uses[p.Name] < 2 || first[p.Name] != paramSignature(p) {
				props = append(props, kv{p.Name, paramSchema(p)})
				continue
			}
			props = append(props, kv{p.Name, ref(p.Name)})
			if !seen[p.Name] {
				seen[p.Name] = true
				shared = append(shared, definition{p.Name, paramSchema(p)})
			}
		}
		required := []string{"rule"}
		for _, p := range k.Params {
			if p.Required {
				required = append(required, p.Name)
			}
		}
		defs = append(defs, definition{"rule-" + k.Name, obj{
			{"type", "object"}, {"additionalProperties", false}, {"required", required}, {"properties", props}}})
		anyOf = append(anyOf, ref("rule-"+k.Name))
	}
	anyOf[0] = obj{{"type", "string"}, {"enum", names}}
	rule := definition{"rule", obj{
		{"description", "A placement rule: a bare name for its defaults, or a mapping with rule, an optional label and the rule's parameters."},
		{"anyOf", anyOf}}}
	return append(append(append(shared, rule), defs...), expectationDefinition())
}

// expectationDefinition is the schema of an expect: entry: step, rule and
// exactly one metric of sim.MetricNames with its bound.
func expectationDefinition() definition {
	props := obj{
		{"step", obj{{"type", "integer"}, {"minimum", 0}, {"maximum", 10000}, {"description", "The step the bound applies to; default every step."}}},
		{"rule", obj{{"type", "string"}, {"description", "The label of the rule the bound applies to; default every rule."}}},
	}
	var one []any
	for _, m := range sim.MetricNames {
		bound := ref("bound")
		if m == "recurs" {
			bound = obj{{"description", "The earlier step whose placement this step repeats, or none."},
				{"anyOf", []any{ref("bound"), obj{{"type", "string"}, {"pattern", `^\s*(==|!=)?\s*none\s*$`}}}}}
		}
		props = append(props, kv{m, bound})
		one = append(one, obj{{"required", []string{m}}})
	}
	return definition{"expectation", obj{{"type", "object"}, {"additionalProperties", false}, {"properties", props},
		{"description", "A bound on one metric (by its data.json name), optionally for one step and one rule, that the replay must meet."},
		{"oneOf", one}}}
}

// paramSignature is what makes two declarations of a parameter alike.
func paramSignature(p rulekind.Param) string {
	return fmt.Sprintf("%d %d %d %q %q %q", p.Type, p.Min, p.Max, p.Values, p.Default, p.Doc)
}

func ref(name string) obj { return obj{{"$ref", "#/definitions/" + name}} }

// paramSchema is the schema of one parameter's value.
func paramSchema(p rulekind.Param) obj {
	doc := p.Doc
	if p.Default != "" {
		doc += " Default " + p.Default + "."
	}
	var o obj
	switch p.Type {
	case rulekind.ParamInt, rulekind.ParamPrime:
		o = obj{{"type", "integer"}, {"minimum", p.Min}, {"maximum", p.Max}}
	case rulekind.ParamFloat:
		o = obj{{"type", "number"}, {"exclusiveMinimum", 0}}
		if p.Max > 0 {
			o = append(o, kv{"maximum", p.Max})
		}
	case rulekind.ParamBool:
		o = obj{{"type", "boolean"}}
	case rulekind.ParamEnum:
		o = obj{{"type", "string"}, {"enum", p.Values}}
	case rulekind.ParamString:
		o = obj{{"type", "string"}}
	case rulekind.ParamCounts:
		o = obj{{"type", "object"}, {"minProperties", 1}, {"additionalProperties", obj{{"type", "integer"}, {"minimum", p.Min}, {"maximum", p.Max}}}}
	}
	o = append(o, kv{"description", doc})
	if p.Default != "" && p.Type != rulekind.ParamEnum && p.Type != rulekind.ParamBool {
		if f, err := strconv.ParseFloat(p.Default, 64); err == nil {
			o = append(o, kv{"examples", []float64{f}})
		}
	}
	return o
}

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", "", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ringreport schema: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	if _, err := stdout.Write(schemaJSON()); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	return exitOK
}
