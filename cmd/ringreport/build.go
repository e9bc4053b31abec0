package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/outdir"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/text"
)

// parseBuildFlags parses the flags that build and check share (build
// adds -force); ok is false when the command should exit with code.
func parseBuildFlags(name string, args []string, stderr io.Writer) (f buildFlags, paths []string, code int, ok bool) {
	fs := newFlagSet(name, "[path ...]", stderr)
	f.register(fs)
	if name == "build" {
		fs.BoolVar(&f.force, "force", false, "replace the output directory even if ringreport did not write it (only ever a directory)")
		fs.BoolVar(&f.quiet, "q", false, "print nothing but errors (no summary line)")
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
	began := time.Now()
	f, paths, code, ok := parseBuildFlags("build", args, stderr)
	if !ok {
		return code
	}
	inputs := paths
	if len(inputs) == 0 {
		inputs = []string{defaultScenarios}
	}
	// The output directory is opened at the first file, so that input
	// errors leave the file system untouched, and then filled file by
	// file as scenarios finish. mu guards w against the signal handler,
	// which removes the temporary directory of an interrupted build.
	var (
		mu        sync.Mutex
		w         *outdir.Writer
		committed bool
		sum       summary
	)
	stop := onInterrupt(func(sig string) {
		mu.Lock() // waits for a file being written, or for the swap
		if showsProgress(stderr) {
			fmt.Fprint(stderr, "\r\x1b[K") // the progress line
		}
		if committed {
			fmt.Fprintf(stderr, "ringreport: interrupted (%s) after %s was written\n", sig, text.Path(f.out))
		} else {
			if w != nil {
				w.Abort()
			}
			fmt.Fprintf(stderr, "ringreport: interrupted (%s); %s is as it was\n", sig, text.Path(f.out))
		}
	})
	defer stop()
	code, complete := streamFiles(paths, f, stderr, &sum, func(file outdir.File) (err error) {
		mu.Lock()
		defer mu.Unlock()
		if w == nil {
			if w, err = outdir.CreateWith(f.out, outdir.Options{Force: f.force, Inputs: inputs}); err != nil {
				return err
			}
		}
		return w.Add(file)
	})
	mu.Lock()
	defer mu.Unlock()
	if w == nil {
		return code
	}
	if !complete {
		w.Abort()
		return code
	}
	err := w.Commit()
	committed = err == nil
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if !f.quiet {
		fmt.Fprintln(stderr, sum.line(f.out, time.Since(began)))
	}
	return code
}

// summary counts what a build wrote, for the line it prints on stderr
// when it is done (never into an output file, which stay free of times).
type summary struct {
	scenarios, files int
}

// line is "wrote out/: 10 scenarios, 214 files, 8.6 s".
func (s summary) line(out string, took time.Duration) string {
	dir := text.Path(out)
	if !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	return fmt.Sprintf("wrote %s: %s, %s, %.1f s", dir, text.Plural(s.scenarios, "scenario", "scenarios"),
		text.Plural(s.files, "file", "files"), took.Seconds())
}

// streamFiles reads and builds the scenarios paths name, handing each
// output file to emit as it is ready and counting them in sum, and prints
// errors. It returns the
// exit status (exitOK or exitError) and whether every file was emitted,
// which is so when it succeeds and when only expectations failed: the
// site is then complete, and the command still fails.
func streamFiles(paths []string, f buildFlags, stderr io.Writer, sum *summary, emit func(outdir.File) error) (code int, complete bool) {
	inputs, err := readInputs(paths, f.limits, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError, false
	}
	sum.scenarios = len(inputs)
	opts := build.Options{Jobs: f.jobs, Theme: f.theme}
	if f.templates != "" {
		if opts.Templates, err = loadTemplates(f.templates, f.limits); err != nil {
			fmt.Fprintln(stderr, "ringreport:", err)
			return exitError, false
		}
	}
	var finish func()
	opts.Progress, finish = progressFunc(stderr)
	var emitErr error
	err = build.Stream(inputs, opts, func(file build.File) error {
		if emitErr = emit(outdir.File(file)); emitErr == nil {
			sum.files++ // Stream's calls are serialized
		}
		return emitErr
	})
	finish()
	var failed build.ExpectationsFailed
	switch {
	case emitErr != nil:
		fmt.Fprintln(stderr, "ringreport:", emitErr)
		return exitError, false
	case errors.As(err, &failed):
		fmt.Fprintln(stderr, err)
		return exitError, true
	case err != nil:
		fmt.Fprintln(stderr, err)
		return exitError, false
	}
	return exitOK, true
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	f, paths, code, ok := parseBuildFlags("check", args, stderr)
	if !ok {
		return code
	}
	d := outdir.NewDiffer(f.out)
	code, complete := streamFiles(paths, f, stderr, &summary{}, d.Add)
	if !complete {
		return code
	}
	diffs, err := d.Result()
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if len(diffs) == 0 {
		return code // exitError when expectations failed
	}
	fmt.Fprintf(stderr, "ringreport: %s is stale (%d files differ):\n", text.Path(f.out), len(diffs))
	for _, d := range diffs {
		fmt.Fprintln(stderr, "\t"+d)
	}
	fmt.Fprintf(stderr, "run 'go run ./cmd/ringreport build -o %s' and commit the result\n", text.Path(f.out))
	return exitStale
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("validate", "[path ...]", stderr)
	var lim scenario.Limits
	registerLimits(fs, &lim)
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	inputs, err := readInputs(fs.Args(), lim, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "ringreport:", err)
		return exitError
	}
	if _, err := build.Parse(inputs); err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	fmt.Fprintf(stdout, "%d scenario(s) ok\n", len(inputs))
	return exitOK
}
