//go:build unix

package safefs

import "syscall"

// nonblock opens without blocking, as opening a FIFO with no writer
// would; it does not change how a regular file reads.
const nonblock = syscall.O_NONBLOCK
