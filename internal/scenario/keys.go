package scenario

import (
	"bytes"
	"fmt"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// keyMapKeys are the keys of the mapping form of keys.
var keyMapKeys = []string{"count", "prefix", "zipf", "requests", "file", "weights"}

const keysWant = `a count such as 1000, {count: 1000, prefix: "user:"}, {count: 1000, zipf: 1.1} or {file: keys.txt}`

// keys decodes the key set: a count, {count, prefix, zipf, requests} or
// {file, weights}.
func (p *parser) keys(n *yaml.Node) keys.KeySpec {
	if isInt(n) {
		c, _ := p.limited(n, "keys", "keys", p.lim.Keys, "-max-keys")
		return keys.KeySpec{Count: c}
	}
	fs, ok := p.fields(n, "keys", keysWant)
	if !ok {
		return keys.KeySpec{}
	}
	var ks keys.KeySpec
	var at keyFields
	for _, f := range fs {
		switch f.key.Value {
		case "count":
			at.count = f.key
			ks.Count, _ = p.limited(f.val, "keys count", "keys", p.lim.Keys, "-max-keys")
		case "prefix":
			at.prefix = f.key
			ks.Prefix = p.prefix(f.val)
		case "zipf":
			at.zipf = f.key
			ks.Zipf = p.zipf(f.val)
		case "requests":
			at.requests = f.key
			ks.Requests = p.requests(f.val)
		case "file":
			at.file = f.val
		case "weights":
			at.weights = f.key
			at.weighted, at.weightsOK = p.boolean(f.val, "keys weights")
		default:
			p.unknownKey(f.key, "keys: ", keyMapKeys)
		}
	}
	if ks.Zipf > 0 && ks.Count > 0 {
		p.checkZipf(ks, at)
	}
	if p.keysCombine(n, &at) && at.file != nil {
		ks.List, ks.Weights = p.keysFile(at.file, at.weightedFile())
	}
	return ks
}

// keyFields remembers which keys of a keys mapping were given.
type keyFields struct {
	count, prefix, zipf, requests, weights *yaml.Node // keys
	file                                   *yaml.Node // the value
	weighted, weightsOK                    bool
}

// weightedFile reports whether the keys file holds key,weight lines: by
// weights: when given, else by a .csv extension.
func (f *keyFields) weightedFile() bool {
	if f.weights != nil {
		return f.weighted
	}
	return strings.EqualFold(path.Ext(f.file.Value), ".csv")
}

// keysCombine reports keys fields that do not go together; it returns
// false when the keys cannot be read.
func (p *parser) keysCombine(n *yaml.Node, f *keyFields) bool {
	ok := true
	if f.file != nil {
		for _, k := range []*yaml.Node{f.count, f.prefix, f.zipf, f.requests} {
			if k != nil {
				p.errorf(k, "keys: file cannot be combined with %s; the file gives the keys (and, as key,weight lines, their request counts)", k.Value)
				ok = false
			}
		}
		return ok && (f.weights == nil || f.weightsOK)
	}
	if f.weights != nil {
		p.errorf(f.weights, "keys: weights applies to a keys file only; generated keys take zipf: <exponent>")
	}
	if f.requests != nil && f.zipf == nil {
		p.errorf(f.requests, "keys: requests is the total that zipf splits over the keys; add zipf: <exponent>, such as zipf: 1.1")
	}
	if f.count == nil {
		p.errorf(n, "keys needs count or file, such as {count: 1000, prefix: \"user:\"}")
	}
	return false
}

// zipf validates a Zipf exponent: a number in (0, sim.MaxZipf].
func (p *parser) zipf(n *yaml.Node) float64 {
	s, ok := p.positive(n, "keys zipf")
	if ok && s > keys.MaxZipf {
		p.errorf(n, "keys zipf must be at most %d; got %s", keys.MaxZipf, n.Value)
		return 0
	}
	return s
}

// checkZipf refuses Zipf keys whose request counts would all round to 0,
// as a keys file whose weights are all 0 is refused: there would be no
// requests to report on.
func (p *parser) checkZipf(ks keys.KeySpec, at keyFields) {
	zero, h := keys.ZipfAllZero(ks.Count, ks.Zipf, ks.Requests)
	if !zero {
		return
	}
	where, total := at.zipf, ks.Requests
	if at.requests != nil {
		where = at.requests
	}
	if total == 0 {
		total = keys.DefaultZipfRequests
	}
	p.errorf(where, "keys: zipf %s spreads %s over %s keys so thinly that every key gets 0; give at least %s requests, or a larger exponent",
		strconv.FormatFloat(ks.Zipf, 'g', -1, 64), text.Plural(int(total), "request", "requests"), text.Count(ks.Count), text.Count(int(math.Ceil(h/2))))
}

// requests validates the total request count of Zipf keys.
func (p *parser) requests(n *yaml.Node) int64 {
	if !isInt(n) {
		p.typeError(n, "keys requests", "a whole number from 1 to "+text.Count(keys.MaxRequests))
		return 0
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
	if err != nil || v < 1 || v > keys.MaxRequests {
		p.errorf(n, "keys requests must be from 1 to %s; got %s", text.Count(keys.MaxRequests), n.Value)
		return 0
	}
	return v
}

// boolean returns n's value when it is true or false.
func (p *parser) boolean(n *yaml.Node, what string) (bool, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag != tagBool {
		p.typeError(n, what, "true or false")
		return false, false
	}
	var v bool
	return v, n.Decode(&v) == nil
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

// keysFile reads and splits a keys file named by n: one key per line, or
// with weighted key,weight lines and their weights.
func (p *parser) keysFile(n *yaml.Node, weighted bool) ([]string, []uint32) {
	rel, ok := p.str(n, "keys file")
	if !ok {
		return nil, nil
	}
	if p.opts.ReadFile == nil {
		p.errorf(n, "keys files cannot be read here; use keys: <count> or {count: <count>, prefix: <text>}")
		return nil, nil
	}
	data, ok := p.readInput(n, rel, "keys file")
	if !ok {
		return nil, nil
	}
	rel = path.Clean(rel)
	// Excel and Notepad start a UTF-8 file with a byte order mark, which
	// is no part of the first key (or of a key,weight header).
	data = bytes.TrimPrefix(data, utf8BOM)
	keys := splitKeys(data, p.lim.Keys)
	switch {
	case len(keys) == 0:
		p.errorf(n, "keys file %q holds no keys; put one key per line", rel)
		return nil, nil
	case len(keys) > p.lim.Keys:
		p.overLimit(n, "keys", fmt.Sprintf("keys file %q holds %s", rel, text.Count(len(keys))), "keys, which", p.lim.Keys, "-max-keys")
		return nil, nil
	}
	if !weighted {
		return keys, nil
	}
	return p.weightedKeys(n, rel, data, keys)
}

// readInput reads a file a scenario names (a keys file, a nodes file)
// relative to its folder, through Options.ReadFile, within the keys-file
// size limit.
func (p *parser) readInput(n *yaml.Node, rel, what string) ([]byte, bool) {
	rel, ok := p.checkPath(n, rel, what)
	if !ok {
		return nil, false
	}
	if p.opts.ReadFile == nil {
		p.errorf(n, "%ss cannot be read here", what)
		return nil, false
	}
	data, err := p.opts.ReadFile(rel)
	if err != nil {
		p.errorf(n, "cannot read %s %q: %v", what, rel, err)
		return nil, false
	}
	if int64(len(data)) > p.lim.KeysFileBytes {
		p.errorf(n, "%s size: %q is larger than the limit of %s; raise it with -max-keys-file-size", what, rel, Bytes(p.lim.KeysFileBytes))
		return nil, false
	}
	return data, true
}

// checkPath returns rel cleaned, after reporting a path to a file of what
// kind (a keys file, a nodes file) that is
// empty, absolute, has backslashes, a NUL byte or a ".." component, or names the
// scenario's directory itself. A clean result satisfies fs.ValidPath.
func (p *parser) checkPath(n *yaml.Node, rel, what string) (string, bool) {
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
	p.errorf(n, "%s %q %s", what, clip(rel), why)
	return "", false
}

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
var utf8BOM = []byte("\xef\xbb\xbf")

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
