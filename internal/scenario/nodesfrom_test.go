package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestNodesFrom reads the starting cluster from a product's configuration:
// names, weights and ids as the product lists them, a server marked down
// starts failed, and what cannot be read is an error at the nodes entry.
func TestNodesFrom(t *testing.T) {
	files := map[string]string{
		"nginx.conf": "http {\n  upstream cache {\n    hash $k consistent;\n    server 10.0.1.1:11211 weight=2;\n    server 10.0.1.2:11211 down;\n  }\n}\n",
		"haproxy.cfg": "backend b\n  balance hdr(X-Key)\n  hash-type consistent\n  server s1 127.0.0.1:80 id 7 weight 3\n  server s2 127.0.0.1:81\n" +
			"  server s3 127.0.0.1:82 backup\n",
	}
	read := func(rel string) ([]byte, error) {
		if s, ok := files[rel]; ok {
			return []byte(s), nil
		}
		return nil, fmt.Errorf("no such file")
	}
	parse := func(nodes string) (*sim.Scenario, error) {
		return Parse("n.yaml", []byte("title: N\nkeys: 100\nnodes: "+nodes+"\n"), Options{ReadFile: read})
	}
	s, err := parse("{from: nginx.conf, upstream: cache}")
	if err != nil {
		t.Fatal(err)
	}
	want := []timeline.NodeSpec{{Name: "10.0.1.1:11211", Weight: 2}, {Name: "10.0.1.2:11211", Weight: 1, Down: true}}
	if fmt.Sprint(s.Nodes) != fmt.Sprint(want) {
		t.Errorf("nodes %+v, want %+v", s.Nodes, want)
	}
	for _, tc := range []struct{ nodes, err string }{
		{"{from: haproxy.cfg, backend: b}", "n.yaml:3:15: nodes: haproxy.cfg:6:3: server 127.0.0.1:82 is a backup server"},
		{"{from: nginx.conf, upstream: nope}", `n.yaml:3:15: nodes: nginx.conf: no upstream named "nope"`},
		{"{from: nginx.conf}", "n.yaml:3:8: nodes: a nginx file needs upstream: <name>"},
		{"{from: cluster.txt}", `n.yaml:3:15: nodes: cannot tell the format of "cluster.txt" from its name`},
		{"{from: missing.conf, format: nginx, upstream: u}", `n.yaml:3:15: cannot read nodes file "missing.conf"`},
		{"{from: ../etc/nginx.conf, upstream: u}", `n.yaml:3:15: nodes file "../etc/nginx.conf" leaves the scenario's directory`},
		{"{from: nginx.conf, upstream: cache, colour: red}", `n.yaml:3:44: nodes: unknown key "colour"`},
	} {
		_, err := parse(tc.nodes)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("nodes: %s: error %v, want one containing %q", tc.nodes, err, tc.err)
		}
	}
	s, err = parse("{from: haproxy.cfg, backend: b}")
	if err == nil {
		t.Errorf("a backup server was accepted: %+v", s.Nodes)
	}
	files["haproxy.cfg"] = strings.TrimSuffix(files["haproxy.cfg"], "  server s3 127.0.0.1:82 backup\n")
	if s, err = parse("{from: haproxy.cfg, backend: b}"); err != nil {
		t.Fatal(err)
	}
	if s.Nodes[0].ID != 7 || s.Nodes[0].Weight != 3 || s.Nodes[1].Name != "127.0.0.1:81" {
		t.Errorf("haproxy nodes %+v", s.Nodes)
	}
}
