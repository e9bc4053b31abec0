//go:build unix

package outdir

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive flock(2) on the file name, creating it, and
// writes the process id into it. When another process holds it, it
// returns ErrLocked and that process's id as the file says.
//
// A build that ends removes the lock file while it still holds the lock.
// Another build may have opened the file just before and take its lock
// just after, on a file no longer in the directory; so a lock only counts
// once the name is seen to still lead to the locked file, and otherwise
// lockFile tries again.
func lockFile(name string) (unlock func(), pid string, err error) {
	for range 100 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, "", err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			data, _ := io.ReadAll(io.LimitReader(f, 32))
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, string(bytes.TrimSpace(data)), ErrLocked
			}
			return nil, "", &os.PathError{Op: "flock", Path: name, Err: err}
		}
		held, err1 := f.Stat()
		named, err2 := os.Lstat(name)
		if err1 != nil || err2 != nil || !os.SameFile(held, named) {
			f.Close()
			continue
		}
		f.Truncate(0)
		f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		return func() {
			os.Remove(name)
			f.Close()
		}, "", nil
	}
	return nil, "", &os.PathError{Op: "lock", Path: name, Err: errors.New("the lock file keeps being replaced")}
}
