package main

import (
	"errors"
	"os/exec"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	useTmpfs()
	// The test binary, copied onto PATH as ringreport, is the command:
	// the scripts and the tests that run it as a process (binary) start
	// it, and it runs main.
	testscript.Main(m, map[string]func(){"ringreport": main})
}

// TestScripts runs the command-line scripts in testdata/script: one per
// subcommand, exit status and input error.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *golden.Update,
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"exits": cmdExits},
		Setup: func(env *testscript.Env) error {
			env.Setenv("CI", "") // progress output is tested in progress_test.go
			return nil
		},
	})
}

// cmdExits runs "exits N cmd args..." and fails unless cmd exits with
// status N; stdout and stderr are kept for later commands.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits status command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
