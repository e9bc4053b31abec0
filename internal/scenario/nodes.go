package scenario

import (
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/nodesfrom"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"

	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// nodeMapKeys are the keys of a {name, weight, zone, rack, id} node entry.
var nodeMapKeys = []string{"name", "weight", "zone", "rack", "id"}

// MaxNodeID bounds a node's id label.
const MaxNodeID = 1 << 20

// reserved are the words that steps use in place of node names.
var reserved = map[string]string{
	"random": "remove: random and fail: random pick a node at random",
	"all":    "recover: all recovers every failed node",
}

// nodes decodes the starting cluster: a count or a list of entries. It
// returns the entry behind each NodeSpec (nil for the count form), and
// whether the members are known despite any error: an entry whose only
// fault is its weight still names a member.
func (p *parser) nodes(n *yaml.Node) ([]timeline.NodeSpec, []*yaml.Node, bool) {
	const want = "a count such as 5, a list of names such as [a, b, c], or {from: nginx.conf, upstream: cache}"
	switch {
	case n.Kind == yaml.MappingNode:
		before := len(p.errs)
		specs := p.nodesFrom(n)
		return specs, nil, len(p.errs) == before
	case isInt(n):
		c, ok := p.limited(n, "nodes", "nodes", p.lim.Nodes, "-max-nodes")
		return sweep.GeneratedNodes(c), nil, ok
	case n.Kind != yaml.SequenceNode:
		p.typeError(n, "nodes", want)
		return nil, nil, false
	case len(n.Content) == 0:
		p.errorf(n, "nodes must list at least one node, such as [a, b, c]")
		return nil, nil, false
	case len(n.Content) > p.lim.Nodes:
		p.overLimit(n, "nodes", text.Count(len(n.Content)), "nodes", p.lim.Nodes, "-max-nodes")
		return nil, nil, false
	}
	return p.entries(n.Content, "nodes: ", true)
}

// entryState is what decoding one node entry gave.
type entryState int

const (
	entryBad      entryState = iota // no usable name (or labels): the members are unknown
	entryWeakened                   // a member, but its weight was wrong (and reported)
	entryOK
)

// entries decodes a list of node entries, reporting names listed twice.
// It keeps the entries that name a member, and reports whether every
// entry did, so that membership can be checked despite a bad weight.
func (p *parser) entries(list []*yaml.Node, ctx string, weighted bool) ([]timeline.NodeSpec, []*yaml.Node, bool) {
	var specs []timeline.NodeSpec
	var pos []*yaml.Node
	first := map[string]*yaml.Node{}
	intact := true
	for _, e := range list {
		ns, state := p.entry(e, ctx, weighted)
		if state == entryBad {
			intact = false
			continue
		}
		if f, dup := first[ns.Name]; dup {
			how := ""
			if rawName(f) != rawName(e) {
				how = ", the same name in another Unicode spelling"
			}
			p.errorf(e, "%snode %q is listed twice (first at line %d, column %d%s); node names must be distinct", ctx, ns.Name, f.Line, f.Column, how)
			continue
		}
		first[ns.Name] = e
		specs = append(specs, ns)
		pos = append(pos, e)
	}
	return specs, pos, intact
}

// rawName is the name of a node entry as written.
func rawName(e *yaml.Node) string {
	if e.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(e.Content); i += 2 {
			if e.Content[i].Value == "name" {
				return e.Content[i+1].Value
			}
		}
	}
	return e.Value
}

// entry decodes one node: a name, or {name, weight} when weighted.
func (p *parser) entry(e *yaml.Node, ctx string, weighted bool) (timeline.NodeSpec, entryState) {
	if e.Kind == yaml.MappingNode && weighted {
		return p.weightedEntry(e, ctx)
	}
	if e.Kind != yaml.ScalarNode {
		want := "a string"
		if weighted {
			want = "a string or {name: <name>, weight: <weight>}"
		}
		p.typeError(e, ctx+"a node", want)
		return timeline.NodeSpec{}, entryBad
	}
	name, ok := p.nodeName(e, ctx)
	if !ok {
		return timeline.NodeSpec{}, entryBad
	}
	return timeline.NodeSpec{Name: name}, entryOK
}

// weightedEntry decodes {name: a, weight: 2}. An entry whose only
// problem is its weight is entryWeakened: it still names a member.
func (p *parser) weightedEntry(e *yaml.Node, ctx string) (timeline.NodeSpec, entryState) {
	before := len(p.errs)
	fs, _ := p.fields(e, ctx+"a node", "")
	var ns timeline.NodeSpec
	named, ok, weightOK := false, true, true
	weightErrs := 0
	for _, f := range fs {
		switch f.key.Value {
		case "name":
			named = true
			var good bool
			ns.Name, good = p.nodeName(f.val, ctx)
			ok = ok && good
		case "weight":
			n := len(p.errs)
			ns.Weight, weightOK = p.intIn(f.val, ctx+"weight", 1, MaxNodeWeight)
			p.noteWeight(f.val, ns.Weight)
			weightErrs += len(p.errs) - n
		case "zone", "rack", "id":
			ok = p.label(&ns.Labels, f, ctx) && ok
		default:
			p.unknownKey(f.key, ctx, nodeMapKeys)
			ok = false
		}
	}
	if !named {
		p.errorf(e, "%sa node entry needs a name, such as {name: a, weight: 2}", ctx)
	}
	switch {
	case !named || !ok || len(p.errs)-before > weightErrs:
		return ns, entryBad
	case !weightOK:
		return ns, entryWeakened
	}
	return ns, entryOK
}

// nodeName validates a node name, which must not be a reserved word.
func (p *parser) nodeName(n *yaml.Node, ctx string) (string, bool) {
	s, ok := p.name(n, ctx+"node name")
	if why, bad := reserved[s]; ok && bad {
		p.errorf(n, "%snode name %q is reserved (%s); choose another name", ctx, s, why)
		return "", false
	}
	return s, ok
}

// label decodes one label of a node entry or a selector into l.
func (p *parser) label(l *timeline.Labels, f field, ctx string) bool {
	var ok bool
	switch f.key.Value {
	case "zone":
		l.Zone, ok = p.name(f.val, ctx+"zone")
	case "rack":
		l.Rack, ok = p.name(f.val, ctx+"rack")
	case "id":
		l.ID, ok = p.intIn(f.val, ctx+"id", 1, MaxNodeID)
	}
	return ok
}

// selector decodes {zone: z1}, {rack: r2} or both: the nodes a remove,
// fail or recover step acts on, chosen by label.
func (p *parser) selector(v *yaml.Node, ctx string, op timeline.Op) (timeline.Labels, bool) {
	fs, ok := p.fields(v, ctx+op.String(), "a mapping such as {zone: z1}")
	var l timeline.Labels
	for _, f := range fs {
		if f.key.Value != "zone" && f.key.Value != "rack" {
			p.errorf(f.key, "%s%s takes a name, a list of names or labels such as {zone: z1}; a mapping selects by zone and rack, not %q", ctx, op, clip(f.key.Value))
			ok = false
			continue
		}
		ok = p.label(&l, f, ctx) && ok
	}
	if ok && l == (timeline.Labels{}) {
		p.errorf(v, "%s%s {} selects nothing; name a zone or a rack, such as {zone: z1}", ctx, op)
		ok = false
	}
	return l, ok
}

// nodesFrom reads the starting cluster from a product's own configuration:
// {from: nginx.conf, upstream: cache}, {from: haproxy.cfg, backend: b},
// {from: envoy.yaml, cluster: c}, {from: cluster-nodes.txt} (redis-cli
// CLUSTER NODES), {from: servers.txt} (libmemcached --SERVER lines);
// format: names the format when the file name does not tell. Servers the
// configuration marks down start failed; backup servers are not modelled.
func (p *parser) nodesFrom(n *yaml.Node) []timeline.NodeSpec {
	fs, ok := p.fields(n, "nodes", "a mapping such as {from: nginx.conf, upstream: cache}")
	var file, format, selector string
	var fileAt, selAt *yaml.Node
	for _, f := range fs {
		switch k := f.key.Value; k {
		case "from":
			file, _ = p.str(f.val, "nodes: from")
			fileAt = f.val
		case "format":
			if format, _ = p.str(f.val, "nodes: format"); !slices.Contains(nodesfrom.Formats, format) {
				p.errorf(f.val, "nodes: format %q%s is not one of %s", clip(format), didYouMean(format, nodesfrom.Formats), strings.Join(nodesfrom.Formats, ", "))
				ok = false
			}
		case "upstream", "backend", "cluster":
			selector, _ = p.str(f.val, "nodes: "+k)
			selAt = f.key
		default:
			p.unknownKey(f.key, "nodes: ", []string{"from", "format", "upstream", "backend", "cluster"})
			ok = false
		}
	}
	if !ok {
		return nil
	}
	if fileAt == nil {
		p.errorf(n, "nodes needs from: <file>, such as {from: nginx.conf, upstream: cache}")
		return nil
	}
	if format == "" {
		if format = nodesfrom.Detect(file); format == "" {
			p.errorf(fileAt, "nodes: cannot tell the format of %q from its name; add format: one of %s", clip(file), strings.Join(nodesfrom.Formats, ", "))
			return nil
		}
	}
	if want := nodesfrom.Selector(format); want != "" && (selAt == nil || selAt.Value != want) {
		p.errorf(n, "nodes: a %s file needs %s: <name>, such as {from: %s, %s: cache}", format, want, clip(file), want)
		return nil
	} else if want == "" && selAt != nil {
		p.errorf(selAt, "nodes: a %s file lists one cluster; %s does not apply", format, selAt.Value)
		return nil
	}
	data, ok := p.readInput(fileAt, file, "nodes file")
	if !ok {
		return nil
	}
	nodes, errs := nodesfrom.Parse(format, data, selector)
	for _, e := range errs {
		p.errorf(fileAt, "nodes: %s:%s%s", clip(file), map[bool]string{true: " ", false: ""}[e.Line == 0], e.Error())
	}
	var specs []timeline.NodeSpec
	for _, nd := range nodes {
		if nd.Backup {
			p.errorf(fileAt, "nodes: %s:%d:%d: server %s is a backup server; backup servers are not modelled: leave it out", clip(file), nd.Line, nd.Col, nd.Name)
			continue
		}
		specs = append(specs, timeline.NodeSpec{Name: nd.Name, Weight: max(nd.Weight, 1), Labels: timeline.Labels{ID: nd.ID}, Down: nd.Down})
	}
	if len(specs) > p.lim.Nodes {
		p.overLimit(fileAt, "nodes", text.Count(len(specs)), "nodes", p.lim.Nodes, "-max-nodes")
		return nil
	}
	return specs
}
