package outdir

import (
	"errors"
	"io/fs"
	"os"
)

// swapRename puts tmp in place of dir with two renames, where no atomic
// exchange exists: the old build is moved aside (to a name the next build
// cleans up), then tmp takes its place.
func swapRename(tmp, dir string) error {
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir)
		return err
	}
	return os.RemoveAll(old)
}
