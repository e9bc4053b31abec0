package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/safefs"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/text"
)

// defaultScenarios is where scenarios are looked for when no path is given.
const defaultScenarios = "scenarios"

// readInputs reads the scenario files that paths name: files as given,
// directories as their *.yaml and *.yml files (in any case: .YAML too) in
// name order. Files found in a directory are opened through an os.Root on
// it, so a symlink there cannot lead out of it. Hidden files (an editor's
// lock such as .#ring.yaml) and symlinks to nothing in a directory are
// skipped, with a note on notes.
func readInputs(paths []string, lim scenario.Limits, notes io.Writer) ([]build.Input, error) {
	if len(paths) == 0 {
		paths = []string{defaultScenarios}
	}
	var inputs []build.Input
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read scenarios: %w", text.PathError(err))
		}
		if !fi.IsDir() {
			in, err := readInput(p, lim)
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, in)
			continue
		}
		found, err := readDir(p, lim, notes)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, found...)
	}
	if len(inputs) == 0 {
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = text.Path(p)
		}
		return nil, fmt.Errorf("no scenario files (*.yaml) in %s", strings.Join(quoted, ", "))
	}
	return inputs, nil
}

// isScenario reports whether a file name ends in .yaml or .yml, in any
// case.
func isScenario(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// readDir reads the scenario files of dir, in name order.
func readDir(dir string, lim scenario.Limits, notes io.Writer) ([]build.Input, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read scenarios: %w", text.PathError(err))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read scenarios: %w", text.PathError(err))
	}
	defer root.Close()
	var names []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !isScenario(n) {
			continue
		}
		file := filepath.Join(dir, n)
		if strings.HasPrefix(n, ".") {
			fmt.Fprintf(notes, "ringreport: note: skipping %s: a hidden file (an editor's lock or backup?)\n", text.Path(file))
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if _, err := root.Stat(n); errors.Is(err, fs.ErrNotExist) {
				fmt.Fprintf(notes, "ringreport: note: skipping %s: a symlink to nothing\n", text.Path(file))
				continue
			}
		}
		names = append(names, n)
	}
	slices.Sort(names)
	var out []build.Input
	for _, n := range names {
		file := filepath.Join(dir, n)
		src, err := readScenario(root, n, file, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, input(file, src, lim))
	}
	return out, nil
}

// readInput reads one scenario file named on the command line.
func readInput(file string, lim scenario.Limits) (build.Input, error) {
	src, err := readScenario(nil, file, file, lim)
	if err != nil {
		return build.Input{}, err
	}
	return input(file, src, lim), nil
}

// input makes the build.Input of a scenario; its keys files are read
// through an os.Root on the scenario's folder, so they cannot name files
// outside it, not even through a symlink.
func input(file string, src []byte, lim scenario.Limits) build.Input {
	dir := filepath.Dir(file)
	readFile := func(rel string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		data, err := safefs.ReadFile(root, filepath.FromSlash(rel), keysFileBytes(lim))
		if err != nil {
			return nil, unwrapPath(err)
		}
		return data, nil
	}
	return build.Input{Path: filepath.ToSlash(file), Src: src, ReadFile: readFile, Limits: lim}
}

func keysFileBytes(lim scenario.Limits) int64 {
	if lim.KeysFileBytes > 0 {
		return lim.KeysFileBytes
	}
	return scenario.DefaultLimits.KeysFileBytes
}

// fileBytes is the limit on a scenario file, and on a template.
func fileBytes(lim scenario.Limits) int64 {
	if lim.FileBytes > 0 {
		return lim.FileBytes
	}
	return scenario.DefaultLimits.FileBytes
}

// readScenario reads a scenario file name, through root (or, when root
// is nil, from the operating system), with safefs.ReadFile, which refuses
// anything but a regular file, and checks its size.
func readScenario(root *os.Root, name, file string, lim scenario.Limits) ([]byte, error) {
	limit := fileBytes(lim)
	src, err := safefs.ReadFile(root, name, limit)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read scenario %s: %w", text.Path(file), text.PathError(err))
	case int64(len(src)) > limit:
		return nil, fmt.Errorf("%s: file size: larger than the limit of %s; raise it with -max-file-size", text.Path(file), scenario.Bytes(limit))
	}
	return src, nil
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// parser's message names already.
func unwrapPath(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ErrNotExist
	}
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	if strings.Contains(err.Error(), "path escapes from parent") { // os.Root's message
		return errors.New("path escapes from the scenario's directory")
	}
	return err
}
