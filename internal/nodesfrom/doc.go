// Package nodesfrom parses a product's configuration text into the
// ordered list of servers it names.
//
// It knows nothing of the rest of ringreport: Parse takes a format, the
// file's bytes and, where the format has several server sets, the name of
// one (Selector says what that name is called); it returns every server in
// the order the product reads them, or every problem it found, each with
// its line and column and a message that says what is wrong and what would
// be right: the servers, or nil and the problems, never both. Parse
// never panics and takes time linear in the size of its input; it refuses
// more than MaxServers servers, lines longer than MaxLine bytes and
// nesting deeper than MaxDepth, and stops after 100 problems. A syntax
// error that leaves the rest of the file unreadable (an unbalanced brace
// in nginx, broken YAML) ends the reading there.
//
// # nginx (1.22 to 1.31, and NGINX Plus's server parameters)
//
// The file is read with nginx's own tokenizer (ngx_conf_read_token): words
// separated by blanks, ";" and "{" "}", "#" comments from the start of a
// word to the end of the line, '…' and "…" quotes, backslash escapes, and
// ${var}. The selector names an upstream{} block directly inside http{}
// or stream{}, matched as nginx matches upstream names (ignoring case);
// "http:NAME" or "stream:NAME" picks one when both contexts define NAME.
// Each "server ADDRESS [params];" in it is a Node whose Name is ADDRESS
// with its quotes and escapes resolved — the text nginx's hash consistent
// ring hashes. weight=N sets Weight (N ≥ 1), down and drain set Down,
// backup sets Backup, and max_fails=, max_conns=, fail_timeout=,
// slow_start=, route=, resolve and service= are checked and otherwise
// ignored, as are the other directives of the block. backup after hash,
// ip_hash or random is an error, as nginx makes it. The address is checked
// as ngx_parse_url reads it (host:port, [IPv6]:port, unix:path; a
// stream{} server needs a port); host names are not resolved.
// NginxBalancer returns the upstream's load-balancing directive (hash KEY
// [consistent], ip_hash, least_conn, random …) so that a caller can warn
// when it is not "hash … consistent".
//
// Not read: include (ringreport reads one file: an include inside the
// selected upstream is an error, and when no upstream matches, the message
// points at the file's includes), modules with their own syntax in a block
// (such as *_by_lua_block), and upstreams defined by a variable at run time.
//
// # HAProxy (2.6, checked against Debian's 2.6.12, to 3.x)
//
// Lines are split into words as parse_line splits them: blanks, "#"
// comments, '…' and "…" quotes, backslash escapes (\x41 too), at most 64
// words. The selector names a backend or listen section, which runs to the
// next section keyword (global, defaults, frontend, backend, listen,
// peers, resolvers, userlist, mailers, program, http-errors, ring, cache,
// fcgi-app, log-forward, crt-store, traces, acme …). Each "server NAME
// ADDRESS [keywords]" in it is a Node whose Name is ADDRESS as written
// ("10.0.0.1:80"; quotes and escapes resolved), Label is NAME, Weight comes from "weight N" (0 to 256;
// 0 is kept: such a server takes no traffic), ID from "id N", Down from
// "disabled", Backup from "backup". default-server lines, in the section
// or in the defaults section it inherits from (the last one above it, or
// the one named by "from"; defaults inherit "from" each other too), set
// weight, disabled and backup for the server lines after them, as HAProxy
// does. Every server keyword of HAProxy 2.6 to 3.x is known with the
// number of words it takes, so "cookie id" does not read as an id; an
// unknown keyword is an error. Duplicate server names (among servers
// without an id), duplicate ids and duplicate backend names are errors,
// as HAProxy makes them.
//
// Conditional blocks are followed when their condition is a number (.if 0,
// .if 1, .if !0); a server, default-server or section line inside any other
// condition is an error, since ringreport cannot tell whether HAProxy
// reads it. Not read: environment variables ("$NAME" inside double
// quotes; $.LINE and $.SECTION are expanded), server-template, servers
// added at run time, and addresses beyond a light check of the port.
//
// # Envoy (v3 API)
//
// The file is a bootstrap in YAML or JSON. The selector names a cluster in
// static_resources.clusters[]; each load_assignment.endpoints[] locality's
// lb_endpoints[] entry is a Node whose Name is
// endpoint.address.socket_address's "address:port_value" ("[v6]:port" for
// an IPv6 address, as Envoy writes it; a pipe's path), Label is
// endpoint.hostname, Weight is load_balancing_weight (≥ 1, 1 by
// default), Down is health_status UNHEALTHY, DRAINING or TIMEOUT, and
// Backup marks a locality of priority above 0. Field names may be written
// in snake_case or lowerCamelCase, as Envoy accepts both; a field written
// twice is an error. Positions are the YAML nodes' lines and columns. Not
// read: clusters from CDS, endpoints from EDS (an EDS cluster is an error
// that says so), named endpoints, YAML merge keys.
//
// # redis-cluster-nodes (Redis 3 to 7)
//
// The output of CLUSTER NODES, which is also the body of a node's
// nodes.conf (whose "vars" line is skipped): one line per node, "id
// ip:port@cport[,hostname] flags master ping-sent pong-recv config-epoch
// link-state slot...". Masters only: a Node per line whose flags contain
// master (not handshake), Name "ip:port", Label the node id, Weight 1,
// Down for fail, fail? and noaddr. ParseRedisNodes also returns the slot
// table: slots such as 0-5460 and 5461, as runs in slot order, each with
// the index of its master; a slot two masters claim is an error. Migrating
// and importing entries ([5461->-id], [5461-<-id]) are skipped: the slot
// stays with the master that serves it now.
//
// # libmemcached (libmemcached-awesome 1.1.4)
//
// One entry a line; blank lines and lines starting with "#" are skipped.
// A line starting with "--" is a libmemcached configuration string, as
// memcached() reads it and --CONFIGURE-FILE reads each line of its file:
// statements separated by single spaces, --SERVER=HOST[:PORT][/?WEIGHT]
// and --SOCKET="PATH"[/?WEIGHT] name servers, and the other options are
// checked as libmemcached's scanner and grammar read them and otherwise
// ignored. HOST is an IPv4 address or a name of 3 or more characters, as
// the scanner's rules have it. Any other line (or one starting
// "--servers=", as libmemcached's tools take it) is a server list as
// memcached_servers_parse reads it: entries separated by commas,
// HOST[:PORT[ WEIGHT]] or HOST:PORT:WEIGHT, [IPv6]:PORT too. Name is
// "host:port" with the port as a number, or "host" alone when no port is
// written (libmemcached then uses 11211); Weight 0 or none is 1, as
// libmemcached makes it. Not read: INCLUDE and --CONFIGURE-FILE= (errors:
// ringreport reads one file); behaviours such as --SORT-HOSTS or
// --DISTRIBUTION, which change placement, not the list.
package nodesfrom
