// Package safefs opens the files a build reads (scenarios, keys files,
// templates) and the files check compares, refusing anything but a
// regular file: a FIFO would block a read for ever, a device such as
// /dev/zero would never end, and opening some devices has effects of its
// own. Files are read up to a limit plus one byte, so that a caller can
// tell a file over its limit without reading all of it.
package safefs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ringreport/ringreport/internal/text"
)

// ErrNotRegular is the error (wrapped) for a file that is not a regular
// file.
var ErrNotRegular = errors.New("not a regular file")

// notRegular is the error for name, whose mode is m.
func notRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%s is %w (%s)", text.Path(name), ErrNotRegular, m.Type())
}

// Open opens the regular file name for reading, through root (so that
// neither ".." nor a symlink can lead out of it) or, when root is nil,
// from the operating system. The file is looked at before it is opened,
// so that nothing but a regular file is ever opened, and again once it
// is open (without blocking, as a FIFO put in its place would), so that
// a file swapped in between is refused too.
func Open(root *os.Root, name string) (*os.File, error) {
	stat, open := os.Stat, func(n string) (*os.File, error) { return os.OpenFile(n, os.O_RDONLY|nonblock, 0) }
	if root != nil {
		stat, open = root.Stat, func(n string) (*os.File, error) { return root.OpenFile(n, os.O_RDONLY|nonblock, 0) }
	}
	before, err := stat(name)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, notRegular(name, before.Mode())
	}
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	after, err := f.Stat()
	if err == nil && (!after.Mode().IsRegular() || !os.SameFile(before, after)) {
		err = notRegular(name, after.Mode())
		if after.Mode().IsRegular() {
			err = fmt.Errorf("%s changed while it was opened", text.Path(name))
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads at most limit+1 bytes of the regular file name, opened
// as Open opens it. It reads into a buffer of the file's size (as
// os.ReadFile does): io.ReadAll alone grows its buffer by doubling, and
// so copies and zeroes about twice the bytes of a big file, which was
// half of the CPU of building a 200 MB keys file.
func ReadFile(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := Open(root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		size = min(fi.Size(), limit+1)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead)) // room to read the end of the file without growing
	_, err = buf.ReadFrom(io.LimitReader(f, limit+1))
	return buf.Bytes(), err
}
