package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/sim"
	"go.yaml.in/yaml/v3"
)

// MaxMigrations bounds the entries of compare: each replays its two rules
// once more.
const MaxMigrations = 16

// compareList checks the shape of compare:, a list of {from, to} pairs;
// the labels are checked once the rules are known (checkCompare).
func (p *parser) compareList(n *yaml.Node) []*yaml.Node {
	const want = "a list such as [{from: libmemcached, to: envoy-ring}]"
	if n.Kind != yaml.SequenceNode {
		p.typeError(n, "compare", want)
		return nil
	}
	if len(n.Content) > MaxMigrations {
		p.errorf(n, "compare lists %d pairs; at most %d are allowed", len(n.Content), MaxMigrations)
		return nil
	}
	return n.Content
}

// checkCompare decodes every compare entry against the rules' labels.
func (p *parser) checkCompare(s *sim.Scenario, entries []*yaml.Node) {
	labels := make([]string, len(s.Rules))
	for i, r := range s.Rules {
		labels[i] = r.Label
	}
	for i, e := range entries {
		ctx := fmt.Sprintf("compare %d: ", i+1)
		fs, ok := p.fields(e, ctx+"an entry", "a mapping such as {from: libmemcached, to: envoy-ring}")
		if !ok {
			continue
		}
		var m sim.Migration
		got := map[string]bool{}
		for _, f := range fs {
			var dst *string
			switch f.key.Value {
			case "from":
				dst = &m.From
			case "to":
				dst = &m.To
			default:
				p.unknownKey(f.key, ctx, []string{"from", "to"})
				ok = false
				continue
			}
			label, okLabel := p.str(f.val, ctx+f.key.Value)
			label = nfc(label)
			if okLabel && !slices.Contains(labels, label) {
				p.errorf(f.val, "%sno rule is labelled %q; labels: %s", ctx, label, strings.Join(labels, ", "))
				okLabel = false
			}
			*dst, got[f.key.Value], ok = label, true, ok && okLabel
		}
		switch {
		case !got["from"] || !got["to"]:
			p.errorf(e, "%sneeds both from and to, such as {from: %s, to: %s}", ctx, labels[0], labels[len(labels)-1])
		case ok && m.From == m.To:
			p.errorf(e, "%sfrom and to are both %q; compare two different rules", ctx, m.From)
		case ok:
			s.Migrations = append(s.Migrations, m)
		}
	}
}
