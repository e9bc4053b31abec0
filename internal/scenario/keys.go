package scenario

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// keyMapKeys are the keys of the mapping form of keys.
var keyMapKeys = []string{"count", "prefix", "file"}

const keysWant = `a count such as 1000, {count: 1000, prefix: "user:"} or {file: keys.txt}`

// keys decodes the key set: a count, {count, prefix} or {file}.
func (p *parser) keys(n *yaml.Node) sim.KeySpec {
	if isInt(n) {
		c, _ := p.limited(n, "keys", "keys", p.lim.Keys, "-max-keys")
		return sim.KeySpec{Count: c}
	}
	fs, ok := p.fields(n, "keys", keysWant)
	if !ok {
		return sim.KeySpec{}
	}
	var ks sim.KeySpec
	var count, file *yaml.Node
	for _, f := range fs {
		switch f.key.Value {
		case "count":
			count = f.key
			ks.Count, _ = p.limited(f.val, "keys count", "keys", p.lim.Keys, "-max-keys")
		case "prefix":
			ks.Prefix = p.prefix(f.val)
		case "file":
			file = f.key
			ks.List = p.keysFile(f.val)
		default:
			p.unknownKey(f.key, "keys: ", keyMapKeys)
		}
	}
	switch {
	case file != nil && len(fs) > 1:
		p.errorf(file, "keys: file cannot be combined with count or prefix; the file gives the keys")
	case file == nil && count == nil:
		p.errorf(n, "keys needs count or file, such as {count: 1000, prefix: \"user:\"}")
	}
	return ks
}

// prefix validates a generated keys' prefix; empty is allowed.
func (p *parser) prefix(n *yaml.Node) string {
	s, ok := p.str(n, "keys prefix")
	if !ok {
		return ""
	}
	if len(s) > MaxNameLen {
		p.errorf(n, "keys prefix %q is %d bytes long; at most %d are allowed", clip(s), len(s), MaxNameLen)
		return ""
	}
	if !p.checkText(n, "keys prefix", s) {
		return ""
	}
	return s
}

// keysFile reads and splits a keys file named by n.
func (p *parser) keysFile(n *yaml.Node) []string {
	rel, ok := p.str(n, "keys file")
	if ok {
		rel, ok = p.checkPath(n, rel)
	}
	if !ok {
		return nil
	}
	if p.opts.ReadFile == nil {
		p.errorf(n, "keys files cannot be read here; use keys: <count> or {count: <count>, prefix: <text>}")
		return nil
	}
	data, err := p.opts.ReadFile(rel)
	if err != nil {
		p.errorf(n, "cannot read keys file %q: %v", rel, err)
		return nil
	}
	if int64(len(data)) > p.lim.KeysFileBytes {
		p.errorf(n, "keys file size: %q is larger than the limit of %s; raise it with -max-keys-file-size", rel, Bytes(p.lim.KeysFileBytes))
		return nil
	}
	keys := splitKeys(data, p.lim.Keys)
	switch {
	case len(keys) == 0:
		p.errorf(n, "keys file %q holds no keys; put one key per line", rel)
		return nil
	case len(keys) > p.lim.Keys:
		p.overLimit(n, "keys", fmt.Sprintf("keys file %q holds %s", rel, text.Count(len(keys))), "keys, which", p.lim.Keys, "-max-keys")
		return nil
	}
	return keys
}

// checkPath returns rel cleaned, after reporting a keys file path that is
// empty, absolute, has backslashes, a NUL byte or a ".." component, or names the
// scenario's directory itself. A clean result satisfies fs.ValidPath.
func (p *parser) checkPath(n *yaml.Node, rel string) (string, bool) {
	clean := path.Clean(rel)
	var why string
	switch {
	case rel == "":
		why = "must not be empty; name a file relative to the scenario, such as keys.txt"
	case strings.HasPrefix(rel, "/") || isDrive(rel):
		why = "is an absolute path; give a path relative to the scenario's directory"
	case strings.Contains(rel, "\x00"):
		why = "contains a NUL byte; give a plain path such as data/keys.txt"
	case strings.Contains(rel, `\`):
		why = "has backslashes; write the path with forward slashes, such as data/keys.txt"
	case slices.Contains(strings.Split(rel, "/"), ".."):
		why = "leaves the scenario's directory; give a path inside it, without \"..\""
	case !fs.ValidPath(clean) || clean == ".":
		why = "does not name a file; give a path such as data/keys.txt"
	default:
		return clean, true
	}
	p.errorf(n, "keys file %q %s", clip(rel), why)
	return "", false
}

// isDrive reports a Windows drive prefix such as "C:".
func isDrive(rel string) bool {
	return len(rel) >= 2 && rel[1] == ':' && ('a' <= rel[0]|0x20 && rel[0]|0x20 <= 'z')
}

// splitKeys returns the lines of data, without trailing "\r", skipping
// blank ones. When there are more than limit it returns a slice of that
// length without allocating its elements, so that callers can say so
// cheaply.
func splitKeys(data []byte, limit int) []string {
	n := 0
	eachKey(data, func([]byte) bool { n++; return true })
	if n > limit {
		return make([]string, n)
	}
	keys := make([]string, 0, n)
	eachKey(data, func(k []byte) bool { keys = append(keys, string(k)); return true })
	return keys
}

// eachKey calls yield with each non-blank line of data, without its
// trailing "\r", until yield returns false.
func eachKey(data []byte, yield func([]byte) bool) {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) > 0 && !yield(line) {
			return
		}
		data = rest
	}
}
