// Package scenario turns one YAML scenario file into a validated
// *sim.Scenario, the first stage of ringreport's pipeline:
//
//	scenarios/*.yaml ──► scenario.Parse ──► sim.Replay ──► renderers
//
// Parse decodes the file with go.yaml.in/yaml/v3 into a yaml.Node tree and
// walks the tree by hand, so that every value keeps its line and column and
// every problem can be reported where it is: wrong types, unknown keys (with
// a "did you mean" for obvious typos), duplicate keys and node names, counts
// out of range, unknown rules, hashes and operations, unsafe names and keys
// files outside the scenario's directory. Once the structure is sound, Parse
// replays the membership changes with sim.NewTimeline and maps each problem
// it finds (removing a node that is not a member, say) back to the step, or
// the node entry within the step, that caused it.
//
// Parse never stops at the first problem: it returns every one it finds as
// an ErrorList sorted by position, printed one per line in the go/token
// form "file:line:col: message". Parse does no file-system access of its
// own; keys files are read through Options.ReadFile.
//
// # Format
//
// A scenario file holds exactly one YAML document, a mapping:
//
//	title: Adding and removing nodes       # required
//	about: |                               # optional Markdown
//	  Nine hundred keys, five nodes, two rules.
//	seed: 1                                # optional, default sim.DefaultSeed
//	keys: 900                              # or {count: 900, prefix: "user:"} or {file: keys.txt}
//	nodes: [a, b, c, d, e]                 # or a count (node-1..node-N) or {name: a, weight: 2} entries
//	rules:                                 # optional, default [ring, modulo]
//	  - ring
//	  - {rule: ring, vnodes: 1, label: "ring, 1 point per node"}
//	replicas: 1                            # optional, default 1
//	probes: ["user:42", "key-7"]           # optional keys to track
//	steps:                                 # optional; one operation each, plus an optional note
//	  - add: f                             # a name, a list, {name: f, weight: 2} or a list mixing both
//	  - remove: random                     # a name, a list or random
//	  - fail: b                            # a name, a list or random
//	  - recover: b                         # a name, a list or all
//	  - vnodes: 240
//	  - replicas: 3
//	  - weight: {a: 2}
//	  - add: c
//	    note: Re-add the node that left
//
// RuleKinds lists the known rules and the parameters each accepts; HashNames
// lists the key hashes. The Max constants bound every count so that a
// scenario cannot ask the simulator for unbounded work. YAML aliases are
// rejected outright, so alias "bombs" cannot expand.
package scenario
