package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDocExamples runs every "$ ringreport ..." line of the package doc
// (doc.go), in order, as a process in a folder holding a copy of the
// example scenarios; each must exit 0 (a "> file" redirection gets
// stdout). It runs beside the other process tests, as it changes no
// directory of the test's own.
func TestDocExamples(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	scens, _ := filepath.Glob("../../scenarios/*.yaml")
	dir := t.TempDir()
	for _, f := range scens {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "scenarios", filepath.Base(f)), data)
	}
	writeFile(t, filepath.Join(dir, "brand", "page.html.tmpl"), []byte("<!DOCTYPE html><title>{{.Title}}</title>{{.Body}}\n"))
	bin := binary(t)
	n := 0
	for line := range strings.Lines(string(src)) {
		cmd, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(line, "//")), "$ ringreport")
		if !ok {
			continue
		}
		n++
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
	}
	if n < 8 {
		t.Errorf("found %d examples in doc.go, want at least 8", n)
	}
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
