//go:build !unix

package outdir

// lockFile does not lock where flock(2) does not exist: there two builds
// into the same directory at once are not told apart.
func lockFile(name string) (unlock func(), pid string, err error) {
	return func() {}, "", nil
}
