package scenario

import (
	"strings"
	"testing"
)

// TestLimits lowers each limit below a small scenario and checks the
// message (the limit, the value, the flag), then raises it and checks
// that the same scenario parses.
func TestLimits(t *testing.T) {
	const src = "title: T\nkeys: 1000\nnodes: [a, {name: b, weight: 3}]\nrules: [{rule: ring, vnodes: 100}, modulo]\nsteps:\n  - add: c\n  - remove: c\n"
	keysFile := []byte(strings.Repeat("key\n", 500))
	const fileSrc = "title: T\nkeys: {file: k.txt}\nnodes: [a, b]\n"
	read := func(string) ([]byte, error) { return keysFile, nil }
	tests := []struct {
		name      string
		src       string
		low, high Limits
		want      string
	}{
		{"file size", src, Limits{FileBytes: 50}, Limits{FileBytes: 1000},
			"l.yaml: file size: 128 bytes exceed the limit of 50 bytes; raise it with -max-file-size"},
		{"keys file size", fileSrc, Limits{KeysFileBytes: 100}, Limits{KeysFileBytes: 2000},
			`l.yaml:2:14: keys file size: "k.txt" is larger than the limit of 100 bytes; raise it with -max-keys-file-size`},
		{"keys file keys", fileSrc, Limits{Keys: 499}, Limits{Keys: 500},
			`l.yaml:2:14: keys: keys file "k.txt" holds 500 keys, which exceed the limit of 499; raise it with -max-keys`},
		{"keys", src, Limits{Keys: 999}, Limits{Keys: 1000},
			"l.yaml:2:7: keys: 1,000 keys exceed the limit of 999; raise it with -max-keys"},
		{"nodes", src, Limits{Nodes: 1}, Limits{Nodes: 2},
			"l.yaml:3:8: nodes: 2 nodes exceed the limit of 1; raise it with -max-nodes"},
		{"points", src, Limits{Points: 299}, Limits{Points: 300},
			"l.yaml:4:30: points: 100 points per unit of weight × weight 3 = 300 points on one node exceed the limit of 299; raise it with -max-points"},
		{"steps", src, Limits{Steps: 1}, Limits{Steps: 2},
			"l.yaml:6:3: steps: 2 steps exceed the limit of 1; raise it with -max-steps"},
		{"node steps", src, Limits{NodeSteps: 8}, Limits{NodeSteps: 9},
			"l.yaml:3:8: node-steps: 3 node names over 3 states is 9 node-steps, over the limit of 8; raise it with -max-node-steps, or use fewer nodes or steps"},
		{"work", src, Limits{Work: 9_000_000}, Limits{Work: 10_000_000},
			"l.yaml:2:7: work: replaying 1,000 keys over 3 steps under 2 rules is about 9,525,137 key-steps, over the limit of 9,000,000; raise it with -max-work, or use fewer keys, steps, nodes or rules"},
		{"output", src, Limits{Output: 1 << 20}, Limits{Output: 2 << 20},
			"l.yaml:2:7: output: replaying 1,000 keys over 3 steps under 2 rules would write about 1.4 MiB, over the limit of 1 MiB; raise it with -max-output"},
		{"about size", "title: T\nabout: " + strings.Repeat("x", 100) + "\nkeys: 10\nnodes: [a]\n", Limits{AboutBytes: 99}, Limits{AboutBytes: 100},
			"l.yaml:2:8: about: 100 bytes exceed the limit of 99 bytes; raise it with -max-about-size"},
		{"memory", src, Limits{Memory: 1 << 20}, Limits{Memory: 128 << 20},
			"l.yaml:2:7: memory: replaying 1,000 keys over 3 steps under 2 rules would take about "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("l.yaml", []byte(tt.src), Options{ReadFile: read, Limits: tt.low})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("with %+v, Parse error:\n%v\nwant one error starting:\n%s", tt.low, err, tt.want)
			}
			if _, err := Parse("l.yaml", []byte(tt.src), Options{ReadFile: read, Limits: tt.high}); err != nil {
				t.Errorf("with %+v: %v", tt.high, err)
			}
		})
	}
}

// TestDefaultLimits checks that zero Limits mean DefaultLimits, and the
// documented defaults.
func TestDefaultLimits(t *testing.T) {
	if got := (Limits{}).withDefaults(); got != DefaultLimits {
		t.Errorf("zero Limits = %+v, want DefaultLimits %+v", got, DefaultLimits)
	}
	d := DefaultLimits
	if d.KeysFileBytes != 256<<20 || d.Work != 4e9 || d.Memory != 2<<30 || d.Output != 1<<30 || d.Keys != 50_000_000 || d.FileBytes != 4<<20 || d.NodeSteps != 2_000_000 || d.AboutBytes != 32<<10 ||
		MaxNameLen != 200 || MaxNoteLen != 2000 || MaxMarkdownDepth != 16 || MaxMarkdownRuns != 1000 {
		t.Errorf("DefaultLimits = %+v; update README's Limits and safety section with them", d)
	}
	// The shapes README's Limits and safety says build within the
	// defaults (and measured there).
	for _, src := range []string{
		"title: T\nkeys: 10_000_000\nnodes: 10\nrules: [ring]\nsteps:\n  - add: x\n  - remove: node-1\n",
		"title: T\nkeys: 100_000\nnodes: 10_000\nsteps:\n  - add: x\n  - remove: node-1\n",
	} {
		if _, err := Parse("big.yaml", []byte(src), Options{}); err != nil {
			t.Errorf("within the defaults:\n%s\n%v", src, err)
		}
	}
}

// TestLimitsHugeCost checks that work and memory saturate rather than
// overflow on the largest counts the other limits allow.
func TestLimitsHugeCost(t *testing.T) {
	src := "title: T\nkeys: 4_000_000_000_000_000_000\nnodes: 10\nrules: [rendezvous, {rule: maglev, m: 16777213}, {rule: ring, vnodes: 10000}]\nsteps:\n  - weight: {node-1: 10000}\n"
	lim := Limits{Keys: 1 << 62, Points: 1 << 62}
	_, err := Parse("huge.yaml", []byte(src), Options{Limits: lim})
	if err == nil || !strings.Contains(err.Error(), "key-steps, over the limit") || !strings.Contains(err.Error(), "memory: ") {
		t.Errorf("Parse error:\n%v\nwant work and memory errors", err)
	}
}

func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{{0, "0 bytes"}, {1023, "1,023 bytes"}, {1024, "1 KiB"}, {256 << 20, "256 MiB"}, {3 << 29, "1.5 GiB"}, {4 << 40, "4 TiB"}} {
		if got := Bytes(tt.n); got != tt.want {
			t.Errorf("Bytes(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
