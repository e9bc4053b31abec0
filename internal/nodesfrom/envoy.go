package nodesfrom

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Envoy: the v3 bootstrap (envoy.config.bootstrap.v3.Bootstrap) as YAML or
// JSON: static_resources.clusters[] (config.cluster.v3.Cluster), its
// load_assignment (endpoint.v3.ClusterLoadAssignment), endpoints[]
// (LocalityLbEndpoints), lb_endpoints[] (LbEndpoint) and the endpoint's
// address (core.v3.Address). Field names may be written in snake_case or,
// as protobuf's JSON mapping allows, in lowerCamelCase.

// envoyHealth maps core.v3.HealthStatus names and numbers to whether the
// endpoint is Down.
var envoyHealth = map[string]bool{
	"UNKNOWN": false, "HEALTHY": false, "UNHEALTHY": true, "DRAINING": true,
	"TIMEOUT": true, "DEGRADED": false,
	"0": false, "1": false, "2": true, "3": true, "4": true, "5": false,
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// envoyReader walks the YAML tree, collecting problems.
type envoyReader struct {
	el errorList
	// keys indexes each mapping looked into: a key's first two key
	// nodes, so that a mapping reached again through aliases costs no
	// second scan
	keys map[*yaml.Node]map[string][]*yaml.Node
	// said holds the key nodes already reported as written twice
	said map[*yaml.Node]bool
}

func (r *envoyReader) errAt(n *yaml.Node, format string, args ...any) {
	r.el.add(n.Line, n.Column, format, args...)
}

// deref follows an alias.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// camel turns snake_case into lowerCamelCase.
func camel(s string) string {
	parts := strings.Split(s, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// field returns the value of key in mapping m (snake_case or its
// lowerCamelCase form), or nil; a key written twice is a problem.
func (r *envoyReader) field(m *yaml.Node, key string) *yaml.Node {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	idx, ok := r.keys[m]
	if !ok {
		if r.keys == nil {
			r.keys, r.said = map[*yaml.Node]map[string][]*yaml.Node{}, map[*yaml.Node]bool{}
		}
		idx = map[string][]*yaml.Node{}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; k.Kind == yaml.ScalarNode && len(idx[k.Value]) < 2 {
				idx[k.Value] = append(idx[k.Value], k, m.Content[i+1])
			}
		}
		r.keys[m] = idx
	}
	// the key and value nodes written for key, in either spelling, in
	// the order written
	var kv []*yaml.Node
	kv = append(kv, idx[key]...)
	if alt := camel(key); alt != key {
		kv = append(kv, idx[alt]...)
	}
	if len(kv) == 0 {
		return nil
	}
	first := 0
	for i := 2; i < len(kv); i += 2 {
		if kv[i].Line < kv[first].Line || (kv[i].Line == kv[first].Line && kv[i].Column < kv[first].Column) {
			first = i
		}
	}
	for i := 0; i < len(kv); i += 2 {
		if i != first && !r.said[kv[i]] {
			r.said[kv[i]] = true
			r.errAt(kv[i], "%s is written twice in this mapping (first at %d:%d); Envoy refuses it: keep one", kv[i].Value, kv[first].Line, kv[first].Column)
		}
	}
	return deref(kv[first+1])
}

// want reports whether n (the value at path) is of kind k, and says so
// if not.
func (r *envoyReader) want(n *yaml.Node, k yaml.Kind, path, what string) bool {
	if n != nil && n.Kind == k {
		return true
	}
	if n != nil {
		r.errAt(n, "%s must be %s", path, what)
	}
	return false
}

// uint reads a non-negative decimal integer scalar, quoted or not (as
// protobuf's JSON mapping allows), or a wrapper {value: N}.
func (r *envoyReader) num(n *yaml.Node, path string, max uint64) (uint64, bool) {
	if n.Kind == yaml.MappingNode {
		if v := r.field(n, "value"); v != nil {
			n = v
		}
	}
	if n.Kind == yaml.ScalarNode && n.Value != "" && len(n.Value) <= 20 && strings.Trim(n.Value, "0123456789") == "" {
		if v, err := strconv.ParseUint(n.Value, 10, 64); err == nil && v <= max {
			return v, true
		}
	}
	r.errAt(n, "%s must be a whole number from 0 to %d, not %s", path, max, quote(n.Value))
	return 0, false
}

// str reads a string scalar.
func (r *envoyReader) str(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!str" && n.Tag != "!!int" && n.Tag != "!!float") {
		r.errAt(n, "%s must be a string", path)
		return "", false
	}
	return n.Value, true
}

// depth reports the first node nested deeper than MaxDepth, or nil.
func yamlTooDeep(root *yaml.Node) *yaml.Node {
	type item struct {
		n *yaml.Node
		d int
	}
	stack := []item{{root, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d > MaxDepth {
			return it.n
		}
		for _, c := range it.n.Content {
			d := it.d
			if c.Kind == yaml.MappingNode || c.Kind == yaml.SequenceNode {
				d++
			}
			stack = append(stack, item{c, d})
		}
	}
	return nil
}

// parseEnvoy returns the endpoints of the static cluster selector names.
func parseEnvoy(data []byte, selector string) ([]Node, []Error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			l, _ := strconv.Atoi(m[1])
			return nil, []Error{{l, 1, "not valid YAML: " + m[2]}}
		}
		return nil, []Error{{Msg: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}}
	}
	if len(doc.Content) == 0 {
		return nil, []Error{{Msg: "the file is empty; an Envoy bootstrap has static_resources: {clusters: [...]}"}}
	}
	if n := yamlTooDeep(&doc); n != nil {
		return nil, []Error{{n.Line, n.Column, fmt.Sprintf("the YAML nests deeper than %d levels; ringreport reads at most %d", MaxDepth, MaxDepth)}}
	}
	r := &envoyReader{}
	root := deref(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		r.errAt(root, "an Envoy bootstrap is a mapping with static_resources: {clusters: [...]}")
		return nil, r.el.errs
	}
	sr := r.field(root, "static_resources")
	if sr == nil {
		r.errAt(root, "no static_resources: ringreport reads the clusters listed under static_resources.clusters; a cluster that comes from CDS is not in this file")
		return nil, r.el.errs
	}
	clusters := r.field(sr, "clusters")
	if clusters == nil {
		r.errAt(sr, "static_resources has no clusters; list them under static_resources.clusters")
		return nil, r.el.errs
	}
	if !r.want(clusters, yaml.SequenceNode, "static_resources.clusters", "a list of clusters") {
		return nil, r.el.errs
	}
	var (
		names   []string
		nameAt  []*yaml.Node
		matched *yaml.Node
	)
	for _, c := range clusters.Content {
		c = deref(c)
		nameNode := r.field(c, "name")
		if nameNode == nil || nameNode.Kind != yaml.ScalarNode {
			continue
		}
		names = append(names, nameNode.Value)
		nameAt = append(nameAt, nameNode)
		if nameNode.Value != selector || selector == "" {
			continue
		}
		if matched != nil {
			first := r.field(matched, "name")
			r.errAt(nameNode, "cluster %s is listed twice (first at %d:%d); Envoy refuses duplicate cluster names: rename or remove one", quote(selector), first.Line, first.Column)
			continue
		}
		matched = c
	}
	if matched == nil {
		what := fmt.Sprintf("no cluster named %s in static_resources.clusters", quote(selector))
		if selector == "" {
			what = "no cluster named: Parse needs the cluster's name"
		}
		msg := what + "; clusters in this file: " + nameList(names)
		line, col := 0, 0
		if i := closest(selector, names); i >= 0 && selector != "" {
			line, col = nameAt[i].Line, nameAt[i].Column
			msg = fmt.Sprintf("%s; did you mean %s (at %d:%d)? clusters in this file: %s", what, quote(names[i]), line, col, nameList(names))
		}
		r.el.add(line, col, "%s", msg)
		return nil, r.el.errs
	}
	if len(r.el.errs) > 0 {
		return nil, r.el.errs
	}
	nodes := r.cluster(matched, selector)
	if len(r.el.errs) > 0 {
		return nil, r.el.errs
	}
	return nodes, nil
}

// cluster reads the endpoints of one cluster.
func (r *envoyReader) cluster(c *yaml.Node, name string) []Node {
	if h := r.field(c, "hosts"); h != nil {
		r.errAt(h, "hosts is the v2 API field, gone from Envoy's v3 API; list the endpoints under load_assignment.endpoints[].lb_endpoints")
		return nil
	}
	la := r.field(c, "load_assignment")
	if la == nil {
		if t := r.field(c, "type"); t != nil && t.Value == "EDS" {
			r.errAt(t, "cluster %s gets its endpoints from EDS, so this file does not list them; dump them (GET /config_dump?include_eds) into a static load_assignment", quote(name))
		} else {
			r.errAt(c, "cluster %s has no load_assignment; list its endpoints under load_assignment.endpoints[].lb_endpoints", quote(name))
		}
		return nil
	}
	eps := r.field(la, "endpoints")
	if eps == nil {
		r.errAt(la, "load_assignment of cluster %s has no endpoints; list them under endpoints[].lb_endpoints", quote(name))
		return nil
	}
	if !r.want(eps, yaml.SequenceNode, "load_assignment.endpoints", "a list of localities, each with lb_endpoints") {
		return nil
	}
	var nodes []Node
	for _, loc := range eps.Content {
		loc = deref(loc)
		if !r.want(loc, yaml.MappingNode, "each of load_assignment.endpoints", "a mapping with lb_endpoints") {
			continue
		}
		priority := uint64(0)
		if p := r.field(loc, "priority"); p != nil {
			priority, _ = r.num(p, "priority", 1<<32-1)
		}
		lbs := r.field(loc, "lb_endpoints")
		if lbs == nil {
			continue // a locality with no endpoints
		}
		if !r.want(lbs, yaml.SequenceNode, "lb_endpoints", "a list of endpoints") {
			continue
		}
		sum := uint64(0)
		for _, at := range lbs.Content {
			// at is where the entry is written, lb what it is (they
			// differ for an alias)
			lb := deref(at)
			if len(nodes) == MaxServers {
				r.errAt(at, "%s", tooMany("endpoints"))
				return nil
			}
			n, ok := r.endpoint(lb)
			n.Line, n.Col = at.Line, at.Column
			if !ok {
				if r.el.full {
					return nil
				}
				continue
			}
			n.Backup = priority > 0
			sum += uint64(n.Weight)
			if sum > 1<<32-1 {
				r.errAt(lb, "the weights of this locality's endpoints add up to more than 4294967295; Envoy refuses that: lower them")
			}
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 && len(r.el.errs) == 0 {
		r.errAt(la, "cluster %s lists no endpoints; add lb_endpoints", quote(name))
	}
	return nodes
}

// endpoint reads one LbEndpoint.
func (r *envoyReader) endpoint(lb *yaml.Node) (Node, bool) {
	if !r.want(lb, yaml.MappingNode, "each of lb_endpoints", "a mapping with endpoint.address") {
		return Node{}, false
	}
	n := Node{Weight: 1, Line: lb.Line, Col: lb.Column}
	if en := r.field(lb, "endpoint_name"); en != nil {
		r.errAt(en, "endpoint_name refers to a named endpoint, which ringreport cannot look up; write the endpoint out")
		return n, false
	}
	ep := r.field(lb, "endpoint")
	if ep == nil {
		r.errAt(lb, "this lb_endpoint has no endpoint; write endpoint: {address: {socket_address: {address: ..., port_value: ...}}}")
		return n, false
	}
	if !r.want(ep, yaml.MappingNode, "endpoint", "a mapping with address") {
		return n, false
	}
	addr := r.field(ep, "address")
	if addr == nil {
		r.errAt(ep, "this endpoint has no address; write address: {socket_address: {address: ..., port_value: ...}}")
		return n, false
	}
	ok := true
	sa, pipe := r.field(addr, "socket_address"), r.field(addr, "pipe")
	switch {
	case sa != nil && r.want(sa, yaml.MappingNode, "socket_address", "a mapping with address and port_value"):
		a, p := r.field(sa, "address"), r.field(sa, "port_value")
		host := ""
		switch {
		case a == nil:
			r.errAt(sa, "socket_address has no address; write the IP address or host name")
			ok = false
		default:
			host, ok = r.str(a, "socket_address.address")
			if ok && host == "" {
				r.errAt(a, "socket_address.address is empty; write the IP address or host name")
				ok = false
			}
		}
		port := uint64(0)
		switch {
		case p != nil:
			var good bool
			if port, good = r.num(p, "port_value", 65535); !good {
				ok = false
			}
		case r.field(sa, "named_port") != nil:
			r.errAt(r.field(sa, "named_port"), "named_port is not supported; give the number in port_value")
			ok = false
		default:
			r.errAt(sa, "socket_address has no port_value; add it, such as port_value: 11211")
			ok = false
		}
		if strings.ContainsRune(host, ':') {
			host = "[" + host + "]" // as Envoy's Ipv6Instance writes itself
		}
		n.Name = host + ":" + strconv.FormatUint(port, 10)
	case sa != nil:
		ok = false
	case pipe != nil:
		path := r.field(pipe, "path")
		if path == nil {
			r.errAt(pipe, "pipe has no path")
			return n, false
		}
		n.Name, ok = r.str(path, "pipe.path")
	default:
		r.errAt(addr, "this address has neither socket_address nor pipe; write socket_address: {address: ..., port_value: ...}")
		return n, false
	}
	if h := r.field(ep, "hostname"); h != nil {
		if s, good := r.str(h, "endpoint.hostname"); good {
			n.Label = s
		} else {
			ok = false
		}
	}
	if w := r.field(lb, "load_balancing_weight"); w != nil {
		v, good := r.num(w, "load_balancing_weight", 1<<32-1)
		switch {
		case !good:
			ok = false
		case v == 0:
			r.errAt(w, "load_balancing_weight must be at least 1 (Envoy refuses 0); remove the endpoint or give it weight 1")
			ok = false
		default:
			n.Weight = int(v)
		}
	}
	if hs := r.field(lb, "health_status"); hs != nil {
		down, known := envoyHealth[hs.Value]
		if hs.Kind != yaml.ScalarNode || !known {
			r.errAt(hs, "health_status %s is not one of UNKNOWN, HEALTHY, UNHEALTHY, DRAINING, TIMEOUT, DEGRADED", quote(hs.Value))
			ok = false
		}
		n.Down = down
	}
	return n, ok
}
