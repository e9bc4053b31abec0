// Package peers benchmarks the Go placement libraries that answer one key
// at a time, on the workload of ringreport's internal/sim benchmarks:
// K keys "key-<i>", N nodes "node-<i>", 160 points per node where the
// library has points. Each benchmark reports ns/key, the cost of placing
// every key once, which is what one replay step of ringreport costs a
// program built on the library; bench/run.sh sets these beside
// ringreport's own ns/key per step and prints the ratios.
//
// Modulo's peer is github.com/bradfitz/gomemcache's ServerList, which
// picks server crc32(key) mod n; "modulo-xxhash" is no library but the
// loop a program writes for itself, xxhash64(key) mod n.
//
// Two rules have peers that place keys differently from ringreport:
//
//   - multiprobe: github.com/dgryski/go-mpchash follows the same paper
//     (Appleton & O'Reilly 2015) with one point per node and the same 21
//     probes, but derives them from two seeded 64-bit hashes of the key
//     (h1 + i·h2) where ringreport double-hashes one 32-bit position.
//   - bounded: github.com/buraksezer/consistent is consistent hashing with
//     bounded loads at the granularity of partitions: keys go to one of
//     7919 partitions by hash, and only the partitions are placed, in
//     partition-number order, each on the first node clockwise holding
//     fewer than ⌈1.25·partitions/n⌉ of them. ringreport's bounded rule
//     bounds the keys themselves, placed one at a time in position order
//     (Mirrokni et al.). The library's lookup is a partition table read;
//     its Add and Remove redistribute every partition, which
//     BenchmarkPeerSteps times apart.
//
// This is a separate module so that ringreport itself does not depend on
// the peers.
package peers
