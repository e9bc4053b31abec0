package main

import (
	"os"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ringreport": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the command-line scripts in testdata/script: one per
// subcommand, exit status and input error.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *golden.Update,
	})
}
