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
	// The output directory is opened at the first file, so that input
	// errors leave the file system untouched, and then filled file by
	// file as scenarios finish.
	var w *outdir.Writer
	code = streamFiles(paths, f, stderr, func(file outdir.File) (err error) {
		if w == nil {
			if w, err = outdir.Create(f.out, f.force); err != nil {
				return err
			}
		}
		return w.Add(file)
	})
	if w == nil {
		return exitStatus(code)
	}
	if code != exitOK && code != exitFailedExpectations {
		w.Abort()
		return code
	}
	if err := w.Commit(); err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	return exitStatus(code)
}

// exitFailedExpectations is streamFiles' code for a complete site whose
// expectations failed: the site is written, and the command exits with
// exitError.
const exitFailedExpectations = -1

// exitStatus maps streamFiles' codes to the command's exit status.
func exitStatus(code int) int {
	if code == exitFailedExpectations {
		return exitError
	}
	return code
}

// streamFiles reads and builds the scenarios paths name, handing each
// output file to emit as it is ready, and prints errors. It returns
// exitOK, exitFailedExpectations when every file was emitted but some
// expectations failed, or exitError.
func streamFiles(paths []string, f buildFlags, stderr io.Writer, emit func(outdir.File) error) int {
	inputs, err := readInputs(paths, f.limits)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	opts := site.Options{Jobs: f.jobs, Theme: f.theme}
	if f.templates != "" {
		opts.Templates = os.DirFS(f.templates)
	}
	var finish func()
	opts.Progress, finish = progressFunc(stderr)
	var emitErr error
	err = site.Stream(inputs, opts, func(file site.File) error {
		emitErr = emit(outdir.File(file))
		return emitErr
	})
	finish()
	var failed site.ExpectationsFailed
	switch {
	case emitErr != nil:
		fmt.Fprintln(stderr, "ringreport:", emitErr)
		return exitError
	case errors.As(err, &failed):
		fmt.Fprintln(stderr, err)
		return exitFailedExpectations
	case err != nil:
		fmt.Fprintln(stderr, err)
		return exitError
	}
	return exitOK
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	f, paths, code, ok := parseBuildFlags("check", args, stderr)
	if !ok {
		return code
	}
	d := outdir.NewDiffer(f.out)
	code = streamFiles(paths, f, stderr, d.Add)
	if code != exitOK && code != exitFailedExpectations {
		return code
	}
	diffs, err := d.Result()
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if len(diffs) == 0 {
		return exitStatus(code) // exitError when expectations failed
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
