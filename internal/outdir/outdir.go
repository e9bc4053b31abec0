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
	w, err := Create(dir, force)
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := w.Add(f); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit()
}

// A Writer builds a new output directory one file at a time, so that a
// build need not hold every file in memory: files go into a temporary
// sibling of the directory, which Commit swaps into place. Until then,
// and after Abort, the directory is exactly as it was.
type Writer struct {
	dir, tmp string
	root     *os.Root
}

// Create starts replacing dir: it applies Write's checks, removes
// leftovers of interrupted builds and opens a temporary sibling holding
// only the marker.
func Create(dir string, force bool) (*Writer, error) {
	dir = filepath.Clean(dir)
	if err := checkNotAncestor(dir); err != nil {
		return nil, err
	}
	cleanLeftovers(dir)
	if err := checkOwned(dir, force); err != nil {
		return nil, err
	}
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("cannot create a temporary output directory: %w", err)
	}
	w := &Writer{dir: dir, tmp: tmp}
	if w.root, err = os.OpenRoot(tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := w.Add(File{Path: Marker, Data: []byte(markerText)}); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Add writes one file, at a clean relative path, creating its folders.
// It is not safe for concurrent use.
func (w *Writer) Add(f File) error {
	if err := validPath(f.Path); err != nil {
		return err
	}
	if d := path.Dir(f.Path); d != "." {
		if err := w.root.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("cannot create %s: %w", d, err)
		}
	}
	if err := w.root.WriteFile(f.Path, f.Data, 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Path, err)
	}
	return nil
}

// Commit swaps the new directory into place and removes the old one.
func (w *Writer) Commit() error {
	w.root.Close()
	if err := swap(w.tmp, w.dir); err != nil {
		os.RemoveAll(w.tmp)
		return fmt.Errorf("cannot move the new output into %s: %w", w.dir, err)
	}
	return nil
}

// Abort discards what was written; the directory stays as it was.
func (w *Writer) Abort() {
	w.root.Close()
	os.RemoveAll(w.tmp)
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
	d := NewDiffer(dir)
	for _, f := range files {
		if err := d.Add(f); err != nil {
			return nil, err
		}
	}
	return d.Result()
}

// A Differ compares dir with a build's files as they come, one at a time,
// so that a check need not hold every file in memory.
type Differ struct {
	dir  string
	seen map[string]bool
	out  []string
}

// NewDiffer starts comparing dir.
func NewDiffer(dir string) *Differ { return &Differ{dir: dir, seen: map[string]bool{}} }

// Add compares one file with its namesake in the directory. It is not
// safe for concurrent use.
func (d *Differ) Add(f File) error {
	if err := validPath(f.Path); err != nil {
		return err
	}
	d.seen[f.Path] = true
	got, err := os.ReadFile(filepath.Join(d.dir, filepath.FromSlash(f.Path)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		d.out = append(d.out, "missing: "+f.Path)
	case err != nil:
		return err
	case !bytes.Equal(got, f.Data):
		d.out = append(d.out, "changed: "+f.Path)
	}
	return nil
}

// Result adds the files in the directory that no Add named ("extra: p")
// and returns every difference, sorted.
func (d *Differ) Result() ([]string, error) {
	err := filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(d.dir, p)
		if rel = filepath.ToSlash(rel); rel != Marker && !d.seen[rel] {
			d.out = append(d.out, "extra: "+rel)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	slices.Sort(d.out)
	return d.out, nil
}
