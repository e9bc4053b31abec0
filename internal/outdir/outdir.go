// Package outdir writes a build's files into an output directory as one
// atomic step, and compares a directory with what a build would write.
//
// A build is written into a temporary sibling of the output directory,
// then swapped into place (on Linux with one atomic rename exchange), so a
// failed or killed build leaves the previous directory exactly as it was.
// Files are written through os.Root, so no path can escape the directory.
package outdir

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Marker is the file that marks a directory as ringreport's own; Write
// refuses to replace a non-empty directory without it.
const Marker = ".ringreport"

const markerText = "This directory is written by ringreport, which replaces it whole on every build.\n"

// File is one file to write, at a slash-separated path relative to the
// output directory.
type File struct {
	Path string
	Data []byte
}

// Write replaces dir with exactly files (plus the marker). Unless force
// is set, a non-empty dir without the marker is refused. Leftovers of
// earlier interrupted builds are removed first.
func Write(dir string, files []File, force bool) error {
	dir = filepath.Clean(dir)
	if err := checkNotAncestor(dir); err != nil {
		return err
	}
	cleanLeftovers(dir)
	if err := checkOwned(dir, force); err != nil {
		return err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return fmt.Errorf("cannot create a temporary output directory: %w", err)
	}
	if err := fill(tmp, files); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := swap(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("cannot move the new output into %s: %w", dir, err)
	}
	return nil
}

// checkNotAncestor refuses to replace the working directory or one of
// its ancestors (such as -o . or -o ..), even with force: swapping it
// out would pull the ground from under the build.
func checkNotAncestor(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("cannot resolve the output directory: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("cannot resolve the output directory: %w", err)
	}
	rel, err := filepath.Rel(abs, wd)
	if err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		return fmt.Errorf("refusing to replace %s: it holds the current directory; choose an output directory of its own, such as -o out", dir)
	}
	return nil
}

// checkOwned refuses a non-empty directory that ringreport did not write.
func checkOwned(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) || force {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read output directory: %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, Marker)); err != nil {
		return fmt.Errorf("%s is not empty and was not written by ringreport (no %s file); choose another -o or pass -force to replace it", dir, Marker)
	}
	return nil
}

// fill writes files and the marker into dir through an os.Root.
func fill(dir string, files []File) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	all := append([]File{{Path: Marker, Data: []byte(markerText)}}, files...)
	for _, f := range all {
		if err := validPath(f.Path); err != nil {
			return err
		}
		if d := path.Dir(f.Path); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("cannot create %s: %w", d, err)
			}
		}
		if err := root.WriteFile(f.Path, f.Data, 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %w", f.Path, err)
		}
	}
	return nil
}

// validPath accepts only clean, relative, slash-separated paths.
func validPath(p string) error {
	if p == "" || !fs.ValidPath(p) || strings.Contains(p, `\`) {
		return fmt.Errorf("refusing to write %q: not a clean relative path", p)
	}
	return nil
}

// cleanLeftovers removes temporary and old directories of earlier builds
// that were killed before they could clean up.
func cleanLeftovers(dir string) {
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() && (strings.HasPrefix(n, "."+base+".tmp-") || strings.HasPrefix(n, "."+base+".old-")) {
			os.RemoveAll(filepath.Join(parent, n))
		}
	}
}

// Diff compares dir with files and returns one line per difference,
// sorted: "changed: p", "missing: p" (in files, not in dir), "extra: p"
// (in dir, not in files). The marker is ignored.
func Diff(dir string, files []File) ([]string, error) {
	want := map[string][]byte{}
	for _, f := range files {
		want[f.Path] = f.Data
	}
	var out []string
	have := map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == Marker {
			return nil
		}
		have[rel] = true
		data, ok := want[rel]
		if !ok {
			out = append(out, "extra: "+rel)
			return nil
		}
		got, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Equal(got, data) {
			out = append(out, "changed: "+rel)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for p := range want {
		if !have[p] {
			out = append(out, "missing: "+p)
		}
	}
	slices.Sort(out)
	return out, nil
}
