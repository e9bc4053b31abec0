package scenario

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/text"
	"go.yaml.in/yaml/v3"
)

// weightedKeys splits the key,weight lines of a keys file (data, whose
// non-blank lines are lines) into keys and request counts. The key is
// everything before the last comma, taken literally; the weight, spaces
// around it trimmed, is a whole number from 0 to keys.MaxKeyWeight. A first
// line "key,weight" (any case) is a header and skipped. The first bad line
// is reported by its line number in the file, with how many more there
// are; counts that are all 0 are an error too.
func (p *parser) weightedKeys(n *yaml.Node, rel string, data []byte, lines []string) ([]string, []uint32) {
	list, weights := make([]string, 0, len(lines)), make([]uint32, 0, len(lines))
	var first string
	bad, lineNo := 0, 0
	var total uint64
	for len(data) > 0 {
		var raw []byte
		raw, data, _ = bytes.Cut(data, []byte("\n"))
		lineNo++
		line := string(bytes.TrimSuffix(raw, []byte("\r")))
		if strings.TrimSpace(line) == "" || (len(list)+bad == 0 && strings.EqualFold(strings.ReplaceAll(line, " ", ""), "key,weight")) {
			continue
		}
		w, why := splitWeighted(line)
		if why != "" {
			if bad == 0 {
				first = "line " + strconv.Itoa(lineNo) + " " + why
			}
			bad++
			continue
		}
		list, weights = append(list, line[:strings.LastIndexByte(line, ',')]), append(weights, w)
		total += uint64(w)
	}
	switch {
	case bad > 0:
		more := ""
		if bad > 1 {
			more = " (and " + text.Count(bad-1) + " more bad " + plural(bad-1, "line", "lines") + ")"
		}
		p.errorf(n, "keys file %q: %s%s; each line of a weighted keys file is key,weight with a whole number of requests from 0 to %s, such as user:42,1500",
			rel, first, more, text.Count(keys.MaxKeyWeight))
	case len(list) == 0:
		p.errorf(n, "keys file %q holds no keys; put one key,weight line per key", rel)
	case total == 0:
		p.errorf(n, "keys file %q: every weight is 0; give the keys their request counts", rel)
	default:
		return list, weights
	}
	return nil, nil
}

// splitWeighted returns the weight of a key,weight line, or why the line
// is not one.
func splitWeighted(line string) (uint32, string) {
	comma := strings.LastIndexByte(line, ',')
	if comma < 0 {
		return 0, "has no comma: " + strconv.Quote(clip(line))
	}
	raw := strings.TrimSpace(line[comma+1:])
	if comma == 0 {
		return 0, "has an empty key"
	}
	v, err := strconv.ParseUint(raw, 10, 64)
	switch {
	case raw == "":
		return 0, "has no weight after the comma"
	case strings.HasPrefix(raw, "-"):
		return 0, "has the negative weight " + strconv.Quote(clip(raw))
	case err != nil && isDigits(raw):
		return 0, "has the weight " + clip(raw) + ", above the largest"
	case err != nil:
		return 0, "has the weight " + strconv.Quote(clip(raw)) + ", which is not a whole number"
	case v > keys.MaxKeyWeight:
		return 0, "has the weight " + text.Count(int(v)) + ", above the largest"
	}
	return uint32(v), ""
}

func isDigits(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
