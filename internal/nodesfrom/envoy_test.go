package nodesfrom

import (
	"strings"
	"testing"
)

// envoyCluster wraps lb_endpoints entries (indented for their place) in a
// bootstrap with one cluster named c.
func envoyCluster(lbEndpoints string) string {
	return `static_resources:
  clusters:
  - name: c
    type: STATIC
    lb_policy: RING_HASH
    load_assignment:
      cluster_name: c
      endpoints:
      - lb_endpoints:
` + lbEndpoints
}

var envoyCases = []tc{
	{
		name: "weights, health, hostname, IPv6, other clusters",
		sel:  "cache",
		in: `admin:
  address: {socket_address: {address: 127.0.0.1, port_value: 9901}}
static_resources:
  listeners: []
  clusters:
  - name: other
    load_assignment: {cluster_name: other, endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.9.9.9, port_value: 1}}}}]}]}
  - name: cache
    connect_timeout: 0.25s
    type: STRICT_DNS
    lb_policy: RING_HASH
    load_assignment:
      cluster_name: cache
      endpoints:
      - locality: {zone: a}
        lb_endpoints:
        - endpoint:
            address:
              socket_address: {address: 10.0.0.1, port_value: 11211}
          load_balancing_weight: 3
        - endpoint:
            hostname: cache-b
            address:
              socket_address: {address: cache-b.local, port_value: 11211}
          health_status: UNHEALTHY
        - endpoint: {address: {socket_address: {address: "2001:db8::1", port_value: 11211}}}
          health_status: DEGRADED
      - priority: 1
        lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 11211}}}
          health_status: DRAINING
`,
		want: []Node{
			n("10.0.0.1:11211", 3, 17, 11),
			n("cache-b.local:11211", 1, 21, 11).label("cache-b").down(),
			n("[2001:db8::1]:11211", 1, 26, 11),
			n("10.0.1.1:11211", 1, 30, 11).down().backup(),
		},
	},
	{
		name: "JSON with lowerCamelCase names, numbers as strings, wrapped weights",
		sel:  "c",
		in: `{"staticResources": {"clusters": [{"name": "c", "loadAssignment": {"endpoints": [{"lbEndpoints": [
  {"endpoint": {"address": {"socketAddress": {"address": "10.0.0.1", "portValue": "80"}}}, "loadBalancingWeight": {"value": 2}},
  {"endpoint": {"address": {"socketAddress": {"address": "10.0.0.2", "portValue": 81}}}, "healthStatus": 4}
]}]}}]}}
`,
		want: []Node{
			n("10.0.0.1:80", 2, 2, 3),
			n("10.0.0.2:81", 1, 3, 3).down(),
		},
	},
	{
		name: "anchors and aliases, a pipe, an empty locality",
		sel:  "c",
		in: envoyCluster(`        - &e1
          endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
        - endpoint: {address: {pipe: {path: /run/cache.sock}}}
      - {}
      - lb_endpoints: [*e1]
`),
		want: []Node{
			n("10.0.0.1:80", 1, 10, 11),
			n("/run/cache.sock", 1, 12, 11),
			n("10.0.0.1:80", 1, 14, 24),
		},
	},

	// problems
	{
		name: "not YAML",
		sel:  "c",
		in:   "static_resources:\n  clusters: [\n",
		errs: []string{`2:1: not valid YAML: did not find expected node content`},
	},
	{
		name: "empty",
		sel:  "c",
		in:   "# nothing\n",
		errs: []string{`0:0: the file is empty`},
	},
	{
		name: "not a mapping",
		sel:  "c",
		in:   "- a\n",
		errs: []string{`1:1: an Envoy bootstrap is a mapping`},
	},
	{
		name: "no static_resources",
		sel:  "c",
		in:   "dynamic_resources: {cds_config: {ads: {}}}\n",
		errs: []string{`1:1: no static_resources: ringreport reads the clusters listed under static_resources.clusters`},
	},
	{
		name: "no clusters",
		sel:  "c",
		in:   "static_resources:\n  listeners: []\n",
		errs: []string{`2:3: static_resources has no clusters`},
	},
	{
		name: "clusters is not a list",
		sel:  "c",
		in:   "static_resources:\n  clusters: {name: c}\n",
		errs: []string{`2:13: static_resources.clusters must be a list of clusters`},
	},
	{
		name: "no such cluster: the closest is suggested",
		sel:  "cahce",
		in:   "static_resources:\n  clusters:\n  - name: cache\n  - name: api\n",
		errs: []string{`3:11: no cluster named "cahce" in static_resources.clusters; did you mean "cache" (at 3:11)? clusters in this file: cache, api`},
	},
	{
		name: "no selector",
		in:   "static_resources:\n  clusters:\n  - name: cache\n",
		errs: []string{`0:0: Parse needs the cluster's name; clusters in this file: cache`},
	},
	{
		name: "a cluster listed twice",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n  - name: c\n",
		errs: []string{`4:11: cluster "c" is listed twice (first at 3:11)`},
	},
	{
		name: "the v2 hosts field",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    hosts: [{socket_address: {address: 10.0.0.1, port_value: 80}}]\n",
		errs: []string{`4:12: hosts is the v2 API field, gone from Envoy's v3 API`},
	},
	{
		name: "an EDS cluster",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    type: EDS\n    eds_cluster_config: {eds_config: {ads: {}}}\n",
		errs: []string{`4:11: cluster "c" gets its endpoints from EDS`},
	},
	{
		name: "no load_assignment",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    type: STATIC\n",
		errs: []string{`3:5: cluster "c" has no load_assignment`},
	},
	{
		name: "no endpoints",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    load_assignment: {cluster_name: c}\n",
		errs: []string{`4:22: load_assignment of cluster "c" has no endpoints`},
	},
	{
		name: "endpoints not a list, lb_endpoints not a list",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    load_assignment: {endpoints: [{lb_endpoints: {a: 1}}, 7]}\n",
		errs: []string{
			`4:50: lb_endpoints must be a list of endpoints`,
			`4:59: each of load_assignment.endpoints must be a mapping with lb_endpoints`,
		},
	},
	{
		name: "endpoints with nothing in them",
		sel:  "c",
		in:   "static_resources:\n  clusters:\n  - name: c\n    load_assignment: {endpoints: [{}]}\n",
		errs: []string{`4:22: cluster "c" lists no endpoints`},
	},
	{
		name: "broken endpoints",
		sel:  "c",
		in: envoyCluster(`        - load_balancing_weight: 2
        - endpoint: {hostname: x}
        - endpoint: {address: {}}
        - endpoint: {address: {socket_address: {port_value: 80}}}
        - endpoint: {address: {socket_address: {address: "", port_value: 80}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.1}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 70000}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.1, named_port: http}}}
        - endpoint: {address: {socket_address: {address: [10, 0], port_value: 80}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}, hostname: {a: b}}
        - endpoint_name: e1
        - endpoint: {address: {pipe: {}}}
        - endpoint: 7
        - 7
`),
		errs: []string{
			`10:11: this lb_endpoint has no endpoint`,
			`11:21: this endpoint has no address`,
			`12:31: this address has neither socket_address nor pipe`,
			`13:48: socket_address has no address`,
			`14:58: socket_address.address is empty`,
			`15:48: socket_address has no port_value`,
			`16:80: port_value must be a whole number from 0 to 65535, not "70000"`,
			`17:80: named_port is not supported`,
			`18:58: socket_address.address must be a string`,
			`19:96: endpoint.hostname must be a string`,
			`20:26: endpoint_name refers to a named endpoint`,
			`21:38: pipe has no path`,
			`22:21: endpoint must be a mapping with address`,
			`23:11: each of lb_endpoints must be a mapping with endpoint.address`,
		},
	},
	{
		name: "bad weights and health",
		sel:  "c",
		in: envoyCluster(`        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
          load_balancing_weight: 0
        - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
          load_balancing_weight: -1
        - endpoint: {address: {socket_address: {address: 10.0.0.3, port_value: 80}}}
          health_status: SICK
        - endpoint: {address: {socket_address: {address: 10.0.0.4, port_value: 80}}}
          load_balancing_weight: 4294967295
        - endpoint: {address: {socket_address: {address: 10.0.0.5, port_value: 80}}}
          load_balancing_weight: 1
      - priority: x
        lb_endpoints: []
`),
		errs: []string{
			`11:34: load_balancing_weight must be at least 1`,
			`13:34: load_balancing_weight must be a whole number from 0 to 4294967295, not "-1"`,
			`15:26: health_status "SICK" is not one of UNKNOWN, HEALTHY`,
			`18:11: the weights of this locality's endpoints add up to more than 4294967295`,
			`20:19: priority must be a whole number`,
		},
	},
	{
		name: "a field written twice, once in each case style",
		sel:  "c",
		in: envoyCluster(`        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80, portValue: 81}}}
`),
		errs: []string{`10:84: portValue is written twice in this mapping (first at 10:68)`},
	},
}

func TestEnvoy(t *testing.T) { run(t, "envoy", envoyCases) }

func TestEnvoyLimits(t *testing.T) {
	deep := "static_resources: " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1) + "\n"
	_, errs := Parse("envoy", []byte(deep), "c")
	checkResult(t, nil, errs, nil, []string{"1:82: the YAML nests deeper than 64 levels"})

	many := "        - &e {endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}\n" +
		strings.Repeat("        - *e\n", MaxServers)
	_, errs = Parse("envoy", []byte(envoyCluster(many)), "c")
	checkResult(t, nil, errs, nil, []string{"10010:11: more than 10000 endpoints"})
}
