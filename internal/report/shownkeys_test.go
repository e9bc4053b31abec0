package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
)

// TestKeysShownSanitised: keys come from keys files, which nothing checks,
// so the report prints them (the "such as" sample, the hot keys table,
// the probe table) with bidirectional overrides, invisible marks and
// terminal escapes written out, and cut at MaxKeyShown bytes; data.json
// keeps them exactly.
func TestKeysShownSanitised(t *testing.T) {
	long := strings.Repeat("k", 5000)
	list := []string{"evil\u202egnp.exe", "a\u200fb", "\x1b[2Jwipe", long, "plain"}
	s := &sim.Scenario{Name: "keys", Title: "keys", Seed: 1, Replicas: 1,
		Keys:  keys.KeySpec{List: list, Weights: []uint32{50, 40, 30, 20, 1}},
		Nodes: names("a", "b"), Rules: []placer.RuleSpec{{Kind: "modulo", Label: "modulo"}},
		Probes: []string{"a\u200fb"}}
	res := replay(t, s)
	md, err := Markdown(res, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"\u202e", "\u200f", "\x1b", long[:MaxKeyShown+1]} {
		if bytes.Contains(md, []byte(bad)) {
			t.Errorf("report.md holds %q raw", bad[:min(len(bad), 20)])
		}
	}
	for _, want := range []string{`evil\\u202egnp.exe`, `a\\u200fb`, `\\x1b\[2Jwipe`, long[:MaxKeyShown] + "… (4,800 more bytes)"} {
		if !bytes.Contains(md, []byte(want)) {
			t.Errorf("report.md lacks %q", want[:min(len(want), 40)])
		}
	}
	js, err := JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(js, []byte(`"evil\u202egnp.exe"`)) && !bytes.Contains(js, []byte("\"evil\u202egnp.exe\"")) {
		t.Errorf("data.json lost the exact key")
	}
}
