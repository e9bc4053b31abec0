// Package ringrules holds the placement rules that put points on the
// 32-bit circle: ring, libketama, multiprobe and bounded, one file per
// rule with its incremental fast path beside it (<rule>_delta.go).
package ringrules
