//go:build !amd64 || purego

package keys

const hasVector512 = false

func mixMaxVector(acc, ks *uint64, n int, seeds, tags *uint64, m int, keep uint64) {
	panic("unreachable")
}

func sumMixVector(acc *[mixMaxBlock]uint64, vs *uint64, n int, lanes *[mixMaxBlock]uint64, step uint64) {
	panic("unreachable")
}

func sumMixOfVector(acc *[mixMaxBlock]uint64, top *[8]uint64, table *uint64, last uint64, idx *uint16, n int, lanes *[mixMaxBlock]uint64, step uint64) {
	panic("unreachable")
}

func pickModVector(dst *uint16, pos *uint32, n int, table *uint32, m, d uint64) {
	panic("unreachable")
}

func mixAtLeast32Vector(mask *uint8, ks *uint32, hi *uint32, n int, seed uint64) {
	panic("unreachable")
}

func mixAtLeast64Vector(mask *uint8, ks *uint64, hi *uint32, n int, seed uint64) {
	panic("unreachable")
}

func selectBelowVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int {
	panic("unreachable")
}

func selectAtLeastVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int {
	panic("unreachable")
}
