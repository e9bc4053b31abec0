// Package ringrules holds the placement rules that put points on the
// 32-bit circle: ring, libketama, multiprobe and bounded, one file per
// rule with its incremental fast path beside it (<rule>_delta.go). A
// rule's tests sit beside it; internal/sim tests what needs a whole
// replay, and reads Ring, RingEntry, Ketama, KetamaCount, DefaultEpsilon
// and EpsScale for it.
package ringrules
