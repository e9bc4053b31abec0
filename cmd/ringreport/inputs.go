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

	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/site"
)

// defaultScenarios is where scenarios are looked for when no path is given.
const defaultScenarios = "scenarios"

// readInputs reads the scenario files that paths name: files as given,
// directories as their *.yaml and *.yml files in name order. Files found
// in a directory are opened through an os.Root on it, so a symlink there
// cannot lead out of it.
func readInputs(paths []string, lim scenario.Limits) ([]site.Input, error) {
	if len(paths) == 0 {
		paths = []string{defaultScenarios}
	}
	var inputs []site.Input
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read scenarios: %w", err)
		}
		if !fi.IsDir() {
			in, err := readInput(p, lim)
			if err != nil {
				return nil, err
			}
			inputs = append(inputs, in)
			continue
		}
		found, err := readDir(p, lim)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, found...)
	}
	if len(inputs) == 0 {
		return nil, fmt.Errorf("no scenario files (*.yaml) in %s", strings.Join(paths, ", "))
	}
	return inputs, nil
}

// readDir reads the *.yaml and *.yml files of dir, in name order.
func readDir(dir string, lim scenario.Limits) ([]site.Input, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read scenarios: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read scenarios: %w", err)
	}
	defer root.Close()
	var names []string
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	var out []site.Input
	for _, n := range names {
		file := filepath.Join(dir, n)
		src, err := readScenario(root.FS(), n, file, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, input(file, src, lim))
	}
	return out, nil
}

// readInput reads one scenario file named on the command line.
func readInput(file string, lim scenario.Limits) (site.Input, error) {
	src, err := readScenario(nil, file, file, lim)
	if err != nil {
		return site.Input{}, err
	}
	return input(file, src, lim), nil
}

// input makes the site.Input of a scenario; its keys files are read
// through an os.Root on the scenario's folder, so they cannot name files
// outside it, not even through a symlink.
func input(file string, src []byte, lim scenario.Limits) site.Input {
	dir := filepath.Dir(file)
	readFile := func(rel string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		data, err := readLimited(root.FS(), filepath.FromSlash(rel), keysFileBytes(lim))
		if err != nil {
			return nil, unwrapPath(err)
		}
		return data, nil
	}
	return site.Input{Path: filepath.ToSlash(file), Src: src, ReadFile: readFile, Limits: lim}
}

func keysFileBytes(lim scenario.Limits) int64 {
	if lim.KeysFileBytes > 0 {
		return lim.KeysFileBytes
	}
	return scenario.DefaultLimits.KeysFileBytes
}

// readLimited reads the regular file name, from fsys or (when fsys is
// nil) the operating system, refusing anything else (a FIFO or a device
// would block or never end). It reads at most limit+1 bytes, so that a
// caller can tell a file over the limit without reading all of it.
func readLimited(fsys fs.FS, name string, limit int64) ([]byte, error) {
	stat, open := os.Stat, func(n string) (fs.File, error) { return os.Open(n) }
	if fsys != nil {
		stat = func(n string) (fs.FileInfo, error) { return fs.Stat(fsys, filepath.ToSlash(n)) }
		open = func(n string) (fs.File, error) { return fsys.Open(filepath.ToSlash(n)) }
	}
	fi, err := stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", name, fi.Mode().Type())
	}
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// readScenario reads a scenario file with readLimited and checks its size.
func readScenario(fsys fs.FS, name, file string, lim scenario.Limits) ([]byte, error) {
	limit := lim.FileBytes
	if limit <= 0 {
		limit = scenario.DefaultLimits.FileBytes
	}
	src, err := readLimited(fsys, name, limit)
	switch {
	case err != nil:
		return nil, fmt.Errorf("cannot read scenario %s: %w", file, err)
	case int64(len(src)) > limit:
		return nil, fmt.Errorf("%s: file size: larger than the limit of %s; raise it with -max-file-size", file, scenario.Bytes(limit))
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
