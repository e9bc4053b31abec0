package report

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestOwnersCSVMatchesProbes checks the bulk owners file against the
// probe table, which the replay computes on its own path: for every key
// that is also a probe, at every step, every rule's position and
// preference list must be the probe's. It covers every rule of the
// registry: bounded loads once panicked here, probing before an Assign.
func TestOwnersCSVMatchesProbes(t *testing.T) {
	list := []string{"=cmd|' /C calc'!A0", "user:1", "user:2", "{tag}x", "日本"}
	s := &sim.Scenario{Name: "o", Title: "o", Seed: 2, Keys: keys.KeySpec{List: list},
		Nodes:    []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 2}},
		Rules:    everyRule(),
		Replicas: 2, Probes: list,
		Steps: []timeline.Step{{Op: timeline.OpAdd, Nodes: []timeline.NodeSpec{{Name: "d", Weight: 1}}}, {Op: timeline.OpFail, Nodes: []timeline.NodeSpec{{Name: "a"}}}}}
	res, err := sim.Replay(s)
	if err != nil {
		t.Fatal(err)
	}
	for step := range res.Timeline.States {
		out, err := OwnersCSV(res, step)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(bytes.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != len(list)+1 {
			t.Fatalf("step %d: %d rows, want %d", step, len(rows), len(list)+1)
		}
		for _, row := range rows[1:] {
			key := strings.TrimPrefix(row[0], "'")
			p := indexOf(list, key)
			if p < 0 {
				t.Fatalf("unknown key %q", row[0])
			}
			for r := range res.Rules {
				pr := res.Rules[r].Steps[step].Probes[p]
				var names []string
				for _, o := range pr.Owners {
					names = append(names, res.Timeline.Nodes[o])
				}
				pos := pr.Text
				if pos == "" {
					pos = strconv.FormatUint(pr.Position, 10)
				}
				if strings.TrimPrefix(row[1+2*r], "'") != pos || row[2+2*r] != strings.Join(names, " ") {
					t.Errorf("step %d key %q rule %d: csv %q %q, probe %d %v", step, key, r, row[1+2*r], row[2+2*r], pr.Position, names)
				}
			}
		}
	}
	out, _ := OwnersCSV(res, 0)
	if !bytes.Contains(out, []byte("\n'=cmd|' /C calc'!A0,")) {
		t.Errorf("a key that starts with = is not neutralised:\n%s", out)
	}
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// everyRule is one rule of every kind in the registry, with its defaults
// and the least value of a required number (an enum's first value).
func everyRule() []placer.RuleSpec {
	var out []placer.RuleSpec
	for _, k := range registry.Kinds {
		spec := placer.RuleSpec{Kind: k.Name, Label: k.Name}
		for _, p := range k.Params {
			switch {
			case !p.Required:
			case p.Type == rulekind.ParamEnum:
				p.Set(&spec, p.Values[0])
			default:
				p.Set(&spec, strconv.Itoa(max(p.Min, 1)))
			}
		}
		out = append(out, spec)
	}
	return out
}
