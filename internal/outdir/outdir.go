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
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/safefs"
	"github.com/ringreport/ringreport/internal/text"
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

// Options say what Create may replace.
type Options struct {
	// Force replaces a directory that ringreport did not write.
	Force bool
	// Inputs are the files and folders the build reads. The output
	// directory may not be one of them, the folder of one of them (where
	// its keys files are) or an ancestor of either, even with Force.
	Inputs []string
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
//
// A Writer holds a lock on the directory (see Lock) from Create until
// Commit or Abort, so that no other build can write it meanwhile.
type Writer struct {
	dir, tmp string
	root     *os.Root
	unlock   func()
	done     bool
}

// Create is CreateWith with only Options.Force.
func Create(dir string, force bool) (*Writer, error) {
	return CreateWith(dir, Options{Force: force})
}

// CreateWith starts replacing dir. It refuses a dir that is not a
// directory, that holds the working directory or one of opt.Inputs, and
// (unless opt.Force) a non-empty one without the marker; it takes the
// directory's lock, which fails while another build holds it; it removes
// the leftovers of earlier builds that were killed, which the lock proves
// dead; and it creates a temporary sibling holding only the marker.
func CreateWith(dir string, opt Options) (*Writer, error) {
	dir = filepath.Clean(dir)
	if err := checkTarget(dir, opt.Inputs); err != nil {
		return nil, err
	}
	unlock, err := Lock(dir)
	if err != nil {
		return nil, err
	}
	cleanLeftovers(dir)
	if err := checkOwned(dir, opt.Force); err != nil {
		unlock()
		return nil, err
	}
	tmp, err := mkdirTemp(dir)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("cannot create a temporary output directory: %w", text.PathError(err))
	}
	w := &Writer{dir: dir, tmp: tmp, unlock: unlock}
	if w.root, err = os.OpenRoot(tmp); err != nil {
		os.RemoveAll(tmp)
		unlock()
		return nil, text.PathError(err)
	}
	if err := w.Add(File{Path: Marker, Data: []byte(markerText)}); err != nil {
		w.Abort()
		return nil, err
	}
	return w, nil
}

// Temp returns the temporary directory the Writer fills.
func (w *Writer) Temp() string { return w.tmp }

// tmpPrefix is the start of the name of dir's temporary siblings, which
// mkdirTemp ends with decimal digits.
func tmpPrefix(dir string) (parent, prefix string) {
	parent, base := filepath.Split(dir)
	if parent == "" {
		parent = "."
	}
	return parent, "." + base + ".tmp-"
}

// mkdirTemp creates a new temporary sibling of dir with mode 0755 less
// the umask, as mkdir would (os.MkdirTemp's 0700 would become the mode
// of the output directory once swapped in).
func mkdirTemp(dir string) (string, error) {
	parent, prefix := tmpPrefix(dir)
	for range 10000 {
		name := filepath.Join(parent, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		err := os.Mkdir(name, 0o755)
		if !errors.Is(err, fs.ErrExist) {
			return name, err
		}
	}
	return "", fmt.Errorf("mkdir %s: too many temporary directories", filepath.Join(parent, prefix+"*"))
}

// Add writes one file, at a clean relative path, creating its folders.
// It is not safe for concurrent use.
func (w *Writer) Add(f File) error {
	if err := validPath(f.Path); err != nil {
		return err
	}
	if d := path.Dir(f.Path); d != "." {
		if err := w.root.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("cannot create %s: %w", text.Path(d), text.PathError(err))
		}
	}
	if err := w.root.WriteFile(f.Path, f.Data, 0o644); err != nil {
		return fmt.Errorf("cannot write %s: %w", text.Path(f.Path), text.PathError(err))
	}
	return nil
}

// Commit swaps the new directory into place, removes the old one and
// releases the lock.
func (w *Writer) Commit() error {
	if w.done {
		return errors.New("outdir: Commit after Commit or Abort")
	}
	w.done = true
	defer w.unlock()
	w.root.Close()
	if err := swap(w.tmp, w.dir); err != nil {
		os.RemoveAll(w.tmp)
		return fmt.Errorf("cannot move the new output into %s: %w", text.Path(w.dir), text.PathError(err))
	}
	return nil
}

// Abort discards what was written and releases the lock; the directory
// stays as it was. After Commit or Abort it does nothing.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.root.Close()
	os.RemoveAll(w.tmp)
	w.unlock()
}

// checkTarget refuses, even with force, to replace dir when it is not a
// directory (a regular file, a device, a FIFO, a socket or a symlink:
// only a directory is ever replaced), or when it holds the working
// directory or one of inputs, or is one of them (-o ., -o .., -o
// scenarios): swapping it out would pull the ground from under the
// build, or delete its input. Paths are compared after resolving
// symlinks, so a symlinked $PWD or input leads to the same place.
func checkTarget(dir string, inputs []string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read the output directory: %w", text.PathError(err))
	case !fi.IsDir():
		return fmt.Errorf("refusing to replace %s: it is %s, not a directory; ringreport replaces only a directory it can swap whole", text.Path(dir), kind(fi.Mode()))
	}
	wd, err := os.Getwd()
	if err == nil {
		wd, err = filepath.EvalSymlinks(wd)
	}
	if err != nil {
		return fmt.Errorf("cannot resolve the working directory: %w", text.PathError(err))
	}
	real, err := resolve(dir, wd)
	if err != nil {
		return nil // its parent does not exist: it holds nothing, and creating it will fail
	}
	if within(wd, real) {
		return fmt.Errorf("refusing to replace %s: it holds the current directory; choose an output directory of its own, such as -o out", text.Path(dir))
	}
	for _, in := range inputs {
		if !filepath.IsAbs(in) {
			in = wd + string(filepath.Separator) + in // not Join, which would apply ".." before symlinks
		}
		p, err := filepath.EvalSymlinks(in)
		if err != nil {
			continue // the build cannot read it either
		}
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			p = filepath.Dir(p) // a scenario's keys files are in its folder
		}
		if within(p, real) {
			return fmt.Errorf("refusing to replace %s: it holds the scenarios of %s; choose an output directory of its own, such as -o out", text.Path(dir), text.Path(in))
		}
	}
	return nil
}

// kind names a file mode for a message: "a regular file", "a symlink".
func kind(m fs.FileMode) string {
	switch m.Type() {
	case 0:
		return "a regular file"
	case fs.ModeDir:
		return "a directory"
	case fs.ModeSymlink:
		return "a symlink"
	case fs.ModeNamedPipe:
		return "a FIFO"
	case fs.ModeSocket:
		return "a socket"
	case fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice:
		return "a device"
	}
	return "not a regular file (" + m.Type().String() + ")"
}

// resolve returns the absolute path of the clean path dir, which is no
// symlink itself, as the system finds it from the working directory wd
// (absolute, without symlinks): its parent with every symlink resolved,
// and its name. filepath.Abs would not do: it starts from $PWD, which may
// be a symlink, and applies a leading ".." to it by name.
func resolve(dir, wd string) (string, error) {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(wd, dir) // dir is clean, so ".." leads only, and wd has no symlinks
	}
	parent, base := filepath.Split(dir)
	if base == "" {
		return dir, nil // the root
	}
	parent, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(parent, base), nil
}

// within reports whether p is dir or lies under it; both are absolute
// and clean. A sibling such as dir/..cache is under dir: only ".." as a
// whole path element leads out.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// checkOwned refuses a non-empty directory that ringreport did not write.
func checkOwned(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) || force {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read output directory: %w", text.PathError(err))
	}
	if fi, err := os.Lstat(filepath.Join(dir, Marker)); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not empty and was not written by ringreport (no %s file); choose another -o or pass -force to replace it", text.Path(dir), Marker)
	}
	return nil
}

// validPath accepts only clean, relative, slash-separated paths.
func validPath(p string) error {
	if p == "" || !fs.ValidPath(p) || strings.Contains(p, `\`) {
		return fmt.Errorf("refusing to write %s: not a clean relative path", strconv.Quote(p))
	}
	return nil
}

// cleanLeftovers removes the temporary siblings of dir that earlier
// builds left when they were killed before they could clean up. The
// caller holds dir's lock, so no live build owns one; only names that
// Create and swap make are removed: .out.tmp-DIGITS and
// .out.tmp-DIGITS.old (and .out.old-DIGITS, from earlier versions).
func cleanLeftovers(dir string) {
	parent, prefix := tmpPrefix(dir)
	_, base := filepath.Split(dir)
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() {
			continue
		}
		rest, ok := strings.CutPrefix(n, prefix)
		if ok {
			rest = strings.TrimSuffix(rest, ".old")
		} else {
			rest, ok = strings.CutPrefix(n, "."+base+".old-")
		}
		if ok && digits(rest) {
			os.RemoveAll(filepath.Join(parent, n))
		}
	}
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
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
//
// It compares only regular files: anything else in dir where a build
// writes a file (a FIFO, a device, a socket, a symlink, a directory) is a
// difference, and is never opened. A file is read only when its size is
// the expected one, and then no further than that size plus one byte.
type Differ struct {
	dir     string
	root    *os.Root
	entries map[string]fs.FileInfo // every entry under dir but the marker, by slash path; nil until the first look
	seen    map[string]bool
	out     []string
	err     error
}

// NewDiffer starts comparing dir.
func NewDiffer(dir string) *Differ { return &Differ{dir: dir, seen: map[string]bool{}} }

// list reads the entries under dir, without following symlinks, once.
func (d *Differ) list() error {
	if d.entries != nil || d.err != nil {
		return d.err
	}
	d.entries = map[string]fs.FileInfo{}
	fi, err := os.Lstat(d.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		d.err = text.PathError(err)
	case !fi.IsDir():
		d.err = fmt.Errorf("%s is %s, not a directory", text.Path(d.dir), kind(fi.Mode()))
	}
	if d.err != nil {
		return d.err
	}
	if d.root, err = os.OpenRoot(d.dir); err != nil {
		d.err = text.PathError(err)
		return d.err
	}
	err = filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == d.dir {
			return nil
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(d.dir, p)
		d.entries[filepath.ToSlash(rel)] = info
		return nil
	})
	if err != nil {
		d.err = text.PathError(err)
	}
	return d.err
}

// Add compares one file with its namesake in the directory. It is not
// safe for concurrent use.
func (d *Differ) Add(f File) error {
	if err := validPath(f.Path); err != nil {
		return err
	}
	if err := d.list(); err != nil {
		return err
	}
	d.seen[f.Path] = true
	fi, ok := d.entries[f.Path]
	switch {
	case !ok:
		d.out = append(d.out, "missing: "+text.Path(f.Path))
	case !fi.Mode().IsRegular():
		d.out = append(d.out, "changed: "+text.Path(f.Path)+" ("+kind(fi.Mode())+", not a regular file)")
	case fi.Size() != int64(len(f.Data)):
		d.out = append(d.out, "changed: "+text.Path(f.Path))
	default:
		same, err := d.same(f, fi)
		if err != nil {
			return err
		}
		if !same {
			d.out = append(d.out, "changed: "+text.Path(f.Path))
		}
	}
	return nil
}

// same reports whether the regular file at f.Path, as listed in fi,
// holds f.Data, reading at most one byte more.
func (d *Differ) same(f File, fi fs.FileInfo) (bool, error) {
	file, err := safefs.Open(d.root, filepath.FromSlash(f.Path))
	if errors.Is(err, safefs.ErrNotRegular) {
		return false, nil // replaced since it was listed
	}
	if err != nil {
		return false, text.PathError(err)
	}
	defer file.Close()
	if now, err := file.Stat(); err != nil || !os.SameFile(fi, now) {
		return false, nil
	}
	got, err := io.ReadAll(io.LimitReader(file, int64(len(f.Data))+1))
	if err != nil {
		return false, text.PathError(err)
	}
	return bytes.Equal(got, f.Data), nil
}

// Result adds the entries in the directory that no Add named ("extra:
// p", with a note when p is not a regular file) and returns every
// difference, sorted. Directories are not listed, only what is in them.
func (d *Differ) Result() ([]string, error) {
	if err := d.list(); err != nil {
		return nil, err
	}
	if d.root != nil {
		d.root.Close()
	}
	for p, fi := range d.entries {
		switch {
		case p == Marker || d.seen[p] || fi.IsDir():
		case fi.Mode().IsRegular():
			d.out = append(d.out, "extra: "+text.Path(p))
		default:
			d.out = append(d.out, "extra: "+text.Path(p)+" ("+kind(fi.Mode())+")")
		}
	}
	slices.Sort(d.out)
	return d.out, nil
}
