//go:build linux

package outdir

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swap puts the directory tmp in place of dir. When dir exists the two
// are exchanged in one renameat2(RENAME_EXCHANGE) call, so at every
// instant dir is either the old or the new build; the old one, now at
// tmp, is then removed.
func swap(tmp, dir string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOENT) {
		return os.Rename(tmp, dir)
	}
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		return swapRename(tmp, dir)
	}
	if err != nil {
		return err
	}
	return os.RemoveAll(tmp)
}
