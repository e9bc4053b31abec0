package nodesfrom

import (
	"fmt"
	"strconv"
	"strings"
)

// HAProxy: lines as src/cfgparse.c's readcfgfile reads them, words as
// src/tools.c's parse_line splits them, sections as registered by
// REGISTER_CONFIG_SECTION, defaults inheritance as src/cfgparse-listen.c
// does it, and server keywords with the argument counts of the
// srv_kw_list tables (src/server.c, src/check.c, src/cfgparse-ssl.c,
// src/cfgparse-tcp.c, src/cfgparse-quic.c, src/tcpcheck.c).

// hapSections are the words that start a section, HAProxy 2.6 to 3.x.
var hapSections = map[string]bool{
	"acme": true, "backend": true, "cache": true, "crt-store": true,
	"defaults": true, "fcgi-app": true, "frontend": true, "global": true,
	"healthcheck": true, "http-errors": true, "listen": true,
	"log-forward": true, "log-profile": true, "mailers": true,
	"namespace_list": true, "peers": true, "program": true,
	"resolvers": true, "ring": true, "traces": true, "userlist": true,
}

// hapServerKW maps each server keyword to how many words follow it; -1 is
// "source", which takes an address and then any "usesrc X" and
// "interface X" pairs. The union of HAProxy 2.6 and 3.x.
var hapServerKW = map[string]int{
	"addr": 1, "agent-addr": 1, "agent-check": 0, "agent-inter": 1, "agent-port": 1,
	"agent-send": 1, "allow-0rtt": 0, "alpn": 1, "backup": 0, "ca-file": 1, "cc": 1,
	"check": 0, "check-alpn": 1, "check-pool-conn-name": 1, "check-proto": 1,
	"check-reuse-pool": 0, "check-send-proxy": 0, "check-sni": 1, "check-sni-auto": 0,
	"check-ssl": 0, "check-via-socks4": 0, "ciphers": 1, "ciphersuites": 1,
	"client-sigalgs": 1, "cookie": 1, "crl-file": 1, "crt": 1, "curves": 1,
	"disabled": 0, "downinter": 1, "enabled": 0, "error-limit": 1, "fall": 1,
	"fastinter": 1, "force-sslv3": 0, "force-tlsv10": 0, "force-tlsv11": 0,
	"force-tlsv12": 0, "force-tlsv13": 0, "guid": 1, "hash-key": 1, "healthcheck": 1,
	"id": 1, "idle-ping": 1, "init-addr": 1, "init-state": 1, "inter": 1, "ktls": 1,
	"log-bufsize": 1, "log-proto": 1, "max-reuse": 1, "maxconn": 1, "maxqueue": 1,
	"minconn": 1, "namespace": 1, "no-agent-check": 0, "no-backup": 0, "no-check": 0,
	"no-check-reuse-pool": 0, "no-check-send-proxy": 0, "no-check-sni-auto": 0,
	"no-check-ssl": 0, "no-renegotiate": 0, "no-send-proxy": 0, "no-send-proxy-v2": 0,
	"no-send-proxy-v2-ssl": 0, "no-send-proxy-v2-ssl-cn": 0, "no-sni-auto": 0,
	"no-ssl": 0, "no-ssl-reuse": 0, "no-sslv3": 0, "no-tfo": 0, "no-tls-tickets": 0,
	"no-tlsv10": 0, "no-tlsv11": 0, "no-tlsv12": 0, "no-tlsv13": 0, "non-stick": 0,
	"npn": 1, "observe": 1, "on-error": 1, "on-marked-down": 1, "on-marked-up": 1,
	"pool-conn-name": 1, "pool-low-conn": 1, "pool-max-conn": 1,
	"pool-purge-delay": 1, "port": 1, "proto": 1, "proxy-v2-options": 1,
	"quic-cc-algo": 1, "redir": 1, "renegotiate": 0, "resolve-net": 1,
	"resolve-opts": 1, "resolve-prefer": 1, "resolvers": 1, "rise": 1,
	"send-proxy": 0, "send-proxy-v2": 0, "send-proxy-v2-ssl": 0,
	"send-proxy-v2-ssl-cn": 0, "set-proxy-v2-tlv-fmt": 0, "shard": 1, "sigalgs": 1,
	"slowstart": 1, "sni": 1, "sni-auto": 0, "socks4": 1, "source": -1, "ssl": 0,
	"ssl-max-ver": 1, "ssl-min-ver": 1, "ssl-reuse": 0, "stick": 0,
	"strict-maxconn": 0, "tcp-md5sig": 1, "tcp-ut": 1, "tfo": 0, "tls-tickets": 0,
	"track": 1, "usesrc": 0, "verify": 1, "verifyhost": 1, "weight": 1, "ws": 1,
}

// hapMaxWeight is SRV_UWGHT_MAX; hapMaxConds is MAXNESTEDCONDS.
const (
	hapMaxWeight = 256
	hapMaxConds  = 100
)

// hapWord is one word of a line: its value, the offset of its first byte
// in the data, and the environment variable it expands, if any (whose
// value ringreport cannot know).
type hapWord struct {
	val string
	off int
	env string
}

// hapSplit splits one line (without its line break) into words as
// parse_line does with PARSE_OPT_ENV, DQUOTE, SQUOTE, BKSLASH, SHARP and
// WORD_EXPAND. base is the line's offset in the data; lineNo and section
// give $.LINE and $.SECTION. It returns the words, or the offset and text
// of a problem.
func hapSplit(line []byte, base, lineNo int, section string) ([]hapWord, int, string) {
	i := 0
	for i < len(line) && hapSpace(line[i]) {
		i++
	}
	var (
		words      []hapWord
		cur        []byte
		curOff     = base + i
		curEnv     string
		sq, dq     bool
		quoteOff   int
		separators int
	)
	for i < len(line) {
		c := line[i]
		switch {
		case c >= '-' && c != '\\':
			cur = append(cur, c)
			i++
		case c == 0 || c == '\n' || c == '\r':
			i = len(line)
		case c == '#' && !sq && !dq:
			i = len(line)
		case c == '"' && !sq:
			dq = !dq
			quoteOff = base + i
			i++
		case c == '\'' && !dq:
			sq = !sq
			quoteOff = base + i
			i++
		case c == '\\' && !sq:
			send := c
			if i+1 < len(line) {
				switch n := line[i+1]; n {
				case ' ', '\\', '#', '\'', '"':
					send = n
					i++
				case 't':
					send = '\t'
					i++
				case 'n':
					send = '\n'
					i++
				case 'r':
					send = '\r'
					i++
				case '$':
					if dq {
						send = n
						i++
					}
				case 'x':
					if i+3 >= len(line) || !isHex(line[i+2]) || !isHex(line[i+3]) {
						return nil, base + i, "truncated or invalid hexadecimal sequence: write \\x and two hex digits"
					}
					v, _ := strconv.ParseUint(string(line[i+2:i+4]), 16, 8)
					send = byte(v)
					i += 3
				}
			}
			i++
			cur = append(cur, send)
		case hapSpace(c) && !sq && !dq:
			for i < len(line) && hapSpace(line[i]) {
				i++
			}
			words = append(words, hapWord{string(cur), curOff, curEnv})
			cur, curOff, curEnv = nil, base+i, ""
			separators++
			if separators >= 64 {
				return nil, base + i, "too many words: HAProxy reads at most 64 on a line"
			}
		case c == '$' && dq:
			start := i
			i++
			brace := false
			if i < len(line) && line[i] == '{' {
				brace = true
				i++
			}
			if i >= len(line) || !(isAlpha(line[i]) || line[i] == '_' || line[i] == '.') {
				return nil, base + i, "forbidden first character in environment variable name: names start with a letter, \"_\" or \".\""
			}
			nameStart := i
			if line[i] == '.' {
				i++
			}
			for i < len(line) && (isAlpha(line[i]) || isDigit(line[i]) || line[i] == '_') {
				i++
			}
			name := string(line[nameStart:i])
			value, known := "", false
			switch {
			case name == ".LINE":
				value, known = strconv.Itoa(lineNo), true
			case name == ".SECTION":
				value, known = section, true
			case name == ".FILE":
			case strings.HasPrefix(name, "."):
				return nil, base + nameStart, fmt.Sprintf("unsupported internal variable name %s: HAProxy knows .LINE, .FILE and .SECTION", quote(name))
			}
			if brace && i < len(line) && line[i] == '[' {
				if i+2 >= len(line) || line[i+1] != '*' || line[i+2] != ']' {
					return nil, base + i, "truncated or invalid word expansion sequence: write [*]"
				}
				i += 3
				known = false
			}
			if brace {
				if i < len(line) && line[i] == '-' {
					for i < len(line) && line[i] != '}' {
						i++
					}
				}
				if i >= len(line) || line[i] != '}' {
					return nil, base + start, "unmatched brace in environment variable name: close it with \"}\""
				}
				i++
			}
			if known {
				cur = append(cur, value...)
			} else if curEnv == "" {
				curEnv = name
			}
		default:
			cur = append(cur, c)
			i++
		}
	}
	if sq || dq {
		return nil, quoteOff, "unmatched quote: close it on the same line"
	}
	words = append(words, hapWord{string(cur), curOff, curEnv})
	return words, 0, ""
}

func hapSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }
func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// hapDefaults are the server settings a default-server line sets.
type hapDefaults struct {
	weight           int
	disabled, backup bool
}

// hapDefSection is one defaults section: its default-server settings and
// the problems of its default-server lines, reported if the selected
// backend inherits from it.
type hapDefSection struct {
	name string
	off  int
	srv  hapDefaults
	errs []Error
}

// condition states of one .if level
const (
	condNo    = iota // false
	condYes          // true
	condMaybe        // not evaluated
)

type hapCond struct {
	active int // whether the current branch is read
	taken  int // whether an earlier branch was
	sawEls bool
	line   int
	text   string
}

// parseHAProxy returns the servers of the backend or listen section
// selector names.
func parseHAProxy(data []byte, selector string) ([]Node, []Error) {
	var el errorList
	pos := newPositions(data)
	errAt := func(off int, format string, args ...any) bool {
		l, c := pos.at(off)
		return el.add(l, c, format, args...)
	}
	var (
		section    string // current section keyword
		secName    string // its name
		target     bool   // whether the current section is the selected one
		found      []int  // offsets of the selected sections' headers
		names      []string
		nameOffs   []int
		defs       = map[string]*hapDefSection{} // the last defaults section of each name
		lastDef    *hapDefSection
		curDef     *hapDefSection // the defaults section being read
		srvDef     hapDefaults    // the selected section's default-server
		nodes      []Node
		byName     = map[string]Node{} // servers without an explicit id, by name
		byID       = map[int]Node{}
		lines      int // server lines, good or not
		conds      []hapCond
		condErrOff = -1
	)
	builtin := hapDefaults{weight: 1}
	effective := func() int {
		st := condYes
		for _, c := range conds {
			switch c.active {
			case condNo:
				return condNo
			case condMaybe:
				st = condMaybe
			}
		}
		return st
	}
	lineNo := 0
	for start := 0; start <= len(data) && !el.full; {
		end := start
		for end < len(data) && data[end] != '\n' {
			end++
		}
		line := data[start:end]
		lineStart := start
		start = end + 1
		lineNo++
		if end == len(data) && len(line) == 0 {
			break
		}
		trim := 0
		for trim < len(line) && (hapSpace(line[trim]) || line[trim] == '\r') {
			trim++
		}
		if trim < len(line) && line[trim] == '[' {
			continue // a scope marker
		}
		words, badOff, bad := hapSplit(line, lineStart, lineNo, secName)
		if bad != "" {
			// HAProxy splits every line, even one a condition masks
			errAt(badOff, "%s", bad)
			continue
		}
		if words[0].val == "" {
			continue
		}
		w0 := words[0]
		arg := func(i int) hapWord {
			if i < len(words) {
				return words[i]
			}
			return hapWord{off: lineStart + len(line)}
		}
		if strings.HasPrefix(w0.val, ".") {
			switch w0.val {
			case ".if", ".elif":
				expr := hapJoin(words[1:])
				ev := hapEval(expr)
				parent := condYes
				if len(conds) > 0 {
					saved := conds
					if w0.val == ".elif" {
						conds = conds[:len(conds)-1]
					}
					parent = effective()
					conds = saved
				}
				if w0.val == ".if" {
					if len(conds)+1 >= hapMaxConds {
						errAt(w0.off, "too many nested '.if', max is %d", hapMaxConds-1)
						return nil, el.errs
					}
					c := hapCond{line: lineNo, text: expr}
					switch parent {
					case condNo:
						c.active, c.taken = condNo, condYes
					case condMaybe:
						c.active, c.taken = ev, condMaybe
					default:
						c.active, c.taken = ev, ev
					}
					conds = append(conds, c)
					continue
				}
				if len(conds) == 0 {
					errAt(w0.off, "lone '.elif' with no matching '.if'")
					continue
				}
				c := &conds[len(conds)-1]
				if c.sawEls {
					errAt(w0.off, "'.elif' after '.else' is not permitted")
					continue
				}
				c.line, c.text = lineNo, expr
				switch {
				case c.taken == condYes:
					c.active = condNo
				case c.taken == condNo:
					c.active, c.taken = ev, ev
				default: // maybe taken before
					c.active = condMaybe
					if ev == condNo {
						c.active = condNo
					}
					if ev == condYes {
						c.taken = condYes
					}
				}
				continue
			case ".else":
				if len(conds) == 0 {
					errAt(w0.off, "lone '.else' with no matching '.if'")
					continue
				}
				c := &conds[len(conds)-1]
				if c.sawEls {
					errAt(w0.off, "'.else' after '.else' is not permitted")
					continue
				}
				c.sawEls, c.line, c.text = true, lineNo, ".else"
				switch c.taken {
				case condYes:
					c.active = condNo
				case condNo:
					c.active, c.taken = condYes, condYes
				default:
					c.active, c.taken = condMaybe, condYes
				}
				continue
			case ".endif":
				if len(conds) == 0 {
					errAt(w0.off, "lone '.endif' with no matching '.if'")
					continue
				}
				conds = conds[:len(conds)-1]
				continue
			}
		}
		st := effective()
		if st == condNo {
			continue
		}
		if st == condMaybe && condErrOff < 0 {
			// lines whose reading depends on the condition: the selected
			// section's, section headers, defaults
			c := conds[len(conds)-1]
			for _, k := range conds {
				if k.active == condMaybe {
					c = k
				}
			}
			kw := w0.val
			header := hapSections[kw]
			relevant := (target && (header || kw == "server" || kw == "default-server" || kw == "server-template")) ||
				kw == "defaults" || ((kw == "backend" || kw == "listen") && arg(1).val == selector) ||
				(section == "defaults" && kw == "default-server")
			if relevant {
				condErrOff = w0.off
				errAt(w0.off, "this line is inside a conditional block (line %d: %s) that ringreport does not evaluate (it evaluates .if with a number only): resolve the condition, or copy the section out of the block", c.line, c.text)
			}
		}
		if strings.HasPrefix(w0.val, ".") {
			switch w0.val {
			case ".alert":
				errAt(w0.off, "HAProxy stops at this .alert: %s", arg(1).val)
			case ".warning", ".notice", ".diag":
			default:
				errAt(w0.off, "unknown directive %s: HAProxy knows .if, .elif, .else, .endif, .alert, .warning, .notice and .diag", quote(w0.val))
			}
			continue
		}
		if hapSections[w0.val] {
			target, curDef = false, nil
			section, secName = w0.val, arg(1).val
			switch section {
			case "defaults":
				name, from := arg(1), hapWord{}
				if name.val == "from" && arg(2).val != "" && arg(3).val == "" {
					name, from = hapWord{}, arg(2)
				} else if arg(2).val == "from" {
					from = arg(3)
				}
				d := &hapDefSection{name: name.val, off: w0.off, srv: builtin}
				if from.val != "" {
					if p := defs[from.val]; p != nil {
						d.srv = p.srv
						d.errs = append(d.errs, p.errs...)
					} else {
						l, c := pos.at(from.off)
						d.errs = append(d.errs, Error{l, c, fmt.Sprintf("defaults section %s not found; name a defaults section written above this one", quote(from.val))})
					}
				}
				if d.name != "" {
					defs[d.name] = d
				}
				lastDef, curDef = d, d
			case "backend", "listen", "frontend":
				name := arg(1)
				if section != "frontend" {
					names = append(names, name.val)
					nameOffs = append(nameOffs, w0.off)
				}
				if section == "frontend" || name.val != selector || selector == "" {
					break
				}
				target = true
				if len(found) > 0 {
					l, c := pos.at(found[0])
					errAt(w0.off, "%s %s has the same name as the section at %d:%d, so the name does not pick one section (HAProxy refuses two backends of one name): rename one", section, quote(name.val), l, c)
				}
				found = append(found, w0.off)
				if bad := hapInvalidChar(name.val); bad != "" {
					errAt(name.off, "character %s is not permitted in %s name %s: use letters, digits, \".\", \":\", \"_\" and \"-\"", quote(bad), section, quote(name.val))
				}
				for _, w := range words {
					if w.env != "" {
						errAt(w.off, "%s", hapEnvMsg(w.env))
					}
				}
				d := lastDef
				if arg(2).val == "from" {
					d = defs[arg(3).val]
					if d == nil {
						errAt(arg(3).off, "defaults section %s not found; name a defaults section written above this one", quote(arg(3).val))
					}
				}
				srvDef = builtin
				if d != nil {
					srvDef = d.srv
					for _, e := range d.errs {
						el.add(e.Line, e.Col, "%s", e.Msg)
					}
				}
			}
			continue
		}
		kw := w0.val
		switch {
		case curDef != nil && kw == "default-server":
			var sub errorList
			d := curDef
			subAt := func(off int, format string, args ...any) bool {
				l, c := pos.at(off)
				return sub.add(l, c, format, args...)
			}
			hapKeywords(words, 1, "default-server", &d.srv, nil, subAt)
			d.errs = append(d.errs, sub.errs...)
		case target && (kw == "server" || kw == "default-server"):
			env := false
			for _, w := range words {
				if w.env != "" {
					errAt(w.off, "%s", hapEnvMsg(w.env))
					env = true
				}
			}
			if env {
				continue
			}
			if kw == "default-server" {
				hapKeywords(words, 1, "default-server", &srvDef, nil, errAt)
				continue
			}
			if lines == MaxServers {
				errAt(w0.off, "%s", tooMany("servers"))
				return nil, el.errs
			}
			lines++
			name, addr := arg(1), arg(2)
			if addr.val == "" {
				errAt(w0.off, "'server' expects <name> and <addr>[:<port>] as arguments, such as server s1 10.0.0.1:80")
				continue
			}
			ok := true
			if bad := hapInvalidChar(name.val); bad != "" {
				errAt(name.off, "character %s is not permitted in server name %s: use letters, digits, \".\", \":\", \"_\" and \"-\"", quote(bad), quote(name.val))
				ok = false
			}
			if msg := hapAddr(addr.val); msg != "" {
				errAt(addr.off, "server %s: %s", name.val, msg)
				ok = false
			}
			s := srvDef
			id := 0
			if !hapKeywords(words, 3, "server "+name.val, &s, &id, errAt) {
				ok = false
			}
			n := Node{Name: addr.val, Label: name.val, Weight: s.weight, ID: id, Down: s.disabled, Backup: s.backup}
			n.Line, n.Col = pos.at(w0.off)
			if id != 0 {
				if o, dup := byID[id]; dup {
					errAt(w0.off, "server %s: id %d is already used by server %s at %d:%d; ids must be distinct", name.val, id, o.Label, o.Line, o.Col)
					ok = false
				} else {
					byID[id] = n
				}
			} else if o, dup := byName[name.val]; dup {
				errAt(w0.off, "another server named %s was already defined at line %d; HAProxy refuses it: use distinct names (or give each an id)", quote(name.val), o.Line)
				ok = false
			} else {
				byName[name.val] = n
			}
			if ok {
				nodes = append(nodes, n)
			}
		case target && kw == "server-template":
			errAt(w0.off, "server-template is not supported: it makes servers from DNS names at run time; list the servers with server lines")
		}
	}
	if len(conds) > 0 && !el.full {
		c := conds[len(conds)-1]
		el.add(c.line, 1, "non-terminated '.if' block: add .endif")
	}
	if len(found) == 0 && !el.full {
		what := fmt.Sprintf("no backend or listen section named %s", quote(selector))
		if selector == "" {
			what = "no backend named: Parse needs the backend's name"
		}
		msg := what + "; backends in this file: " + nameList(names)
		line, col := 0, 0
		if i := closest(selector, names); i >= 0 && selector != "" {
			line, col = pos.at(nameOffs[i])
			msg = fmt.Sprintf("%s; did you mean %s (at %d:%d)? backends in this file: %s", what, quote(names[i]), line, col, nameList(names))
		}
		el.add(line, col, "%s", msg)
	} else if lines == 0 && len(el.errs) == 0 {
		l, c := pos.at(found[0])
		el.add(l, c, "backend %s has no server lines; add servers such as server s1 10.0.0.1:80", quote(selector))
	}
	if len(el.errs) > 0 {
		return nil, el.errs
	}
	return nodes, nil
}

// hapKeywords reads the keywords of a server or default-server line from
// words[from:] into s (and *id for a server), and reports whether they
// were all good.
func hapKeywords(words []hapWord, from int, who string, s *hapDefaults, id *int, errAt func(int, string, ...any) bool) bool {
	ok := true
	bad := func(off int, format string, args ...any) {
		errAt(off, who+": "+format, args...)
		ok = false
	}
	val := func(i int) (hapWord, bool) {
		if i < len(words) && words[i].val != "" {
			return words[i], true
		}
		return hapWord{}, false
	}
	for i := from; i < len(words) && words[i].val != ""; {
		w := words[i]
		n, known := hapServerKW[w.val]
		if !known {
			bad(w.off, "unknown keyword %s; see \"5.2. Server and default-server options\" of HAProxy's configuration manual", quote(w.val))
			return false
		}
		if n == -1 { // source ADDR [usesrc X] [interface X]...
			if _, has := val(i + 1); !has {
				bad(w.off, "'source' expects <addr>[:<port>] as argument")
				return false
			}
			i += 2
			for i < len(words) && (words[i].val == "usesrc" || words[i].val == "interface") {
				if _, has := val(i + 1); !has {
					bad(words[i].off, "%s needs an argument", quote(words[i].val))
					return false
				}
				i += 2
			}
			continue
		}
		for k := 1; k <= n; k++ {
			if _, has := val(i + k); !has {
				bad(w.off, "%s needs an argument", quote(w.val))
				return false
			}
		}
		a, _ := val(i + 1)
		switch w.val {
		case "weight":
			v, good := hapNumber(a.val)
			switch {
			case !good:
				bad(a.off, "weight %s is not a whole number; write one from 0 to %d", quote(a.val), hapMaxWeight)
			case v > hapMaxWeight:
				bad(a.off, "weight %s is above HAProxy's %d; write one from 0 to %d", a.val, hapMaxWeight, hapMaxWeight)
			default:
				s.weight = v
			}
		case "id":
			if id == nil {
				bad(w.off, "'id' option is not accepted in default-server lines; give it on each server")
				break
			}
			v, good := hapNumber(a.val)
			switch {
			case !good || v > 1<<31-1:
				bad(a.off, "id %s is not a whole number from 1 to 2147483647", quote(a.val))
			case v == 0:
				bad(a.off, "custom id has to be > 0")
			default:
				*id = v
			}
		case "disabled":
			s.disabled = true
		case "enabled":
			s.disabled = false
		case "backup":
			s.backup = true
		case "no-backup":
			s.backup = false
		}
		i += 1 + n
	}
	return ok
}

// hapNumber reads decimal digits, at most 10 of them.
func hapNumber(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// hapAddr checks a server address a little: a host and an optional port,
// an offset (+N, -N), or nothing after the colon. Addresses with a
// family prefix (ipv4@, unix@ …) and IPv6 ones pass as written.
func hapAddr(a string) string {
	if strings.ContainsRune(a, '@') || strings.Count(a, ":") != 1 {
		return ""
	}
	host, port, _ := strings.Cut(a, ":")
	if host == "" {
		return "no address before the port in " + quote(a) + "; write address:port, such as 10.0.0.1:80"
	}
	if port == "" {
		return "" // the port of the connection
	}
	p := strings.TrimPrefix(strings.TrimPrefix(port, "+"), "-")
	v, ok := hapNumber(p)
	if !ok || v > 65535 || (v == 0 && p == port) {
		return "invalid port " + quote(port) + ": write a number from 1 to 65535, or +N/-N for an offset"
	}
	return ""
}

// hapInvalidChar is invalid_char: the first character that is not a
// letter, digit, ".", ":", "_" or "-", or "" if none (an empty name is
// invalid: it returns " ").
func hapInvalidChar(s string) string {
	if s == "" {
		return " "
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !isDigit(c) && c != '.' && c != ':' && c != '_' && c != '-' {
			return string(c)
		}
	}
	return ""
}

func hapEnvMsg(name string) string {
	return fmt.Sprintf("this word uses the environment variable %s, which ringreport cannot know: write its value", quote(name))
}

// hapJoin joins words with spaces, as readcfgfile remerges a condition.
func hapJoin(words []hapWord) string {
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.val)
	}
	return strings.TrimRight(b.String(), " ")
}

// hapEval evaluates a condition that is a number, possibly negated with
// "!", as cfg_eval_condition does; anything else is condMaybe.
func hapEval(expr string) int {
	s := strings.TrimSpace(expr)
	neg := false
	for strings.HasPrefix(s, "!") {
		neg = !neg
		s = strings.TrimLeft(s[1:], " \t")
	}
	v, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return condMaybe
	}
	if (v != 0) != neg {
		return condYes
	}
	return condNo
}
