package nodesfrom

import (
	"fmt"
	"net/netip"
	"strings"
)

// nginx: the tokens of src/core/ngx_conf_file.c (ngx_conf_read_token), the
// upstream{} block of src/http/ngx_http_upstream.c and
// src/stream/ngx_stream_upstream.c, the balancers' server flags of
// src/http/modules/ngx_http_upstream_*_module.c, addresses as
// src/core/ngx_inet.c's ngx_parse_url reads them, and times as
// src/core/ngx_parse.c's ngx_parse_time does.

// ngxTok is one word of a directive: its value with quotes and escapes
// resolved, and the offset of its first byte (its opening quote, if any).
type ngxTok struct {
	val string
	off int
}

// what ngxLexer.next found
const (
	ngxDirective  = iota // args ended by ";"
	ngxBlockStart        // args ended by "{"
	ngxBlockDone         // "}"
	ngxEOF               // end of data, between directives
	ngxSyntax            // a syntax error, in errOff and errMsg
)

// ngxLexer reads nginx's configuration syntax as ngx_conf_read_token does.
type ngxLexer struct {
	data   []byte
	i      int
	args   []ngxTok
	errOff int
	errMsg string
	end    int // offset of the ";", "{" or "}" that ended the last call
}

func ngxSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// next reads the next directive, block start or block end.
func (lx *ngxLexer) next() int {
	lx.args = lx.args[:0]
	var (
		lastSpace = true
		sharp     bool
		quoted    bool
		needSpace bool
		dq, sq    bool
		variable  bool
		start     int
		tokOff    int
	)
	fail := func(off int, format string, args ...any) int {
		lx.errOff, lx.errMsg = off, fmt.Sprintf(format, args...)
		return ngxSyntax
	}
	for {
		if lx.i >= len(lx.data) {
			if len(lx.args) > 0 || !lastSpace {
				if dq || sq {
					q := `"`
					if sq {
						q = "'"
					}
					return fail(tokOff, "the quote %s opened here is never closed (nginx: unexpected end of file); close it", q)
				}
				if len(lx.args) > 0 {
					return fail(lx.args[0].off, "unexpected end of file: the directive %s that starts here is not ended; add \";\"", quote(lx.args[0].val))
				}
				return fail(tokOff, "unexpected end of file: the last word is not ended; add \";\"")
			}
			return ngxEOF
		}
		ch := lx.data[lx.i]
		lx.i++
		if ch == '\n' {
			sharp = false
		}
		if sharp {
			continue
		}
		if quoted {
			quoted = false
			continue
		}
		if needSpace {
			if ngxSpace(ch) {
				lastSpace, needSpace = true, false
				continue
			}
			if ch == ';' {
				lx.end = lx.i - 1
				return ngxDirective
			}
			if ch == '{' {
				lx.end = lx.i - 1
				return ngxBlockStart
			}
			if ch != ')' {
				return fail(lx.i-1, "unexpected %q after a quoted word; put a space, \";\" or \"{\" after the closing quote", string(ch))
			}
			lastSpace, needSpace = true, false
		}
		if lastSpace {
			start = lx.i - 1
			tokOff = start
			if ngxSpace(ch) {
				continue
			}
			switch ch {
			case ';', '{':
				if len(lx.args) == 0 {
					return fail(lx.i-1, "unexpected %q: no directive name before it; remove it or write the directive", string(ch))
				}
				lx.end = lx.i - 1
				if ch == '{' {
					return ngxBlockStart
				}
				return ngxDirective
			case '}':
				if len(lx.args) != 0 {
					return fail(lx.i-1, "unexpected \"}\": the directive before it lacks its \";\"; add \";\" before \"}\"")
				}
				lx.end = lx.i - 1
				return ngxBlockDone
			case '#':
				sharp = true
				continue
			case '\\':
				quoted, lastSpace = true, false
				continue
			case '"':
				start++
				dq, lastSpace = true, false
				continue
			case '\'':
				start++
				sq, lastSpace = true, false
				continue
			case '$':
				variable, lastSpace = true, false
				continue
			default:
				lastSpace = false
			}
			continue
		}
		if ch == '{' && variable {
			continue
		}
		variable = false
		if ch == '\\' {
			quoted = true
			continue
		}
		if ch == '$' {
			variable = true
			continue
		}
		found := false
		switch {
		case dq:
			if ch == '"' {
				dq, needSpace, found = false, true, true
			}
		case sq:
			if ch == '\'' {
				sq, needSpace, found = false, true, true
			}
		case ngxSpace(ch) || ch == ';' || ch == '{':
			lastSpace, found = true, true
		}
		if !found {
			continue
		}
		lx.args = append(lx.args, ngxTok{ngxUnescape(lx.data[start : lx.i-1]), tokOff})
		if ch == ';' {
			lx.end = lx.i - 1
			return ngxDirective
		}
		if ch == '{' {
			lx.end = lx.i - 1
			return ngxBlockStart
		}
	}
}

// ngxUnescape resolves \" \' \\ \t \r \n as ngx_conf_read_token does; any
// other backslash stays.
func ngxUnescape(b []byte) string {
	if !strings.ContainsRune(string(b), '\\') {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			switch b[i+1] {
			case '"', '\'', '\\':
				i++
			case 't':
				out = append(out, '\t')
				i++
				continue
			case 'r':
				out = append(out, '\r')
				i++
				continue
			case 'n':
				out = append(out, '\n')
				i++
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

// ngxUpstream is one upstream{} block the file defines.
type ngxUpstream struct {
	name    string
	ctx     string // "http" or "stream"
	off     int
	nodes   []Node
	lines   int    // server directives, good or not
	balance string // the last balancing directive's text, "" for round robin
	hasBal  bool
}

// ngxResult is what reading a file found.
type ngxResult struct {
	target *ngxUpstream // the upstream selected, once unambiguous
}

// ngxBalancers are the directives that choose an upstream's balancing
// method, with whether the method allows "backup" servers (the
// NGX_HTTP_UPSTREAM_BACKUP flag it sets).
var ngxBalancers = map[string]bool{
	"hash": false, "ip_hash": false, "random": false, "least_conn": true,
	// NGINX Plus
	"least_time": true,
}

// parseNginx returns the servers of the upstream selected.
func parseNginx(data []byte, selector string) ([]Node, []Error) {
	r, errs := readNginx(data, selector)
	if r.target == nil {
		return nil, errs
	}
	return r.target.nodes, errs
}

// NginxBalancer returns the load-balancing directive of the nginx upstream
// selector names, as its words joined by single spaces ("hash
// $request_uri consistent", "ip_hash", "random two least_conn"), the
// last one when the upstream has several (nginx uses the last, with a
// warning). ok is false when the upstream has none (round robin) or
// cannot be read; Parse says why. A caller that models nginx's hash
// consistent ring can warn unless the directive is "hash KEY consistent".
func NginxBalancer(data []byte, selector string) (directive string, ok bool) {
	if len(data) > maxInput || len(longLines(data)) > 0 {
		return "", false
	}
	r, _ := readNginx(data, selector)
	if r.target == nil {
		return "", false
	}
	return r.target.balance, r.target.hasBal
}

// readNginx reads the whole file, keeping the servers of the upstreams
// whose name matches selector.
func readNginx(data []byte, selector string) (ngxResult, []Error) {
	pos := newPositions(data)
	var el errorList
	errAt := func(off int, format string, args ...any) bool {
		l, c := pos.at(off)
		return el.add(l, c, format, args...)
	}
	wantCtx, wantName := "", selector
	if c, n, ok := strings.Cut(selector, ":"); ok && (c == "http" || c == "stream") {
		wantCtx, wantName = c, n
	}
	type block struct {
		name string
		off  int
		up   *ngxUpstream // the upstream this block is, if it is selected
	}
	var (
		stack    []block
		ups      []*ngxUpstream // every upstream{} in http{} or stream{}
		matches  []*ngxUpstream
		includes []int
		servers  int
		lx       = ngxLexer{data: data}
		said     bool // a problem about the selected name was reported
		stopped  bool // reading ended before the end of the data
	)
	matchName := func(n string) bool { return strings.EqualFold(n, wantName) && wantName != "" }
loop:
	for !el.full {
		kind := lx.next()
		if kind == ngxSyntax {
			errAt(lx.errOff, "%s", lx.errMsg)
			stopped = true
			break
		}
		if kind == ngxEOF {
			if len(stack) > 0 {
				b := stack[len(stack)-1]
				l, c := pos.at(b.off)
				errAt(len(data), "unexpected end of file, expecting \"}\": the %s block opened at %d:%d is not closed; add \"}\"", b.name, l, c)
			}
			break
		}
		if kind == ngxBlockDone {
			if len(stack) == 0 {
				errAt(lx.end, "unexpected \"}\": no block is open here; remove it")
				stopped = true
				break
			}
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b.up != nil && b.up.lines == 0 {
				errAt(b.off, "upstream %s has no servers (nginx: no servers are inside upstream); add server lines", quote(b.up.name))
			}
			continue
		}
		args := lx.args
		name := args[0].val
		var in *ngxUpstream // the selected upstream this directive is directly in
		if len(stack) > 0 {
			in = stack[len(stack)-1].up
		}
		if name == "include" {
			includes = append(includes, args[0].off)
			if in != nil {
				errAt(args[0].off, "include inside upstream %s: ringreport reads one file and does not follow includes; copy the included server lines into the upstream, or point the scenario at the included file", quote(in.name))
			}
		}
		if in != nil {
			switch {
			case name == "server":
				servers++
				in.lines++
				if servers > MaxServers {
					errAt(args[0].off, "%s", tooMany("servers"))
					stopped = true
					break loop
				}
				if kind == ngxBlockStart {
					errAt(lx.end, "directive \"server\" is not terminated by \";\": an upstream's server takes no block; end it with \";\"")
					stopped = true
					break loop
				}
				if n, ok := ngxServer(args, in, errAt); ok {
					n.Line, n.Col = pos.at(args[0].off)
					in.nodes = append(in.nodes, n)
				}
			case ngxIsBalancer(name):
				words := make([]string, len(args))
				for i, a := range args {
					words[i] = ngxWord(a.val)
				}
				in.balance, in.hasBal = strings.Join(words, " "), true
			}
		}
		if kind == ngxDirective {
			if name == "upstream" && len(args) == 2 && matchName(args[1].val) {
				said = true
				errAt(args[0].off, "directive \"upstream\" has no opening \"{\": write upstream %s { server ...; }", args[1].val)
			}
			continue
		}
		// a block starts
		if len(stack) == MaxDepth {
			errAt(lx.end, "blocks nest deeper than %d levels; ringreport reads at most %d", MaxDepth, MaxDepth)
			stopped = true
			break
		}
		b := block{name: name, off: args[0].off}
		if name == "upstream" {
			ctx := ""
			if len(stack) == 1 && (stack[0].name == "http" || stack[0].name == "stream") {
				ctx = stack[0].name
			}
			switch {
			case len(args) != 2:
				if ctx != "" {
					errAt(args[0].off, "invalid number of arguments in \"upstream\" directive: write upstream NAME {")
				}
			case ctx == "":
				if matchName(args[1].val) {
					said = true
					where := "the top level"
					if len(stack) > 0 {
						where = stack[len(stack)-1].name + "{}"
					}
					errAt(args[0].off, "upstream %s is inside %s; nginx accepts upstream only directly inside http{} or stream{}: move it there", quote(args[1].val), where)
				}
			default:
				u := &ngxUpstream{name: args[1].val, ctx: ctx, off: args[0].off}
				ups = append(ups, u)
				if matchName(u.name) && (wantCtx == "" || wantCtx == ctx) {
					for _, m := range matches {
						if m.ctx == ctx {
							l, c := pos.at(m.off)
							errAt(u.off, "duplicate upstream %s in %s{} (first at %d:%d); nginx refuses it: rename or remove one", quote(u.name), ctx, l, c)
						}
					}
					matches = append(matches, u)
					b.up = u
				}
			}
		}
		stack = append(stack, b)
	}

	var r ngxResult
	switch {
	case len(matches) == 1:
		r.target = matches[0]
	case len(matches) > 1:
		a, b := matches[0], matches[1]
		if a.ctx != b.ctx {
			l1, c1 := pos.at(a.off)
			l2, c2 := pos.at(b.off)
			el.add(l2, c2, "upstream %s is defined in %s{} (%d:%d) and in %s{} (here); say which: %s:%s or %s:%s", quote(a.name), a.ctx, l1, c1, b.ctx, a.ctx, a.name, b.ctx, b.name)
		}
	case !el.full && !said && !stopped:
		names := make([]string, len(ups))
		for i, u := range ups {
			names[i] = u.name
		}
		what := fmt.Sprintf("no upstream named %s", quote(selector))
		if selector == "" {
			what = "no upstream named: Parse needs the upstream's name"
		}
		msg := what + "; upstreams in this file: " + nameList(names)
		line, col := 0, 0
		if i := closest(wantName, names); i >= 0 && wantName != "" {
			line, col = pos.at(ups[i].off)
			msg = fmt.Sprintf("%s; did you mean %s (at %d:%d)? upstreams in this file: %s", what, quote(names[i]), line, col, nameList(names))
		}
		if len(includes) > 0 {
			l, c := pos.at(includes[0])
			msg += fmt.Sprintf("; the file includes others (first at %d:%d), which ringreport does not read: if the upstream is in one, point the scenario at that file", l, c)
		}
		el.add(line, col, "%s", msg)
	}
	if len(el.errs) > 0 {
		return ngxResult{}, el.errs
	}
	return r, nil
}

func ngxIsBalancer(name string) bool {
	_, ok := ngxBalancers[name]
	return ok
}

// ngxWord writes a word back as nginx would read it: quoted when it holds
// a blank, a quote or a character that ends a word.
func ngxWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\r\n;{}\"'#\\") {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`, "\r", `\r`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// ngxServer reads one server directive of upstream u.
func ngxServer(args []ngxTok, u *ngxUpstream, errAt func(int, string, ...any) bool) (Node, bool) {
	if len(args) < 2 {
		errAt(args[0].off, "invalid number of arguments in \"server\" directive: write server ADDRESS [weight=N] ...;")
		return Node{}, false
	}
	addr := args[1]
	n := Node{Name: addr.val, Weight: 1}
	ok := true
	bad := func(t ngxTok, format string, a ...any) {
		errAt(t.off, "server %s: "+format, append([]any{addr.val}, a...)...)
		ok = false
	}
	// the balancer in force when nginx reads this line decides whether
	// backup is allowed
	backupOK := true
	if u.hasBal {
		backupOK = ngxBalancers[strings.SplitN(u.balance, " ", 2)[0]]
	}
	resolve, service := false, false
	for _, t := range args[2:] {
		v := t.val
		key, val, hasEq := strings.Cut(v, "=")
		switch {
		case hasEq && key == "weight":
			w, good := ngxAtoi(val)
			if !good || w == 0 {
				bad(t, "invalid parameter %s: weight must be a whole number of at least 1, such as weight=2", quote(v))
				continue
			}
			n.Weight = w
		case hasEq && (key == "max_conns" || key == "max_fails"):
			if _, good := ngxAtoi(val); !good {
				bad(t, "invalid parameter %s: %s must be a whole number, such as %s=0", quote(v), key, key)
			}
		case hasEq && (key == "fail_timeout" || key == "slow_start"):
			if !ngxTime(val) {
				bad(t, "invalid parameter %s: %s must be a time such as 10s or 1m30s", quote(v), key)
			}
		case v == "backup":
			if !backupOK {
				bad(t, "parameter \"backup\" is not allowed after %q (nginx: balancing method does not support parameter \"backup\"); remove it, or use least_conn or round robin", u.balance)
				continue
			}
			n.Backup = true
		case v == "down", v == "drain":
			n.Down = true
		case hasEq && key == "route":
			if val == "" {
				bad(t, "route is empty; write route=NAME")
			}
		case v == "resolve":
			resolve = true
		case hasEq && key == "service":
			if val == "" {
				bad(t, "service is empty; write service=NAME")
			}
			service = true
		default:
			bad(t, "invalid parameter %s; nginx's server parameters are weight=, max_conns=, max_fails=, fail_timeout=, backup, down, resolve, service=, slow_start=, route=, drain", quote(v))
		}
	}
	if service && !resolve {
		bad(addr, "service= requires the \"resolve\" parameter; add resolve")
	}
	if msg := ngxAddr(addr.val, u.ctx == "stream"); msg != "" {
		bad(addr, "%s", msg)
	}
	return n, ok
}

// ngxAddr checks an upstream server address as ngx_parse_url reads it,
// and returns what is wrong, or "".
func ngxAddr(a string, stream bool) string {
	const eg = "write host:port, such as 10.0.0.1:11211"
	if len(a) >= 5 && strings.EqualFold(a[:5], "unix:") {
		switch p := a[5:]; {
		case p == "":
			return "no path in the unix domain socket; write unix:/path/to/socket"
		case len(p) >= 108:
			return "too long path in the unix domain socket (nginx allows 107 bytes)"
		}
		return ""
	}
	host, port, hasPort := "", "", false
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return "invalid host: the IPv6 address lacks its \"]\"; " + eg
		}
		host = a[1:end]
		rest := a[end+1:]
		if strings.ContainsRune(rest, '/') {
			return "invalid host: an upstream server takes no URI; " + eg
		}
		if rest != "" {
			if rest[0] != ':' {
				return "invalid host: expected \":port\" after \"]\"; " + eg
			}
			port, hasPort = rest[1:], true
		}
		if ip, err := netip.ParseAddr(host); err != nil || !ip.Is6() || ip.Zone() != "" {
			return "invalid IPv6 address " + quote(host)
		}
	} else {
		if strings.ContainsAny(a, "/?") {
			return "invalid host: an upstream server takes no URI or scheme; " + eg
		}
		host, port, hasPort = strings.Cut(a, ":")
	}
	if hasPort {
		if p, ok := ngxAtoi(port); !ok || p < 1 || p > 65535 {
			if strings.Count(a, ":") > 1 && !strings.HasPrefix(a, "[") {
				return "invalid port " + quote(port) + ": an IPv6 address goes in brackets, such as [::1]:11211"
			}
			return "invalid port " + quote(port) + ": a port is a number from 1 to 65535"
		}
	}
	if host == "" {
		return "no host; " + eg
	}
	if !hasPort && stream {
		return "no port in upstream: a stream{} server needs one; " + eg
	}
	return ""
}

// ngxAtoi is ngx_atoi: decimal digits only, at least one, no overflow.
func ngxAtoi(s string) (int, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// ngxTime reports whether ngx_parse_time(s, is_sec=1) accepts s: numbers
// each followed by a unit y M w d h m s (in that order), or by a space
// once, with no "ms" since the result is in seconds.
func ngxTime(s string) bool {
	const (
		stStart = iota
		stYear
		stMonth
		stWeek
		stDay
		stHour
		stMin
		stSec
		stMsec
		stLast
	)
	const maxVal = 1<<63 - 1
	step := stStart
	valid := false
	value, total := int64(0), int64(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c >= '0' && c <= '9' {
			if value > (maxVal-int64(c-'0'))/10 {
				return false
			}
			value = value*10 + int64(c-'0')
			valid = true
			i++
			continue
		}
		i++
		var next int
		var scale int64
		switch c {
		case 'y':
			next, scale = stYear, 60*60*24*365
		case 'M':
			next, scale = stMonth, 60*60*24*30
		case 'w':
			next, scale = stWeek, 60*60*24*7
		case 'd':
			next, scale = stDay, 60*60*24
		case 'h':
			next, scale = stHour, 60*60
		case 'm':
			if i < len(s) && s[i] == 's' {
				return false // ms: not for a time in seconds
			}
			next, scale = stMin, 60
		case 's':
			next, scale = stSec, 1
		case ' ':
			next, scale = stLast, 1
		default:
			return false
		}
		if (next == stYear && step > stStart) || (next != stYear && step >= next) || (next == stLast && step >= stSec) {
			return false
		}
		step = next
		if value > maxVal/scale {
			return false
		}
		value *= scale
		if total > maxVal-value {
			return false
		}
		total += value
		value = 0
		for i < len(s) && s[i] == ' ' {
			i++
		}
	}
	if !valid || total > maxVal-value {
		return false
	}
	return true
}
