package outdir

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/ringreport/ringreport/internal/text"
)

// ErrLocked is the error (wrapped) of Lock while another build holds the
// lock.
var ErrLocked = errors.New("another ringreport build is writing it")

// LockFile is the lock of dir: a file beside it, .out.lock for out.
func LockFile(dir string) string {
	parent, base := filepath.Split(filepath.Clean(dir))
	return filepath.Join(parent, "."+base+".lock")
}

// Lock takes the lock of dir, which every build holds while it writes
// dir's temporary sibling and swaps it in, and returns the function that
// releases it. It does not wait: while another build holds the lock it
// fails with ErrLocked. The lock is held by the open lock file, so a
// build that is killed releases it as it dies; one that ends removes the
// lock file.
func Lock(dir string) (unlock func(), err error) {
	name := LockFile(dir)
	unlock, pid, err := lockFile(name)
	switch {
	case errors.Is(err, ErrLocked) && pid != "":
		return nil, fmt.Errorf("%s: %w (process %s holds %s); wait for it to finish, or choose another -o", text.Path(dir), err, pid, text.Path(name))
	case errors.Is(err, ErrLocked):
		return nil, fmt.Errorf("%s: %w (it holds %s); wait for it to finish, or choose another -o", text.Path(dir), err, text.Path(name))
	case err != nil:
		return nil, fmt.Errorf("cannot lock the output directory: %w", text.PathError(err))
	}
	return unlock, nil
}
