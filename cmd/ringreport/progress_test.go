package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestProgress(t *testing.T) {
	old := isTerminal
	t.Cleanup(func() { isTerminal = old })
	tests := []struct {
		name     string
		terminal bool
		env      map[string]string
		want     string // "" for no progress at all
	}{
		{"terminal", true, nil, "\r\x1b[K\x1b[1m[==========          ] 1/2\x1b[0m ring"},
		{"no color", true, map[string]string{"NO_COLOR": "1"}, "\r\x1b[K[==========          ] 1/2 ring"},
		{"pipe", false, nil, ""},
		{"ci", true, map[string]string{"CI": "true"}, ""},
		{"dumb", true, map[string]string{"TERM": "dumb"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", "")
			t.Setenv("NO_COLOR", "")
			t.Setenv("TERM", "xterm")
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			isTerminal = func(io.Writer) bool { return tt.terminal }
			var buf bytes.Buffer
			progress, finish := progressFunc(&buf)
			if progress != nil {
				progress(1, 2, "ring")
			}
			finish()
			got := buf.String()
			if tt.want == "" {
				if got != "" || progress != nil {
					t.Errorf("progress shown: %q", got)
				}
				return
			}
			if !strings.HasPrefix(got, tt.want) || !strings.HasSuffix(got, "\r\x1b[K") {
				t.Errorf("progress = %q, want %q then a cleared line", got, tt.want)
			}
		})
	}
}
