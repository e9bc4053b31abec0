package scenario

import (
	"strings"
	"testing"
)

// TestName checks that output folder names from file names stay one
// plain path element, whatever the file is called.
func TestName(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"scenarios/ring.yaml", "ring"},
		{"ring.yml", "ring"},
		{"../x.yaml", "x"},
		{"../../etc/passwd.yaml", "passwd"},
		{`..\..\evil.yaml`, "evil"},
		{"a b.yaml", "a-b"},
		{".hidden.yaml", "hidden"},
		{"...yaml", "scenario"},
		{"..yaml", "scenario"},
		{".yaml", "scenario"},
		{"nœud.yaml", "n--ud"},
		{"日本.yaml", "------"},
		{"<script>.yaml", "-script-"},
		{"a/b/c.d.yaml", "c.d"},
		{"CON.yaml", "CON-"},
		{"con.yaml", "con-"},
		{"nul.txt.yaml", "nul.txt-"},
		{"COM1.yaml", "COM1-"},
		{"lpt9.yaml", "lpt9-"},
		{"COM10.yaml", "COM10"},
		{"console.yaml", "console"},
		{"x\x00y.yaml", "x-y"},
	} {
		got := Name(tt.file)
		if got != tt.want {
			t.Errorf("Name(%q) = %q, want %q", tt.file, got, tt.want)
		}
		if got == "" || got == "." || got == ".." || strings.ContainsAny(got, `/\`) || strings.HasPrefix(got, ".") {
			t.Errorf("Name(%q) = %q is not one plain path element", tt.file, got)
		}
	}
}
