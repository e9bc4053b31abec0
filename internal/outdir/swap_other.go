//go:build !linux

package outdir

func swap(tmp, dir string) error { return swapRename(tmp, dir) }
