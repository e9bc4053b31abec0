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
	case errors.Is(err, ErrLocked):
		holder := "it holds " + text.Path(name)
		if pid != "" && digits(pid) {
			holder = "process " + pid + " holds " + text.Path(name)
		}
		return nil, fmt.Errorf("cannot write %s: %w (%s); wait for it to finish, or choose another -o", text.Path(dir), err, holder)
	case err != nil:
		return nil, fmt.Errorf("cannot lock the output directory: %w", text.PathError(err))
	}
	return unlock, nil
}
