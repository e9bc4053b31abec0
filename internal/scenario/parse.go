package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"go.yaml.in/yaml/v3"
)

// Limits on what a scenario may ask of the simulator. A value over a limit
// is an error that names the limit.
const (
	MaxKeys       = 50_000_000       // keys, generated or read from a keys file
	MaxNodes      = 10_000           // entries in the starting nodes list (or its count); at most timeline.MaxNodeIDs distinct names over the steps
	MaxVNodes     = placer.MaxVNodes // points per unit of weight (rule vnodes, vnodes steps)
	MaxSteps      = 10_000           // entries in steps
	MaxReplicas   = 64               // preference-list length (replicas, replicas steps)
	MaxProbes     = 64               // entries in probes (a multiprobe rule's probes are its own parameter)
	MaxNodeWeight = 10_000           // a node's weight (a key's request count is keys.MaxKeyWeight)
	MaxNameLen    = 200              // bytes in a node name, rule label, probe or key prefix
	MaxNoteLen    = 2000             // bytes in a step's note

	// MaxMarkdownDepth bounds how deeply about's Markdown nests (block
	// quotes, list items, emphasis, links, open brackets; see
	// prose.Check): CommonMark parsers take time quadratic in the
	// nesting, so the bound is what keeps rendering linear.
	MaxMarkdownDepth = 16
	// MaxMarkdownRuns bounds the runs of "*", "_" and "~" that could be
	// emphasis in one paragraph of about: goldmark pairs them up in time
	// quadratic in their number.
	MaxMarkdownRuns = 1000

	// MaxNodeSteps is the default of Limits.NodeSteps: distinct node
	// names × (steps + 1), the membership entries sim.NewTimeline may
	// store, since it keeps a full member list per step.
	MaxNodeSteps = 2_000_000
)

// Options configures Parse.
type Options struct {
	// ReadFile returns the contents of a keys file, given its path
	// relative to the scenario's directory. The path is slash-separated,
	// cleaned, satisfies fs.ValidPath and has no ".." component, so it
	// suits fs.ReadFile on an os.DirFS or os.Root of that directory. Nil
	// makes keys files an error. ReadFile may stop reading after
	// Limits.KeysFileBytes+1 bytes: a longer result is an error.
	ReadFile func(rel string) ([]byte, error)
	// Limits bounds the scenario; zero fields take DefaultLimits.
	Limits Limits
}

// Parse decodes and validates one scenario file. name is the path used in
// error messages (e.g. "scenarios/ring.yaml"); the scenario's Name comes from
// it (see Name). On failure Parse returns a nil
// Scenario and an ErrorList holding every problem found, sorted by
// position. Parse never panics.
func Parse(name string, src []byte, opts Options) (*sim.Scenario, error) {
	s, _, err := parse(name, src, opts)
	return s, err
}

// parse is Parse that also returns the plan of the scenario's sweep: and
// seeds: (see ParseStudy).
func parse(name string, src []byte, opts Options) (*sim.Scenario, sweep.Plan, error) {
	p := &parser{file: name, src: src, opts: opts, lim: opts.Limits.withDefaults()}
	var s *sim.Scenario
	if int64(len(src)) > p.lim.FileBytes {
		p.errs = append(p.errs, &Error{File: name, Msg: fmt.Sprintf("file size: %s exceed the limit of %s; raise it with -max-file-size", Bytes(int64(len(src))), Bytes(p.lim.FileBytes))})
	} else if root := p.decode(src); root != nil {
		s = p.scenario(root)
	}
	if len(p.errs) > 0 {
		p.errs.Sort()
		return nil, sweep.Plan{}, p.errs
	}
	return s, p.study.plan, nil
}

// parser holds the state of one Parse call.
type parser struct {
	file string
	src  []byte
	opts Options
	errs ErrorList
	// nodesVal is the value of the top-level nodes key, and nodeEntries
	// the entry behind each starting NodeSpec (nil for the count form);
	// steps holds the positions of each step. They place Timeline errors.
	nodesVal    *yaml.Node
	nodeEntries []*yaml.Node
	steps       []stepPos
	// nodesIntact records that the starting members are known (despite
	// errors in their weights), stepsBroken that the steps list as a
	// whole could not be read, and seedBroken that the seed could not,
	// so that random choices are unknown: what the timeline can check.
	nodesIntact, stepsBroken, seedBroken bool
	// aliased records that the file has aliases, which were reported
	// once and are otherwise skipped, so the Timeline would mislead.
	aliased bool
	// lim are the limits in force; keysVal is the value of keys;
	// maxVNodes and maxWeight are the largest vnodes and weight given, at
	// maxVNodesAt and maxWeightAt. They place limit errors.
	lim                      Limits
	keysVal                  *yaml.Node
	maxVNodes, maxWeight     int
	maxVNodesAt, maxWeightAt *yaml.Node
	// study holds sweep: and seeds: from reading them to checking them,
	// and the plan they give (sweep.go).
	study studyState
}

// decode parses src as exactly one YAML document and returns its root
// node, or nil after reporting why there is none.
func (p *parser) decode(src []byte) (root *yaml.Node) {
	defer func() {
		if r := recover(); r != nil { // a bug in the YAML library, not in the input
			p.errs = append(p.errs, &Error{File: p.file, Line: 1, Col: 1, Msg: fmt.Sprintf("cannot parse the file: internal error in the YAML decoder: %v", r)})
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			p.errs = append(p.errs, &Error{File: p.file, Line: 1, Col: 1, Msg: "the file is empty; want a mapping with at least title, keys and nodes"})
		} else {
			p.syntaxError(src, err)
		}
		return nil
	}
	p.rejectSecondDocument(dec, src)
	root = doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == tagNull {
		p.errorf(root, "the document is empty; want a mapping with at least title, keys and nodes")
		return nil
	}
	p.aliased = p.rejectAliases(root)
	return root
}

// rejectSecondDocument reports anything after the first document.
func (p *parser) rejectSecondDocument(dec *yaml.Decoder, src []byte) {
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case errors.Is(err, io.EOF):
	case err != nil:
		p.syntaxError(src, err)
	default:
		p.errorf(&extra, "a second YAML document starts here; a scenario file holds exactly one, so remove the \"---\" and what follows or move it to a file of its own")
	}
}

// syntaxError turns yaml's "yaml: line N: msg" into an Error at line N,
// column 1, pointing at a tab that indents that line or the next instead
// when there is one.
func (p *parser) syntaxError(src []byte, err error) {
	line, msg := yamlLine(strings.TrimPrefix(err.Error(), "yaml: "))
	col := 1
	if line == 0 {
		line, col = badByte(src)
	}
	if line == 0 {
		line, col = locate(src, msg)
	}
	if l, c := tabIndent(src, line); l > 0 {
		line, col, msg = l, c, msg+"; indent with spaces, not tabs"
	} else if strings.HasPrefix(msg, "mapping values are not allowed") {
		msg += `; quote a value that holds ": ", such as title: "Growth: adding a node"`
	}
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Col: col, Msg: msg})
}

// parserProblems are the messages of yaml's parser (as opposed to its
// scanner). yaml.v3 reports their line 0-based, so yamlLine adds one.
// The golden tests in testdata/bad pin this behaviour.
var parserProblems = []string{
	"did not find expected", "found duplicate %", "found incompatible YAML document", "found undefined tag handle",
}

// yamlLine splits "line N: msg" into a 1-based line and the message; the
// line is 0 when msg has none.
func yamlLine(msg string) (int, string) {
	line := 0
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, m, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				line, msg = n, m
			}
		}
	}
	for _, prefix := range parserProblems {
		if strings.HasPrefix(msg, prefix) {
			return line + 1, msg
		}
	}
	return line, msg
}

// tabIndent returns the position of the first tab in the indentation of
// line or the line after it, or 0, 0.
func tabIndent(src []byte, line int) (int, int) {
	for l := line; l > 0 && l <= line+1; l++ {
		text := lineText(src, l)
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 {
			return l, i + 1
		}
	}
	return 0, 0
}

// badByte returns the position of the first byte that YAML does not allow
// in a file (a control character or invalid UTF-8), or 0, 0.
func badByte(src []byte) (line, col int) {
	line, col = 1, 1
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		switch {
		case r == utf8.RuneError && size <= 1, r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0x7F:
			return line, col
		case r == '\n':
			line, col = line+1, 1
		default:
			col++
		}
		src = src[size:]
	}
	return 0, 0
}

// locate finds where yaml reports msg without a line, such as "mapping
// values are not allowed in this context": at the end of the shortest
// prefix of src that fails with msg, found by bisection. It returns 1, 1
// when no prefix does.
func locate(src []byte, msg string) (line, col int) {
	fails := func(n int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(src[:n]))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if err == nil {
				continue
			}
			return strings.HasSuffix(err.Error(), msg)
		}
	}
	lo, hi := 0, len(src) // fails(hi) holds, fails(lo) does not
	if !fails(hi) {
		return 1, 1
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	line = 1 + bytes.Count(src[:hi-1], []byte("\n"))
	start := bytes.LastIndexByte(src[:hi-1], '\n') + 1
	return line, 1 + utf8.RuneCount(src[start:hi-1])
}

// lineText returns line n (1-based) of src, or "".
func lineText(src []byte, n int) string {
	for i := 1; n > 0 && len(src) > 0; i++ {
		l, rest, _ := bytes.Cut(src, []byte("\n"))
		if i == n {
			return string(l)
		}
		src = rest
	}
	return ""
}

// rejectAliases reports the first alias in the tree, and how many there
// are, and reports whether there are any. Aliases are never expanded, so
// an alias "bomb" costs nothing.
func (p *parser) rejectAliases(root *yaml.Node) bool {
	var first *yaml.Node
	count := 0
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.AliasNode {
			if first == nil || n.Line < first.Line || (n.Line == first.Line && n.Column < first.Column) {
				first = n
			}
			count++
		}
		stack = append(stack, n.Content...)
	}
	if first != nil {
		p.errorf(first, "YAML aliases are not supported (%d in this file); write each value out in full", count)
	}
	return first != nil
}
