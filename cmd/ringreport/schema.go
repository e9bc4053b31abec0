package main

import (
	_ "embed"
	"fmt"
	"io"
)

// schemaJSON is the JSON Schema (draft-07) of the scenario format.
// schema_test.go keeps it in step with internal/scenario and with the
// copy at the repository root.
//
//go:embed schema.json
var schemaJSON []byte

func runSchema(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schema", "", stderr)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ringreport schema: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	if _, err := stdout.Write(schemaJSON); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	return exitOK
}
