package nodesfrom

import (
	"strconv"
	"strings"
)

// libmemcached (libmemcached-awesome 1.1.4): two syntaxes, one a line.
//
// A configuration string, as memcached() and memcached_parse_configuration
// read it and as --CONFIGURE-FILE reads a file (a line at a time): the
// tokens of src/libmemcached/csl/scanner.l and the statements of
// src/libmemcached/csl/parser.yy, separated by single spaces:
// --SERVER=host[:port][/?weight], --SOCKET="path"[/?weight], and the
// options that set behaviours, which Parse checks and otherwise ignores.
//
// A server list, as memcached_servers_parse (src/libmemcached/parse.cc)
// reads the --servers option of libmemcached's tools: comma-separated
// host[:port[ weight|:weight]] entries, "[v6 address]:port" too.

// mcOptions are the scanner's option tokens, in the scanner's order, with
// what follows each: 'S' a server, 'K' a socket, 'N' a number, 'T' a
// string, 'H' a hash, 'D' a distribution, 'F' a file (unsupported), and
// 0 nothing.
var mcOptions = []struct {
	text string
	arg  byte
}{
	{"--SERVER=", 'S'}, {"--SOCKET=", 'K'}, {"--BINARY-PROTOCOL", 0},
	{"--BUFFER-REQUESTS", 0}, {"--CONFIGURE-FILE=", 'F'}, {"--CONNECT-TIMEOUT=", 'N'},
	{"--DISTRIBUTION=", 'D'}, {"--HASH-WITH-NAMESPACE", 0}, {"--HASH=", 'H'},
	{"--IO-BYTES-WATERMARK=", 'N'}, {"--IO-KEY-PREFETCH=", 'N'}, {"--IO-MSG-WATERMARK=", 'N'},
	{"--NOREPLY", 0}, {"--NUMBER-OF-REPLICAS=", 'N'}, {"--POLL-TIMEOUT=", 'N'},
	{"--RANDOMIZE-REPLICA-READ", 0}, {"--RCV-TIMEOUT=", 'N'}, {"--REMOVE-FAILED-SERVERS=", 'N'},
	{"--RETRY-TIMEOUT=", 'N'}, {"--SND-TIMEOUT=", 'N'}, {"--SOCKET-RECV-SIZE=", 'N'},
	{"--SOCKET-SEND-SIZE=", 'N'}, {"--SORT-HOSTS", 0}, {"--SUPPORT-CAS", 0},
	{"--TCP-KEEPALIVE", 0}, {"--TCP-KEEPIDLE", 0}, {"--TCP-NODELAY", 0}, {"--USE-UDP", 0},
	{"--USER-DATA", 0}, {"--VERIFY-KEY", 0}, {"--POOL-MIN=", 'N'}, {"--POOL-MAX=", 'N'},
	{"--NAMESPACE=", 'T'}, {"--FETCH-VERSION", 0},
}

// the scanner's keywords before "--"[[:alnum:]]*, and after it
var (
	mcWordsBefore = []string{"INCLUDE", "RESET", "DEBUG", "SERVERS", "END", "CSL_ERROR", "TRUE", "FALSE"}
	mcWordsAfter  = []string{"CONSISTENT", "MODULA", "RANDOM", "MD5", "CRC", "FNV1_64", "FNV1A_64", "FNV1_32", "FNV1A_32", "HSIEH", "MURMUR", "JENKINS"}
)

// token kinds
const (
	mcEOF  = iota
	mcChar // ' ', '=' or ','
	mcNumber
	mcPort
	mcWeight
	mcComment
	mcOption // mcOptions[opt]
	mcWord   // a keyword, in word
	mcUnknownOption
	mcIP
	mcHost // HOSTNAME after --SERVER=, STRING elsewhere
	mcQuoted
	mcUnknown
)

type mcTok struct {
	kind int
	text string // the matched text
	opt  int
	off  int // offset in the line
}

// mcScan returns the token at s[i:], as flex's longest match with the
// earlier rule winning ties; it skips tabs, CRs and LFs.
func mcScan(s string, i int) mcTok {
	for i < len(s) && (s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	if i >= len(s) {
		return mcTok{kind: mcEOF, off: i}
	}
	best := mcTok{kind: mcUnknown, text: s[i : i+1], off: i}
	try := func(kind, n, opt int) {
		if n > len(best.text) {
			best = mcTok{kind: kind, text: s[i : i+n], opt: opt, off: i}
		}
	}
	// earlier rules first, so that a later one must be longer to win
	if c := s[i]; c == ' ' || c == '=' || c == ',' {
		return mcTok{kind: mcChar, text: s[i : i+1], off: i}
	}
	best.text = "" // '.' is the last rule: any rule of length 1 beats it
	digits := func(j, most int) int {
		n := 0
		for j+n < len(s) && isDigit(s[j+n]) && n < most {
			n++
		}
		return n
	}
	try(mcNumber, digits(i, len(s)), 0)
	if s[i] == ':' {
		if n := digits(i+1, 5); n > 0 {
			try(mcPort, 1+n, 0)
		}
	}
	if strings.HasPrefix(s[i:], "/?") {
		if n := digits(i+2, 5); n > 0 {
			try(mcWeight, 2+n, 0)
		}
	}
	if i == 0 && s[0] == '#' {
		try(mcComment, len(s), 0)
	}
	for k, o := range mcOptions {
		if len(s)-i >= len(o.text) && strings.EqualFold(s[i:i+len(o.text)], o.text) {
			try(mcOption, len(o.text), k)
		}
	}
	word := func(list []string) {
		for _, w := range list {
			if len(s)-i >= len(w) && strings.EqualFold(s[i:i+len(w)], w) {
				try(mcWord, len(w), 0)
			}
		}
	}
	word(mcWordsBefore)
	if strings.HasPrefix(s[i:], "--") {
		n := 2
		for i+n < len(s) && (isAlpha(s[i+n]) || isDigit(s[i+n])) {
			n++
		}
		try(mcUnknownOption, n, 0)
	}
	word(mcWordsAfter)
	// (([[:digit:]]{1,3}"."){3}([[:digit:]]{1,3}))
	if n := mcIPLen(s[i:]); n > 0 {
		try(mcIP, n, 0)
	}
	// [[:alnum:]]["."[:alnum:]_-]+[[:alnum:]]
	if isAlnum(s[i]) {
		e := i + 1
		for e < len(s) && (isAlnum(s[e]) || s[e] == '"' || s[e] == '.' || s[e] == '_' || s[e] == '-') {
			e++
		}
		for p := e - 1; p >= i+2; p-- {
			if isAlnum(s[p]) {
				try(mcHost, p-i+1, 0)
				break
			}
		}
	}
	// L?\"(\\.|[^\\"])*\"
	q := i
	if s[q] == 'L' {
		q++
	}
	if q < len(s) && s[q] == '"' {
		for j := q + 1; j < len(s); j++ {
			if s[j] == '\\' {
				if j+1 < len(s) && s[j+1] != '\n' {
					j++
					continue
				}
				break
			}
			if s[j] == '"' {
				try(mcQuoted, j-i+1, 0)
				break
			}
		}
	}
	if best.text == "" {
		best = mcTok{kind: mcUnknown, text: s[i : i+1], off: i}
	}
	return best
}

func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// mcIPLen is the length of the dotted quad at the start of s, or 0.
func mcIPLen(s string) int {
	j := 0
	for g := 0; g < 4; g++ {
		n := 0
		for j+n < len(s) && isDigit(s[j+n]) && n < 3 {
			n++
		}
		if n == 0 {
			return 0
		}
		j += n
		if g == 3 {
			return j
		}
		if j >= len(s) || s[j] != '.' {
			return 0
		}
		j++
	}
	return 0
}

// mcLine is one line of the file: its text and where it starts.
type mcLine struct {
	text string
	off  int
}

// parseMemcached reads a file of configuration strings and server lists.
func parseMemcached(data []byte) ([]Node, []Error) {
	var el errorList
	pos := newPositions(data)
	var nodes []Node
	var st mcState
	errAt := func(off int, format string, args ...any) bool {
		l, c := pos.at(off)
		return el.add(l, c, format, args...)
	}
	add := func(n Node, off int) bool {
		if len(nodes) == MaxServers {
			errAt(off, "%s", tooMany("servers"))
			return false
		}
		n.Line, n.Col = pos.at(off)
		nodes = append(nodes, n)
		return true
	}
	for start := 0; start < len(data) && !el.full; {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		raw := string(data[start:end])
		lineOff := start
		start = end + 1
		text := strings.TrimLeft(raw, " \t")
		off := lineOff + len(raw) - len(text)
		text = strings.TrimRight(text, " \t\r")
		switch {
		case text == "" || text[0] == '#':
		case strings.HasPrefix(text, "--servers="):
			if !mcList(text[10:], off+10, add, errAt) {
				return nil, el.errs
			}
		case strings.HasPrefix(text, "--"):
			if mcConfig(text, off, &st, add, func() { nodes, st = nodes[:0], mcState{} }, errAt) {
				return nil, el.errs
			}
		default:
			if !mcList(text, off, add, errAt) {
				return nil, el.errs
			}
		}
	}
	if len(nodes) == 0 && len(el.errs) == 0 {
		el.add(0, 0, "no servers: write one a line, such as --SERVER=10.0.0.1:11211/?2 or 10.0.0.1:11211")
	}
	if len(el.errs) > 0 {
		return nil, el.errs
	}
	return nodes, nil
}

// mcState is what the statements of earlier lines set, as
// --CONFIGURE-FILE applies every line to one memcached_st.
type mcState struct {
	namespace bool // --NAMESPACE was given
	binary    bool // --BINARY-PROTOCOL was given
}

// mcConfig reads one configuration string; RESET calls reset, which
// drops the servers before it. It returns true when Parse must give up
// (too many servers).
func mcConfig(s string, base int, st *mcState, add func(Node, int) bool, reset func(), errAt func(int, string, ...any) bool) (stop bool) {
	i := 0
	hash := false // --HASH was given in this string
	next := func() mcTok {
		t := mcScan(s, i)
		i = t.off + len(t.text)
		return t
	}
	peek := func() mcTok { return mcScan(s, i) }
	fail := func(t mcTok, format string, args ...any) {
		if t.kind == mcEOF {
			errAt(base+t.off, "libmemcached cannot read this: the line ends too soon; "+format, args...)
			return
		}
		errAt(base+t.off, "libmemcached cannot read this at "+quote(t.text)+": "+format, args...)
	}
	str := func() (string, bool) {
		t := next()
		switch t.kind {
		case mcQuoted:
			// as the scanner takes it: yytext+1, yyleng-2, so that L"x"
			// is "x
			return t.text[1 : len(t.text)-1], true
		case mcHost:
			return t.text, true
		}
		fail(t, "expected a string, such as \"name\"")
		return "", false
	}
	weight := func() (int, bool) {
		if peek().kind != mcWeight {
			return 1, true
		}
		w, _ := strconv.Atoi(next().text[2:])
		return max(w, 1), true // weight 0 is 1 (instance.cc)
	}
	for {
		t := next()
		switch t.kind {
		case mcComment:
			return false
		case mcWord:
			switch strings.ToUpper(t.text) {
			case "END":
				return false
			case "RESET":
				reset()
			case "DEBUG":
			case "CSL_ERROR":
				fail(t, "CSL_ERROR makes libmemcached refuse the configuration; remove it")
				return false
			case "INCLUDE":
				fail(t, "INCLUDE reads another file, which ringreport does not follow; copy its lines here")
				return false
			default:
				fail(t, "expected an option such as --SERVER=host:port")
				return false
			}
		case mcOption:
			o := mcOptions[t.opt]
			switch o.arg {
			case 'S':
				h := next()
				if h.kind != mcIP && h.kind != mcHost {
					fail(h, "expected a host name (3 characters or more) or an IPv4 address after --SERVER=")
					return false
				}
				name := h.text
				if p := peek(); p.kind == mcPort {
					next()
					port, _ := strconv.Atoi(p.text[1:])
					if port < 1 || port > 65535 {
						fail(p, "port %d is not from 1 to 65535", port)
						return false
					}
					name += ":" + strconv.Itoa(port)
				}
				w, _ := weight()
				if !add(Node{Name: name, Weight: w}, base+t.off) {
					return true
				}
			case 'K':
				path, ok := str()
				if !ok {
					return false
				}
				w, _ := weight()
				if !add(Node{Name: path, Weight: w}, base+t.off) {
					return true
				}
			case 0:
				if o.text == "--BINARY-PROTOCOL" {
					st.binary = true
				}
			case 'N':
				if n := next(); n.kind != mcNumber {
					fail(n, "%s takes a number", strings.TrimSuffix(o.text, "="))
					return false
				}
			case 'T': // --NAMESPACE=, which memcached_set_namespace checks
				v, ok := str()
				switch {
				case !ok:
					return false
				case st.namespace:
					fail(t, "--NAMESPACE can only be called once")
					return false
				case len(v) == 0 || len(v) > 127:
					fail(t, "a namespace has 1 to 127 characters")
					return false
				case !st.binary && strings.IndexFunc(v, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0:
					fail(t, "a namespace has no blanks or control characters (unless --BINARY-PROTOCOL comes first)")
					return false
				}
				st.namespace = true
			case 'F':
				fail(t, "--CONFIGURE-FILE= reads another file, which ringreport does not follow; copy its lines here")
				return false
			case 'H':
				h := next()
				if h.kind != mcWord || mcHashOrDist(h.text) != 'H' {
					fail(h, "expected a hash: MD5, CRC, FNV1_64, FNV1A_64, FNV1_32, FNV1A_32, HSIEH, MURMUR or JENKINS")
					return false
				}
				if strings.EqualFold(h.text, "HSIEH") {
					fail(h, "%s", mcHsieh)
					return false
				}
				if hash {
					fail(t, "--HASH can only be set once")
					return false
				}
				hash = true
			case 'D':
				if d := next(); d.kind != mcWord || mcHashOrDist(d.text) != 'D' {
					fail(d, "expected a distribution: CONSISTENT, MODULA or RANDOM")
					return false
				}
				if p := peek(); p.kind == mcChar && p.text == "," {
					next()
					if h := next(); h.kind != mcWord || mcHashOrDist(h.text) != 'H' {
						fail(h, "expected a hash after \",\": MD5, CRC, FNV1_64, FNV1A_64, FNV1_32, FNV1A_32, HSIEH, MURMUR or JENKINS")
						return false
					} else if strings.EqualFold(h.text, "HSIEH") {
						fail(h, "%s", mcHsieh)
						return false
					}
				}
			}
		case mcUnknownOption:
			fail(t, "unknown option %s; the server option is --SERVER=host:port/?weight", quote(t.text))
			return false
		case mcEOF:
			fail(t, "expected an option such as --SERVER=host:port")
			return false
		default:
			fail(t, "expected an option such as --SERVER=host:port")
			return false
		}
		// statements are separated by one space
		switch sep := next(); {
		case sep.kind == mcEOF:
			return false
		case sep.kind != mcChar || sep.text != " ":
			fail(sep, "expected a space and the next option, or the end of the line")
			return false
		}
	}
}

// mcHashOrDist says whether a keyword names a hash ('H') or a
// distribution ('D').
func mcHashOrDist(w string) byte {
	switch strings.ToUpper(w) {
	case "CONSISTENT", "MODULA", "RANDOM":
		return 'D'
	case "MD5", "CRC", "FNV1_64", "FNV1A_64", "FNV1_32", "FNV1A_32", "HSIEH", "MURMUR", "JENKINS":
		return 'H'
	}
	return 0
}

// mcHsieh is the problem with HSIEH: libhashkit has it only when built
// with it, and Debian's 1.1.4 is not, so libmemcached refuses it.
const mcHsieh = "libmemcached refuses HSIEH unless libhashkit was built with it (Debian's is not); use MD5, CRC, FNV1_64, FNV1A_64, FNV1_32, FNV1A_32, MURMUR or JENKINS"

// mcList reads one server list as memcached_servers_parse does; it
// returns false when Parse must give up.
func mcList(s string, base int, add func(Node, int) bool, errAt func(int, string, ...any) bool) bool {
	const eg = "write host:port or host:port:weight, such as 10.0.0.1:11211:2"
	for i := 0; i < len(s); {
		end := strings.IndexByte(s[i:], ',')
		if end < 0 {
			end = len(s)
		} else {
			end += i
		}
		item, off := s[i:end], base+i
		i = end + 1
		if i < len(s) && isCSpace(s[i]) {
			i++ // one blank after a comma
		}
		if item == "" {
			errAt(off, "empty entry between commas; remove the extra comma")
			continue
		}
		host, rest, hasPort := item, "", false
		if lb := strings.IndexByte(item, '['); lb >= 0 {
			rb := strings.IndexByte(item[lb+1:], ']')
			if rb < 0 {
				errAt(off+lb, "the \"[\" of an IPv6 address is not closed; write [address]:port, such as [::1]:11211")
				continue
			}
			after := lb + 1 + rb + 1
			if c := strings.IndexByte(item[after:], ':'); c >= 0 {
				host, rest, hasPort = item[:after+c], item[after+c+1:], true
			}
		} else if c := strings.IndexByte(item, ':'); c >= 0 {
			host, rest, hasPort = item[:c], item[c+1:], true
		}
		switch {
		case host == "":
			errAt(off, "no host before the port in %s; %s", quote(item), eg)
			continue
		case strings.ContainsAny(host, " \t\v\f"):
			errAt(off, "host %s has a blank in it; separate servers with commas: %s", quote(host), eg)
			continue
		case len(host) >= 1025:
			errAt(off, "host name is longer than libmemcached's 1024 bytes")
			continue
		}
		n := Node{Name: host, Weight: 1}
		if hasPort {
			digits := 0
			for digits < len(rest) && isDigit(rest[digits]) {
				digits++
			}
			port, err := strconv.Atoi(rest[:digits])
			if digits == 0 || err != nil || port < 1 || port > 65535 {
				errAt(off+len(host)+1, "port %s is not a number from 1 to 65535; %s", quote(rest[:max(digits, min(len(rest), 5))]), eg)
				continue
			}
			if host[0] != '/' {
				n.Name = host + ":" + strconv.Itoa(port) // a socket takes no port
			}
			if w := rest[digits:]; w != "" {
				wOff := off + len(host) + 1 + digits
				v, err := strconv.ParseUint(w[1:], 10, 32)
				if (w[0] != ' ' && w[0] != ':') || err != nil || w[1:] == "" || w[1] == '+' {
					errAt(wOff, "%s after the port is not a weight; %s", quote(w), eg)
					continue
				}
				n.Weight = max(int(v), 1) // weight 0 is 1 (server.cc)
			}
		}
		if !add(n, off) {
			return false
		}
	}
	return true
}

// isCSpace is C's isspace.
func isCSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
