package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
// that cmds name, made smaller (smallerScenario).
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
		writeFile(t, filepath.Join(dir, "scenarios", m[1]), smallerScenario(data))
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

// sizeLine matches a top-level "keys: N" or "seeds: N" line.
var sizeLine = regexp.MustCompile(`(?m)^(keys|seeds): (\d+)$`)

// smallerScenario caps a scenario's generated keys at 10,000 and its
// seeds at 3: what the examples check (each command runs and exits 0)
// does not depend on them, and points-sweep's 20 seeds of 100,000 keys
// cost 1.2 s of CPU in each of the four examples that build it, 0.13 s
// at this size. The sweep, the seeds and every other line stay as
// written; ringreport check in .ci/run builds the scenarios in full.
func smallerScenario(src []byte) []byte {
	limit := map[string]int{"keys": 10_000, "seeds": 3}
	return sizeLine.ReplaceAllFunc(src, func(line []byte) []byte {
		m := sizeLine.FindSubmatch(line)
		if n, err := strconv.Atoi(string(m[2])); err == nil && n > limit[string(m[1])] {
			return fmt.Appendf(nil, "%s: %d", m[1], limit[string(m[1])])
		}
		return line
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
