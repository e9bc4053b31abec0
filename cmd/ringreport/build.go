package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/ringreport/ringreport/internal/outdir"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/site"
)

// parseBuildFlags parses the flags that build and check share (build
// adds -force); ok is false when the command should exit with code.
func parseBuildFlags(name string, args []string, stderr io.Writer) (f buildFlags, paths []string, code int, ok bool) {
	fs := newFlagSet(name, "[path ...]", stderr)
	f.register(fs)
	if name == "build" {
		fs.BoolVar(&f.force, "force", false, "replace the output directory even if ringreport did not write it")
	}
	if code, ok := parseFlags(fs, args); !ok {
		return f, nil, code, false
	}
	if err := f.check(); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return f, nil, exitUsage, false
	}
	return f, fs.Args(), exitOK, true
}

func runBuild(args []string, stdout, stderr io.Writer) int {
	f, paths, code, ok := parseBuildFlags("build", args, stderr)
	if !ok {
		return code
	}
	files, code := buildFiles(paths, f, stderr)
	if files == nil {
		return code
	}
	if err := outdir.Write(f.out, files, f.force); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	return code
}

// buildFiles reads and builds the scenarios paths name, printing errors.
// When only expectations failed it returns the files with exitError: the
// site is complete and shows the failures, but the command must fail.
func buildFiles(paths []string, f buildFlags, stderr io.Writer) ([]outdir.File, int) {
	inputs, err := readInputs(paths, f.limits)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return nil, exitError
	}
	opts := site.Options{Jobs: f.jobs}
	if f.templates != "" {
		opts.Templates = os.DirFS(f.templates)
	}
	var finish func()
	opts.Progress, finish = progressFunc(stderr)
	built, err := site.Build(inputs, opts)
	finish()
	code := exitOK
	var failed site.ExpectationsFailed
	switch {
	case errors.As(err, &failed):
		fmt.Fprintln(stderr, err)
		code = exitError
	case err != nil:
		fmt.Fprintln(stderr, err)
		return nil, exitError
	}
	files := make([]outdir.File, len(built))
	for i, b := range built {
		files[i] = outdir.File(b)
	}
	return files, code
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	f, paths, code, ok := parseBuildFlags("check", args, stderr)
	if !ok {
		return code
	}
	files, code := buildFiles(paths, f, stderr)
	if files == nil {
		return code
	}
	diffs, err := outdir.Diff(f.out, files)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if len(diffs) == 0 {
		return code // exitError when expectations failed
	}
	fmt.Fprintf(stderr, "ringreport: %s is stale (%d files differ):\n", f.out, len(diffs))
	for _, d := range diffs {
		fmt.Fprintln(stderr, "\t"+d)
	}
	fmt.Fprintf(stderr, "run 'go run ./cmd/ringreport build -o %s' and commit the result\n", f.out)
	return exitStale
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate", "[path ...]", stderr)
	var lim scenario.Limits
	registerLimits(fs, &lim)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	inputs, err := readInputs(fs.Args(), lim)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if _, err := site.Parse(inputs); err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	fmt.Fprintf(stdout, "%d scenario(s) ok\n", len(inputs))
	return exitOK
}
