// Package keys hashes keys and node names and builds the scenario's key
// set: the hash functions rules may name (HashNames), the canonical key
// order every rule reports in (KeySet), request weights, and the seeded
// random streams, all deterministic on every machine.
package keys
