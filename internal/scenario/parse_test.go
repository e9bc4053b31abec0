package scenario

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// fullSrc exercises every key and every operation.
const fullSrc = `# yaml-language-server: $schema=../schema.json
title: Adding and removing nodes
about: |
  Nine hundred keys, five nodes, two rules.
seed: 7
keys: {count: 900, prefix: "user:"}
nodes: [a, b, {name: c, weight: 2}, d, e]
rules:
  - ring
  - {rule: ring, vnodes: 1, label: "ring, 1 point per node"}
  - modulo
  - {rule: maglev, m: 65537, hash: xxhash64}
  - {rule: bounded, epsilon: 0.25, vnodes: 40}
  - {rule: multiprobe, probes: 21, hash: crc32}
  - ketama
replicas: 2
probes: ["user:42", key-7, 42]
steps:
  - add: f
  - add: [g, {name: h, weight: 3}]
  - fail: b
  - recover: b
  - fail: [a, c]
  - recover: all
  - vnodes: 240
  - replicas: 3
  - weight: {a: 2, d: 4}
  - remove: e
  - add: e
    note: Re-add the node that left
  - remove: random
`

var fullWant = &sim.Scenario{
	Name:  "full",
	Title: "Adding and removing nodes",
	About: "Nine hundred keys, five nodes, two rules.\n",
	Seed:  7,
	Keys:  keys.KeySpec{Count: 900, Prefix: "user:"},
	Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "b"}, {Name: "c", Weight: 2}, {Name: "d"}, {Name: "e"}},
	Rules: []placer.RuleSpec{
		{Kind: "ring", Label: "ring"},
		{Kind: "ring", Label: "ring, 1 point per node", VNodes: 1},
		{Kind: "modulo", Label: "modulo"},
		{Kind: "maglev", Label: "maglev", M: 65537, Hash: "xxhash64"},
		{Kind: "bounded", Label: "bounded", Epsilon: 0.25, VNodes: 40},
		{Kind: "multiprobe", Label: "multiprobe", Probes: 21, Hash: "crc32"},
		{Kind: "libketama", Label: "ketama"},
	},
	Replicas: 2,
	Probes:   []string{"user:42", "key-7", "42"},
	Steps: []timeline.Step{
		{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "f"}}},
		{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "g"}, {Name: "h", Weight: 3}}},
		{Op: timeline.OpFail, Nodes: []timeline.NodeSpec{{Name: "b"}}},
		{Op: timeline.OpRecover, Nodes: []timeline.NodeSpec{{Name: "b"}}},
		{Op: timeline.OpFail, Nodes: []timeline.NodeSpec{{Name: "a"}, {Name: "c"}}},
		{Op: timeline.OpRecover, All: true},
		{Op: timeline.OpVNodes, Value: 240},
		{Op: timeline.OpReplicas, Value: 3},
		{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 2}, {Name: "d", Weight: 4}}},
		{Op: timeline.OpRemove, Nodes: []timeline.NodeSpec{{Name: "e"}}},
		{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "e"}}, Note: "Re-add the node that left"},
		{Op: timeline.OpRemove, Random: true},
	},
}

// minimal returns the scenario that "title: T, keys: 10, nodes: [a]"
// gives, for tests to adjust.
func minimal(name string) *sim.Scenario {
	return &sim.Scenario{
		Name: name, Title: "T", Seed: sim.DefaultSeed, Keys: keys.KeySpec{Count: 10},
		Nodes: []timeline.NodeSpec{{Name: "a"}}, Rules: defaultRules(), Replicas: 1,
	}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string // file name passed to Parse
		src  string
		want func() *sim.Scenario
	}{
		{"dir/full.yaml", fullSrc, func() *sim.Scenario { return fullWant }},
		{"minimal.yaml", "title: T\nkeys: 10\nnodes: [a]\n", func() *sim.Scenario { return minimal("minimal") }},
		{`dir\sub\win.yml`, "---\ntitle: T\nkeys: 10\nnodes: [a]\n...\n", func() *sim.Scenario { return minimal("win") }},
		{"noext", "title: T\nkeys: 10\nnodes:\n  - a\n", func() *sim.Scenario { return minimal("noext") }},
		{"count.yaml", "title: T\nkeys: 10\nnodes: 3\n", func() *sim.Scenario {
			s := minimal("count")
			s.Nodes = []timeline.NodeSpec{{Name: "node-1"}, {Name: "node-2"}, {Name: "node-3"}}
			return s
		}},
		{"seed.yaml", "title: T\nseed: 18446744073709551615\nkeys: 10\nnodes: [a]\n", func() *sim.Scenario {
			s := minimal("seed")
			s.Seed = 1<<64 - 1
			return s
		}},
		{"seed0.yaml", "title: T\nseed: 0\nkeys: 0x10\nnodes: [a]\n", func() *sim.Scenario {
			s := minimal("seed0")
			s.Seed, s.Keys.Count = 0, 16
			return s
		}},
		{"file.yaml", "title: T\nkeys: {file: sub/keys.txt}\nnodes: [a]\n", func() *sim.Scenario {
			s := minimal("file")
			s.Keys = keys.KeySpec{List: []string{"k1", " k2", "k3"}}
			return s
		}},
		{"anchor.yaml", "title: T\nkeys: 10\nnodes: &n [a]\nrules: [jump, rendezvous, slots]\nprobes: []\nsteps: []\n", func() *sim.Scenario {
			s := minimal("anchor")
			s.Rules = []placer.RuleSpec{{Kind: "jump", Label: "jump"}, {Kind: "rendezvous", Label: "rendezvous"}, {Kind: "slots", Label: "slots"}}
			return s
		}},
		{"unicode.yaml", "title: Zürich – 東京\nkeys: 10\nnodes: [\"é\", ü]\n", func() *sim.Scenario {
			s := minimal("unicode")
			s.Title, s.Nodes = "Zürich – 東京", []timeline.NodeSpec{{Name: "é"}, {Name: "ü"}}
			return s
		}},
	}
	opts := Options{ReadFile: func(rel string) ([]byte, error) {
		if rel != "sub/keys.txt" {
			return nil, os.ErrNotExist
		}
		return []byte("k1\r\n\n k2\n  \r\nk3"), nil
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.name, []byte(tt.src), opts)
			if err != nil {
				t.Fatalf("Parse: unexpected error:\n%v", err)
			}
			if want := tt.want(); !reflect.DeepEqual(got, want) {
				t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseErrorList(t *testing.T) {
	_, err := Parse("x.yaml", []byte("title: 5\nkeys: 0\nnodes: []\n"), Options{})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Parse error is %T, want ErrorList", err)
	}
	want := "x.yaml:1:8: title must be a string; got the number 5 (quote it to use it as text)\n" +
		"x.yaml:2:7: keys must be at least 1; got 0\n" +
		"x.yaml:3:8: nodes must list at least one node, such as [a, b, c]"
	if err.Error() != want {
		t.Errorf("Error():\n%s\nwant:\n%s", err, want)
	}
	var one *Error
	if !errors.As(err, &one) || one.Line != 1 || one.Col != 8 {
		t.Errorf("errors.As(*Error) = %+v, want the first error at 1:8", one)
	}
}

func TestParseKeysFileWithoutReader(t *testing.T) {
	_, err := Parse("k.yaml", []byte("title: T\nkeys: {file: keys.txt}\nnodes: [a]\n"), Options{})
	want := "k.yaml:2:14: keys files cannot be read here; use keys: <count> or {count: <count>, prefix: <text>}"
	if err == nil || err.Error() != want {
		t.Errorf("Parse error:\n%v\nwant:\n%s", err, want)
	}
}

// TestParseLimits: the fixed limits, and the default ones, refuse a
// scenario just over them at its position, naming the flag that raises
// them. A keys file over the default key limit is not made here (50
// million keys took 0.9 s of CPU, four fifths of the package's tests):
// TestLimits refuses one over Limits.Keys, which the keys file's check
// reads as the other limits do, from the parser's limits with their
// defaults, and TestDefaultLimits holds those defaults to 50,000,000 keys.
func TestParseLimits(t *testing.T) {
	check := func(t *testing.T, src, want string) {
		t.Helper()
		_, err := Parse("l.yaml", []byte(src), Options{})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse error:\n%v\nwant it to contain %q", err, want)
		}
	}
	base := "title: T\nkeys: 10\n"
	t.Run("steps", func(t *testing.T) {
		check(t, base+"nodes: [a]\nsteps: ["+strings.Repeat("{vnodes: 1},", MaxSteps+1)+"]\n",
			"l.yaml:4:8: steps: 10,001 steps exceed the limit of 10,000; raise it with -max-steps")
	})
	t.Run("nodes", func(t *testing.T) {
		check(t, base+"nodes: ["+strings.Repeat("a,", MaxNodes+1)+"]\n",
			"l.yaml:3:8: nodes: 10,001 nodes exceed the limit of 10,000; raise it with -max-nodes")
	})
	t.Run("node-steps", func(t *testing.T) {
		check(t, base+"nodes: 1000\nsteps: ["+strings.Repeat("{vnodes: 1},", 1999)+"{add: [x, y]}]\n",
			"l.yaml:3:8: node-steps: 1,002 node names over 2,001 states is 2,005,002 node-steps, over the limit of 2,000,000; raise it with -max-node-steps, or use fewer nodes or steps")
	})
	t.Run("node-steps count names", func(t *testing.T) {
		// A node removed and added again is one name: 2,000 steps of an
		// add/remove cycle over 100 nodes are 101 names × 2,001 states,
		// not the 1,100 names that counting every add makes of them.
		src := base + "nodes: 100\nsteps: [" + strings.Repeat("{add: x}, {remove: x},", 1000) + "]\n"
		// (The cost estimate, which is not the point here, is over the
		// default work and memory limits: 2,001 steps of figures.)
		if _, err := Parse("l.yaml", []byte(src), Options{Limits: Limits{Memory: 1 << 40, Work: 1 << 50, Output: 1 << 40}}); err != nil {
			t.Errorf("an add/remove cycle of one node: %v", err)
		}
	})
	t.Run("probes", func(t *testing.T) {
		check(t, base+"nodes: [a]\nprobes: ["+strings.Repeat("k,", MaxProbes+1)+"]\n",
			"l.yaml:4:9: probes lists 65 keys; at most 64 (MaxProbes) are allowed")
	})
}

func TestSuggest(t *testing.T) {
	for _, tt := range []struct{ word, want string }{
		{"vnode", "vnodes"}, {"VNodes", "vnodes"}, {"hsh", "hash"}, {"hsah", ""}, {"labl", "label"},
		{"x", ""}, {"mm", "m"}, {"colour", ""}, {"", ""},
	} {
		if got := suggest(tt.word, ruleMapKeys()); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
	if got := suggest("titel", topKeys); got != "title" {
		t.Errorf("suggest(titel, topKeys) = %q, want title", got)
	}
}

func TestParseValidFile(t *testing.T) {
	const file = "testdata/valid/keys-file.yaml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(file, src, Options{ReadFile: dirReader("testdata/valid")})
	if err != nil {
		t.Fatalf("Parse: unexpected error:\n%v", err)
	}
	want := &sim.Scenario{
		Name: "keys-file", Title: "Keys from a file", About: "The keys come from data/keys.txt, one per line.",
		Seed: sim.DefaultSeed, Keys: keys.KeySpec{List: []string{"user:1", "user:2", "user:42", "user:1"}},
		Nodes:    []timeline.NodeSpec{{Name: "cache-a"}, {Name: "cache-b", Weight: 2}, {Name: "cache-c"}},
		Rules:    []placer.RuleSpec{{Kind: "ring", Label: "ring"}, {Kind: "jump", Label: "jump", Hash: "md5"}},
		Replicas: 1, Probes: []string{"user:42"},
		Steps: []timeline.Step{
			{Op: timeline.OpFail, Random: true},
			{Op: timeline.OpRecover, All: true},
			{Op: timeline.OpRemove, Nodes: []timeline.NodeSpec{{Name: "cache-b"}}, Note: "Decommission the big node"},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
	}
}

// TestParseKeysFileBOM: a keys file that starts with a UTF-8 byte order
// mark, as Excel and Notepad write one, reads as if it had none, both one
// key per line and as key,weight lines under a header.
func TestParseKeysFileBOM(t *testing.T) {
	files := map[string]string{"keys.txt": "\ufeffuser:1\nuser:2\n", "keys.csv": "\ufeffKey,Weight\r\nuser:1,5\r\nuser:2,7\r\n"}
	opts := Options{ReadFile: func(rel string) ([]byte, error) { return []byte(files[rel]), nil }}
	for _, file := range []string{"keys.txt", "keys.csv"} {
		s, err := Parse("bom.yaml", []byte("title: T\nkeys: {file: "+file+"}\nnodes: [a]\n"), opts)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if want := []string{"user:1", "user:2"}; !reflect.DeepEqual(s.Keys.List, want) {
			t.Errorf("%s: keys %q, want %q", file, s.Keys.List, want)
		}
	}
}

// TestParseNamesNormalised: names are read in Unicode normalization form
// C, so a node, label or zone typed with a combining accent is the same as
// one typed precomposed, wherever it is named again (a step, expect:,
// compare:).
func TestParseNamesNormalised(t *testing.T) {
	const src = "title: T\nkeys: 10\nnodes: [{name: \"e\\u0301\", zone: \"zo\\u0301ne\"}, b]\n" +
		"rules: [{rule: ring, label: \"a\\u0301\"}, {rule: modulo, label: m}]\n" +
		"steps: [{weight: {\"\\u00e9\": 2}}, {remove: {zone: \"z\\u00f3ne\"}}]\n" +
		"expect: [{rule: \"\\u00e1\", moved: \">= 0\"}]\ncompare: [{from: \"\\u00e1\", to: m}]\n"
	s, err := Parse("nfc.yaml", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Nodes[0].Name != "\u00e9" || s.Nodes[0].Labels.Zone != "z\u00f3ne" || s.Rules[0].Label != "\u00e1" {
		t.Errorf("names not in NFC: %q %q %q", s.Nodes[0].Name, s.Nodes[0].Labels.Zone, s.Rules[0].Label)
	}
	if s.Steps[0].Nodes[0].Name != "\u00e9" || len(s.Expect) != 1 || s.Expect[0].Rule != "\u00e1" || s.Migrations[0].From != "\u00e1" {
		t.Errorf("a name given again does not match: %+v %+v %+v", s.Steps[0], s.Expect, s.Migrations)
	}
}
