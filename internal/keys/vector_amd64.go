//go:build amd64 && !purego

package keys

import "golang.org/x/sys/cpu"

// hasVector512 is whether the assembly loops can run: VPMULLQ is AVX-512DQ,
// and cpu checks that the system saves the 512-bit registers.
var hasVector512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ

// mixMaxVector is MixMax for the first n keys, n a multiple of
// mixMaxBlock and m ≥ 1 seeds, keep being ^low (mixmax_amd64.s).
//
//go:noescape
func mixMaxVector(acc, ks *uint64, n int, seeds, tags *uint64, m int, keep uint64)

// sumMixVector adds to acc[l], for every lane l < 32, Mix64(vs[j] + the
// offset of j) over the j < n with j mod 32 = l: lanes[l] is lane l's
// first offset, and each advances by step, 32 terms' worth, a round. n
// is a multiple of mixMaxBlock (summix_amd64.s).
//
//go:noescape
func sumMixVector(acc *[mixMaxBlock]uint64, vs *uint64, n int, lanes *[mixMaxBlock]uint64, step uint64)

// sumMixOfVector is sumMixVector of the values table[idx[j]], each index
// clamped to last (len(table)−1) so that no load leaves the table; top
// receives the largest index seen in each lane, for the caller to check
// (summix_amd64.s).
//
//go:noescape
func sumMixOfVector(acc *[mixMaxBlock]uint64, top *[8]uint64, table *uint64, last uint64, idx *uint16, n int, lanes *[mixMaxBlock]uint64, step uint64)

// pickModVector is PickMod for the first n keys, n a multiple of
// mixMaxBlock, from the table widened to 32 bits, m and d being FastMod's
// (pickmod_amd64.s).
//
//go:noescape
func pickModVector(dst *uint16, pos *uint32, n int, table *uint32, m, d uint64)

// mixAtLeast32Vector and mixAtLeast64Vector are Keys64.AtLeast for the
// first n keys, n a multiple of mixMaxBlock, of 32-bit and 64-bit
// hashes (mixmax_amd64.s).
//
//go:noescape
func mixAtLeast32Vector(mask *uint8, ks *uint32, hi *uint32, n int, seed uint64)

//go:noescape
func mixAtLeast64Vector(mask *uint8, ks *uint64, hi *uint32, n int, seed uint64)

// selectBelowVector and selectAtLeastVector are SelectBelow and
// SelectAtLeast for the first n values, n a multiple of 16, idx holding
// the first sixteen indices; they return how many they wrote
// (select_amd64.s).
//
//go:noescape
func selectBelowVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int

//go:noescape
func selectAtLeastVector(at *uint32, v *uint32, n int, idx *[16]uint32, x uint32) int
