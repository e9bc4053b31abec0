// Package keys hashes keys and node names and builds the scenario's key
// set: the hash functions rules may name (HashNames), the canonical key
// order every rule reports in (KeySet), request weights, and the seeded
// random streams, all deterministic on every machine.
//
// It also holds the loops that rules and the tracker run over every key
// at every step: hashing keys against node seeds (MixMax,
// Keys64.AtLeast), summing hash terms (SumMix, SumMixOf), reducing hashes
// to table entries (PickMod) and picking out the few keys a step touches
// (SelectBelow, SelectAtLeast). On amd64 with AVX-512 (F and DQ, checked
// at start-up with golang.org/x/sys/cpu) they run eight or sixteen keys
// an instruction in assembly (*_amd64.s); elsewhere, or built with
// -tags purego, in Go. Both give the same integers, which the tests
// check against the Go definitions.
package keys
