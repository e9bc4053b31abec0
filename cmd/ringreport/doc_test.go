package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocExamples runs every "$ ringreport ..." line of the package doc
// (doc.go) as a process in a folder holding a copy of the example
// scenarios that the examples name (the commands that read the whole
// folder build those; .ci/run's ringreport check builds all of them as a
// process); each must exit 0 (a "> file" redirection gets stdout). Each
// example writes a folder of its own or nothing, so they run side by
// side, but a check runs once every example before it is done, as it
// reads what they wrote. The test runs beside the other process tests,
// as it changes no directory of the test's own.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	for line := range strings.Lines(string(src)) {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "//")), "$ ringreport"); ok {
			cmds = append(cmds, cmd)
		}
	}
	dir := t.TempDir()
	copyNamedScenarios(t, dir, cmds)
	writeFile(t, filepath.Join(dir, "brand", "page.html.tmpl"), []byte("<!DOCTYPE html><title>{{.Title}}</title>{{.Body}}\n"))
	var group []string
	for _, cmd := range cmds {
		if strings.HasPrefix(strings.TrimSpace(cmd), "check") {
			runExamples(t, dir, group)
			group = nil
		}
		group = append(group, cmd)
	}
	runExamples(t, dir, group)
	if n := len(cmds); n < 8 {
		t.Errorf("found %d examples in doc.go, want at least 8", n)
	}
}

// namedScenario matches an example scenario that a doc example names.
var namedScenario = regexp.MustCompile(`\bscenarios/([\w.-]+\.ya?ml)\b`)

// copyNamedScenarios copies into dir/scenarios the example scenarios
// that cmds name.
func copyNamedScenarios(t *testing.T, dir string, cmds []string) {
	named := map[string]bool{}
	for _, m := range namedScenario.FindAllStringSubmatch(strings.Join(cmds, "\n"), -1) {
		if named[m[1]] {
			continue
		}
		named[m[1]] = true
		data, err := os.ReadFile(filepath.Join("../../scenarios", m[1]))
		if err != nil {
			t.Fatalf("an example names scenarios/%s: %v", m[1], err)
		}
		writeFile(t, filepath.Join(dir, "scenarios", m[1]), data)
	}
	if len(named) < 2 {
		t.Fatalf("the examples name %d scenarios, want the few they build", len(named))
	}
}

// runExamples runs the doc examples cmds (what follows "$ ringreport")
// in dir at once, and returns when all have finished.
func runExamples(t *testing.T, dir string, cmds []string) {
	bin := binary(t)
	t.Run("examples", func(t *testing.T) {
		for _, cmd := range cmds {
			t.Run("ringreport"+cmd, func(t *testing.T) {
				t.Parallel()
				args, redirect, _ := strings.Cut(cmd, ">")
				var stdout, stderr bytes.Buffer
				c := exec.Command(bin, strings.Fields(args)...)
				c.Dir, c.Stdout, c.Stderr = dir, &stdout, &stderr
				if err := c.Run(); err != nil {
					t.Errorf("$ ringreport%s: %v\n%s", cmd, err, stderr.String())
				}
				if f := strings.TrimSpace(redirect); f != "" && stdout.Len() == 0 {
					t.Errorf("$ ringreport%s: nothing written to %s", cmd, f)
				}
			})
		}
	})
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
