//go:build linux

package main

import (
	"os"
	"syscall"
)

// tmpfsMagic is Linux's TMPFS_MAGIC, the f_type statfs gives a tmpfs.
const tmpfsMagic = 0x01021994

// tmpfsRoom is the space a tmpfs must have free to hold the tests'
// folders at once: the hostile 200 MB keys file beside the grid's
// largest outputs, with room to spare.
const tmpfsRoom = 4 << 30

// useTmpfs points TMPDIR, when it is not set, at /dev/shm if that is a
// tmpfs with tmpfsRoom free, so that the folders of the process tests
// (t.TempDir and the scripts' work folders) live in memory. The builds
// they run create, sync and remove tens of thousands of files; on ext4,
// allocating and freeing their inodes was a fifth of the package's CPU
// (18.0 CPU-s with /tmp on ext4, 14.3-14.5 on tmpfs, in two runs each;
// by hand, a build of TestEstimateGrid's steps shape spent 0.6 s in the
// kernel on ext4 and 0.2 on tmpfs, for the same 0.75 s of its own).
// Nothing the tests check depends on the file system beyond what tmpfs
// has (rename exchange, flock, FIFOs, symlinks), and many machines keep
// /tmp on a tmpfs anyway; set TMPDIR to run them on another.
func useTmpfs() {
	if os.Getenv("TMPDIR") != "" {
		return
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err != nil || st.Type != tmpfsMagic || st.Bavail*uint64(st.Bsize) < tmpfsRoom {
		return
	}
	if syscall.Access("/dev/shm", 2|1) != nil { // W_OK|X_OK: a folder can be made in it
		return
	}
	os.Setenv("TMPDIR", "/dev/shm")
}
