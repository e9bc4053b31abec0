package nodesfrom

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Node is one server as the product's configuration names it.
type Node struct {
	// Name is the string the product hashes or identifies the server by:
	// the address as written (nginx, HAProxy), "host:port" with the port
	// as a number or "host" alone (libmemcached), "address:port" (Envoy,
	// Redis Cluster). See the package doc for each format.
	Name string
	// Label is the server's own name where the format has one besides its
	// address: HAProxy's server name, Envoy's endpoint hostname, Redis
	// Cluster's node id; "" otherwise.
	Label string
	// Weight is the configured weight, 1 when none is written. HAProxy
	// alone allows 0 (a server that takes no traffic); it is kept so that
	// callers decide.
	Weight int
	// ID is HAProxy's explicit "id", else 0.
	ID int
	// Down is true for a server configured as out of service: nginx
	// "down" or "drain", HAProxy "disabled", Envoy health_status
	// UNHEALTHY, DRAINING or TIMEOUT, a Redis Cluster master flagged
	// fail, fail? or noaddr.
	Down bool
	// Backup is true for a server that takes traffic only when the others
	// cannot: nginx and HAProxy "backup", an Envoy endpoint of priority
	// above 0.
	Backup bool
	// Line and Col are where the server's entry starts, 1-based; Col
	// counts characters (UTF-8 code points).
	Line, Col int
}

// Error is a positioned problem: what is wrong and what would be right.
// Line and Col are 1-based (Col counts characters); Line 0 means the
// problem has no place in the data, such as an unknown format.
type Error struct {
	Line, Col int
	Msg       string
}

// Error returns "line:col: msg", or msg alone when Line is 0; a caller
// puts the file name in front: "nginx.conf:" + e.Error().
func (e Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// SlotRange is a run of Redis Cluster hash slots First..Last (inclusive)
// served by nodes[Node].
type SlotRange struct {
	First, Last int
	Node        int
}

// Formats lists the formats Parse accepts.
var Formats = []string{"nginx", "haproxy", "envoy", "redis-cluster-nodes", "libmemcached"}

// Limits on what Parse reads; each breach is a positioned error.
const (
	MaxServers = 10000     // servers in the result
	MaxLine    = 64 << 10  // bytes in one line, its line break not counted
	MaxDepth   = 64        // nested blocks: nginx braces, Envoy YAML levels
	maxErrors  = 100       // problems reported before Parse gives up
	maxInput   = 256 << 20 // bytes of data; more is refused outright
)

// Selector names what Parse's selector argument picks in format:
// "upstream", "backend", "cluster", or "" where the format has none.
func Selector(format string) string {
	switch format {
	case "nginx":
		return "upstream"
	case "haproxy":
		return "backend"
	case "envoy":
		return "cluster"
	}
	return ""
}

// Detect guesses the format from a file name, "" if unsure: nginx.conf,
// *.nginx and *.conf under a folder named nginx are nginx; haproxy.cfg and
// *.cfg are haproxy; envoy.yaml, *.yaml, *.yml and envoy*.json are envoy;
// cluster-nodes*.txt, nodes.conf and nodes-*.conf (Redis's own
// cluster-config-file names) are redis-cluster-nodes; *.servers and
// memcached*.txt/.conf/.servers are libmemcached.
func Detect(fileName string) string {
	p := strings.ReplaceAll(strings.ToLower(filepath.ToSlash(fileName)), `\`, "/")
	base := p[strings.LastIndexByte(p, '/')+1:]
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	inDir := func(dir string) bool {
		return strings.HasPrefix(p, dir+"/") || strings.Contains(p, "/"+dir+"/")
	}
	switch {
	case base == "nodes.conf" || (strings.HasPrefix(base, "nodes-") && ext == ".conf"),
		strings.HasPrefix(stem, "cluster-nodes") || strings.HasPrefix(stem, "cluster_nodes"):
		return "redis-cluster-nodes"
	case ext == ".servers", strings.HasPrefix(stem, "memcached") && (ext == ".txt" || ext == ".conf" || ext == ""):
		return "libmemcached"
	case base == "nginx.conf", ext == ".nginx", ext == ".conf" && (inDir("nginx") || strings.HasPrefix(stem, "nginx")):
		return "nginx"
	case ext == ".cfg", base == "haproxy.conf":
		return "haproxy"
	case ext == ".yaml", ext == ".yml", ext == ".json" && strings.Contains(stem, "envoy"):
		return "envoy"
	}
	return ""
}

// Parse reads data in format; selector is the upstream (nginx), backend or
// listen section (haproxy) or cluster (envoy) name, and "" for
// redis-cluster-nodes and libmemcached. It returns the servers in the
// order the configuration lists them, or nil and every problem it found
// (up to 100); it never panics and takes time linear in len(data).
func Parse(format string, data []byte, selector string) ([]Node, []Error) {
	switch format {
	case "nginx", "haproxy", "envoy":
		// an empty selector: the format's parser lists the candidates
	case "redis-cluster-nodes", "libmemcached":
		if selector != "" {
			return nil, []Error{{Msg: fmt.Sprintf("format %s has no sections to select: its file lists one set of servers; leave the selector empty (got %s)", format, quote(selector))}}
		}
	default:
		return nil, []Error{{Msg: fmt.Sprintf("unknown format %q; formats: %s", format, strings.Join(Formats, ", "))}}
	}
	if len(data) > maxInput {
		return nil, []Error{{Msg: fmt.Sprintf("the file is %d bytes; ringreport reads at most %d", len(data), maxInput)}}
	}
	if errs := longLines(data); len(errs) > 0 {
		return nil, errs
	}
	switch format {
	case "nginx":
		return parseNginx(data, selector)
	case "haproxy":
		return parseHAProxy(data, selector)
	case "envoy":
		return parseEnvoy(data, selector)
	case "redis-cluster-nodes":
		n, _, errs := parseRedis(data)
		return n, errs
	default:
		return parseMemcached(data)
	}
}

// ParseRedisNodes reads the output of redis-cli CLUSTER NODES (or a
// node's nodes.conf) into its masters and the slot table: the runs of
// slots, in slot order, each with the index in nodes of the master serving
// it.
func ParseRedisNodes(data []byte) (nodes []Node, slots []SlotRange, errs []Error) {
	if len(data) > maxInput {
		return nil, nil, []Error{{Msg: fmt.Sprintf("the file is %d bytes; ringreport reads at most %d", len(data), maxInput)}}
	}
	if errs := longLines(data); len(errs) > 0 {
		return nil, nil, errs
	}
	return parseRedis(data)
}

// longLines reports the lines longer than MaxLine bytes.
func longLines(data []byte) []Error {
	var errs []Error
	line, start := 1, 0
	for i := 0; i <= len(data); i++ {
		if i < len(data) && data[i] != '\n' {
			continue
		}
		end := i
		if end > start && data[end-1] == '\r' {
			end--
		}
		if end-start > MaxLine {
			errs = append(errs, Error{line, runeCol(data[start:start+MaxLine]) + 1,
				fmt.Sprintf("line is %d bytes long; ringreport reads lines of at most %d bytes (64 KiB): break it up", end-start, MaxLine)})
			if len(errs) == maxErrors {
				break
			}
		}
		line, start = line+1, i+1
	}
	return errs
}

// runeCol counts the characters in b: the bytes that do not continue a
// UTF-8 sequence.
func runeCol(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// positions turns byte offsets into 1-based lines and columns. Offsets
// asked for in increasing order cost time proportional to the distance
// between them; any offset costs at most a binary search and one line.
type positions struct {
	data   []byte
	starts []int // byte offset of each line's first byte
	// the last answer, to continue from
	off, line, col int
}

func newPositions(data []byte) *positions {
	p := &positions{data: data, starts: []int{0}, line: 1, col: 1}
	for i, c := range data {
		if c == '\n' {
			p.starts = append(p.starts, i+1)
		}
	}
	return p
}

// at returns the line and column of byte offset off.
func (p *positions) at(off int) (line, col int) {
	off = min(max(off, 0), len(p.data))
	if off < p.off || (p.line < len(p.starts) && off >= p.starts[p.line]) {
		// another line: find it
		lo, hi := 0, len(p.starts)-1
		for lo < hi {
			m := (lo + hi + 1) / 2
			if p.starts[m] <= off {
				lo = m
			} else {
				hi = m - 1
			}
		}
		p.off, p.line, p.col = p.starts[lo], lo+1, 1
	}
	p.col += runeCol(p.data[p.off:off])
	p.off = off
	return p.line, p.col
}

// errorList collects problems up to maxErrors.
type errorList struct {
	errs []Error
	full bool
}

// add records a problem; it returns false once the list is full, so that
// a parser can stop.
func (l *errorList) add(line, col int, format string, args ...any) bool {
	if l.full {
		return false
	}
	if len(l.errs) == maxErrors-1 {
		l.errs = append(l.errs, Error{line, col, fmt.Sprintf("more than %d problems; stopped reading here", maxErrors-1)})
		l.full = true
		return false
	}
	l.errs = append(l.errs, Error{line, col, fmt.Sprintf(format, args...)})
	return true
}

// tooMany is the message for the server past MaxServers.
func tooMany(what string) string {
	return fmt.Sprintf("more than %d %s; ringreport reads at most %d servers: split the cluster", MaxServers, what, MaxServers)
}

// nameList lists names for a message: at most 20, then how many more.
func nameList(names []string) string {
	if len(names) == 0 {
		return "(none)"
	}
	const most = 20
	if len(names) <= most {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:most], ", ") + fmt.Sprintf(" and %d more", len(names)-most)
}

// closest returns the index of the name nearest to want by edit distance
// (at most 2, case folded), or -1; it looks at the first 1,000 names.
func closest(want string, names []string) int {
	best, bestD := -1, 3
	w := []rune(strings.ToLower(want))
	if len(w) > 64 {
		return -1
	}
	for i, n := range names {
		if i == 1000 {
			break
		}
		r := []rune(strings.ToLower(n))
		if len(r) > 64 || abs(len(r)-len(w)) >= bestD {
			continue
		}
		if d := editDistance(w, r); d < bestD {
			best, bestD = i, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// quote renders s for a message: Go-quoted, cut at 80 characters.
func quote(s string) string {
	r := []rune(s)
	if len(r) > 80 {
		return strconv.Quote(string(r[:80])) + "…"
	}
	return strconv.Quote(s)
}
