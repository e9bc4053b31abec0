package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/unicode/runenames"
)

// YAML core-schema tags as yaml.v3 resolves them.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// field is one key/value pair of a mapping.
type field struct{ key, val *yaml.Node }

// errorf records a problem at n's position.
func (p *parser) errorf(n *yaml.Node, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
}

// typeError reports that what must be want. Aliases were reported once
// already, so a value that is an alias is not reported again.
func (p *parser) typeError(n *yaml.Node, what, want string) {
	if n.Kind == yaml.AliasNode {
		return
	}
	hint := ""
	if n.Kind == yaml.ScalarNode && strings.Contains(want, "string") && n.Tag != tagNull {
		hint = " (quote it to use it as text)"
	}
	p.errorf(n, "%s must be %s; got %s%s", what, want, describe(n), hint)
}

// describe names n's kind and, for scalars, its value, for "got ..." text.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		return describeScalar(n)
	}
	return "nothing"
}

func describeScalar(n *yaml.Node) string {
	v := n.Value
	if len(v) > 40 {
		v = v[:40] + "..."
	}
	switch n.Tag {
	case tagStr:
		return fmt.Sprintf("the string %q", v)
	case tagInt, tagFloat:
		return "the number " + v
	case tagBool:
		return "the boolean " + v
	case tagNull:
		return "null"
	case "!!timestamp":
		return "the timestamp " + v
	}
	return fmt.Sprintf("a value tagged %s", n.Tag)
}

// fields checks that n is a mapping with distinct scalar keys and returns
// its pairs in order; duplicates are reported and dropped. what names the
// mapping in messages and want describes what a right one looks like.
func (p *parser) fields(n *yaml.Node, what, want string) ([]field, bool) {
	if n.Kind != yaml.MappingNode {
		p.typeError(n, what, want)
		return nil, false
	}
	seen := map[string]*yaml.Node{}
	var fs []field
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.typeError(k, what+" key", "a plain string")
			continue
		}
		if first, dup := seen[k.Value]; dup {
			p.errorf(k, "duplicate key %q (first set at line %d, column %d); keep only one", k.Value, first.Line, first.Column)
			continue
		}
		seen[k.Value] = k
		fs = append(fs, field{k, v})
	}
	return fs, true
}

// unknownKey reports a key that is none of known, suggesting the intended
// one when the key is an obvious typo.
func (p *parser) unknownKey(k *yaml.Node, ctx string, known []string) {
	if s := suggest(k.Value, known); s != "" {
		p.errorf(k, "%sunknown key %q; did you mean %q?", ctx, k.Value, s)
		return
	}
	p.errorf(k, "%sunknown key %q; want one of %s", ctx, k.Value, strings.Join(known, ", "))
}

// str returns n's value when it is a string.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != tagStr {
		p.typeError(n, what, "a string")
		return "", false
	}
	return n.Value, true
}

// isInt reports whether n is a whole number, including one too large
// for yaml's int64 (which yaml.v3 resolves as a float).
func isInt(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || (n.Tag != tagInt && n.Tag != tagFloat) {
		return false
	}
	digits := strings.TrimLeft(n.Value, "+-")
	return n.Tag == tagInt || (digits != "" && strings.Trim(digits, "0123456789_") == "")
}

// intIn returns n's value when it is a whole number in [lo, hi]. Like
// yaml.v3, it ignores underscores and reads 0x, 0o and 0b prefixes.
func (p *parser) intIn(n *yaml.Node, what string, lo, hi int) (int, bool) {
	if !isInt(n) {
		p.typeError(n, what, fmt.Sprintf("a whole number from %d to %d", lo, hi))
		return 0, false
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if err != nil || v < int64(lo) || v > int64(hi) {
		p.errorf(n, "%s must be from %d to %d; got %s", what, lo, hi, n.Value)
		return 0, false
	}
	return int(v), true
}

// uint64Val returns n's value when it is a whole number in [0, 2^64-1].
func (p *parser) uint64Val(n *yaml.Node, what string) (uint64, bool) {
	if !isInt(n) {
		p.typeError(n, what, "a whole number from 0 to 18446744073709551615")
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimPrefix(strings.ReplaceAll(n.Value, "_", ""), "+"), 0, 64)
	if err != nil {
		p.errorf(n, "%s must be from 0 to 18446744073709551615; got %s", what, n.Value)
		return 0, false
	}
	return v, true
}

// positive returns n's value when it is a finite number greater than 0.
func (p *parser) positive(n *yaml.Node, what string) (float64, bool) {
	if n.Kind != yaml.ScalarNode || (n.Tag != tagInt && n.Tag != tagFloat) {
		p.typeError(n, what, "a number greater than 0")
		return 0, false
	}
	var v float64
	if err := n.Decode(&v); err != nil || !(v > 0) || math.IsInf(v, 0) {
		p.errorf(n, "%s must be a finite number greater than 0; got %s", what, n.Value)
		return 0, false
	}
	return v, true
}

// checkText reports why s is unfit to be shown as what (a name, label,
// title or key): invalid UTF-8, control characters or bidirectional
// controls, which can make text display in a misleading order.
func (p *parser) checkText(n *yaml.Node, what, s string) bool {
	if !utf8.ValidString(s) {
		p.errorf(n, "%s %q is not valid UTF-8; use UTF-8 text", what, s)
		return false
	}
	for _, r := range s {
		switch {
		case isBidiControl(r):
			p.errorf(n, "%s %q contains the bidirectional control U+%04X, which can make text display in a misleading order; remove it", what, clip(s), r)
			return false
		case unicode.IsControl(r):
			p.errorf(n, "%s %q contains the control character U+%04X; use printable characters only", what, clip(s), r)
			return false
		}
	}
	return true
}

// checkProse is checkText for Markdown and notes, which may also hold
// tabs and line breaks.
func (p *parser) checkProse(n *yaml.Node, what, s string) bool {
	return p.checkText(n, what, strings.NewReplacer("\n", " ", "\r", " ", "\t", " ").Replace(s))
}

// isBidiControl reports the embedding, override and isolate controls
// U+202A–U+202E and U+2066–U+2069 (the "Trojan Source" characters).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// clip shortens s for quoting in a message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	i := 40
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// name validates a node name, rule label, zone or rack and returns it in
// Unicode normalization form C, so that names are compared as they look:
// "é" typed as one character or as "e" and a combining accent is one
// name. It must be a string of printable text of at most MaxNameLen bytes,
// and must not be blank or hold what would let two different names look
// alike (see lookalike).
func (p *parser) name(n *yaml.Node, what string) (string, bool) {
	s, ok := p.str(n, what)
	s = nfc(s)
	switch {
	case !ok:
		return "", false
	case s == "":
		p.errorf(n, "%s must not be empty", what)
		return "", false
	case len(s) > MaxNameLen:
		p.errorf(n, "%s %q is %d bytes long; at most %d are allowed", what, clip(s), len(s), MaxNameLen)
		return "", false
	case !p.checkText(n, what, s):
		return "", false
	}
	if why := lookalike(s); why != "" {
		p.errorf(n, "%s %s %s", what, quoteVisible(clip(s)), why)
		return "", false
	}
	return s, true
}

// nfc is s in normalization form C when it is valid UTF-8, for comparing a
// label as written in expect: or compare: with the rules' labels.
func nfc(s string) string {
	if !utf8.ValidString(s) {
		return s
	}
	return norm.NFC.String(s)
}

// lookalike says why s, printable text, could pass for another name, or
// returns "": it is blank, starts or ends with a space, has two spaces in
// a row, a space other than the ASCII one, or an invisible character (see
// text.Invisible: the marks LRM, RLM and ALM, zero-width spaces and
// joiners, ...). Each of these makes two names that differ only by it
// look the same in a table or a figure.
func lookalike(s string) string {
	const alike = "names that differ only by it look the same"
	for _, r := range s {
		switch {
		case text.Invisible(r):
			return fmt.Sprintf("contains the invisible character %s; %s, so remove it", runeName(r), alike)
		case unicode.IsSpace(r) && r != ' ':
			return fmt.Sprintf("contains the space character %s; use plain spaces", runeName(r))
		}
	}
	switch {
	case strings.TrimSpace(s) == "":
		return "is blank; give it a visible name"
	case strings.HasPrefix(s, " ") || strings.HasSuffix(s, " "):
		return "starts or ends with a space; " + alike + ", so remove it"
	case strings.Contains(s, "  "):
		return "has two spaces in a row; " + alike + ", so use one"
	}
	return ""
}

// quoteVisible is text.QuoteVisible, the quoting of every message.
func quoteVisible(s string) string { return text.QuoteVisible(s) }

// runeName names a character for messages: "U+200F (RIGHT-TO-LEFT MARK)".
func runeName(r rune) string {
	if name := runenames.Name(r); name != "" {
		return fmt.Sprintf("U+%04X (%s)", r, name)
	}
	return fmt.Sprintf("U+%04X", r)
}
