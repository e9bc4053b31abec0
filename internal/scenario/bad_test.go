package scenario

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/golden"
)

// dirReader reads keys files from dir through an os.Root, as the command
// does, so that a symlink out of dir is refused; errors are reduced to
// OS-independent ones so that golden messages are the same everywhere.
func dirReader(dir string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		data, err := root.ReadFile(filepath.FromSlash(rel))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fs.ErrNotExist
		case err != nil && strings.Contains(err.Error(), "path escapes from parent"):
			return nil, errors.New("path escapes from the scenario's directory")
		}
		return data, err
	}
}

// TestParseBad parses each testdata/bad/*.yaml and compares the error
// text with the golden .err file beside it.
func TestParseBad(t *testing.T) {
	files, err := filepath.Glob("testdata/bad/*.yaml")
	if err != nil || len(files) < 25 {
		t.Fatalf("found %d bad inputs (err %v); want at least 25", len(files), err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Parse(filepath.Base(file), src, Options{ReadFile: dirReader("testdata/bad")})
			if err == nil {
				t.Fatalf("Parse succeeded with %+v; want errors", s)
			}
			if s != nil {
				t.Errorf("Parse returned a scenario with its errors")
			}
			golden.Check(t, strings.TrimSuffix(file, ".yaml")+".err", []byte(err.Error()+"\n"))
		})
	}
}
