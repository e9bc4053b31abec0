package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ringreport/ringreport/internal/site"
)

// defaultScenarios is where scenarios are looked for when no path is given.
const defaultScenarios = "scenarios"

// maxScenarioBytes bounds a scenario file's size.
const maxScenarioBytes = 4 << 20

// readInputs reads the scenario files that paths name: files as given,
// directories as their *.yaml and *.yml files in name order.
func readInputs(paths []string) ([]site.Input, error) {
	if len(paths) == 0 {
		paths = []string{defaultScenarios}
	}
	var files []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("cannot read scenarios: %w", err)
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		found, err := scenarioFiles(p)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no scenario files (*.yaml) in %s", strings.Join(paths, ", "))
	}
	inputs := make([]site.Input, 0, len(files))
	for _, f := range files {
		in, err := readInput(f)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

func scenarioFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read scenarios: %w", err)
	}
	var out []string
	for _, e := range entries {
		ext := filepath.Ext(e.Name())
		if !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// readInput reads one scenario; its keys files are read through an
// os.Root on the scenario's folder, so they cannot name files outside it.
func readInput(file string) (site.Input, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return site.Input{}, fmt.Errorf("cannot read scenario: %w", err)
	}
	if fi.Size() > maxScenarioBytes {
		return site.Input{}, fmt.Errorf("%s: file is %d bytes; scenario files may have at most %d", file, fi.Size(), maxScenarioBytes)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		return site.Input{}, fmt.Errorf("cannot read scenario: %w", err)
	}
	dir := filepath.Dir(file)
	readFile := func(rel string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		return root.ReadFile(filepath.FromSlash(rel))
	}
	return site.Input{Path: filepath.ToSlash(file), Src: src, ReadFile: readFile}, nil
}
