//go:build !unix

package safefs

const nonblock = 0
