package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/safefs"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/site"
	"github.com/ringreport/ringreport/internal/text"
)

// templateNames are the files -templates may hold; others are ignored.
var templateNames = []string{site.PageTemplate, site.GalleryTemplate, site.StyleTemplate, site.ReadmeTemplate, report.MarkdownTemplate}

// loadTemplates reads the templates of -templates dir up front, as
// scenarios are read: through an os.Root on dir (no symlink leads out of
// it), regular files only, each no larger than -max-file-size. It
// returns them as a file system in memory, so the build opens no file of
// dir after this.
func loadTemplates(dir string, lim scenario.Limits) (fs.FS, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("-templates: %w", text.PathError(err))
	}
	defer root.Close()
	limit := fileBytes(lim)
	m := memFS{}
	for _, n := range templateNames {
		file := filepath.Join(dir, n)
		data, err := safefs.ReadFile(root, n, limit)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // the built-in one
		case err != nil:
			return nil, fmt.Errorf("-templates: cannot read %s: %w", text.Path(file), text.PathError(err))
		case int64(len(data)) > limit:
			return nil, fmt.Errorf("-templates: %s is larger than the limit of %s; raise it with -max-file-size", text.Path(file), scenario.Bytes(limit))
		}
		m[n] = data
	}
	return m, nil
}

// memFS is a flat file system in memory: names to contents.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	data, ok := m[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return &memFile{memInfo{name, int64(len(data))}, bytes.NewReader(data)}, nil
}

type memFile struct {
	info memInfo
	*bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
