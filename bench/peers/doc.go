// Package peers benchmarks the Go placement libraries that answer one key
// at a time, on the workload of ringreport's internal/sim benchmarks:
// K keys "key-<i>", N nodes "node-<i>", 160 points per node where the
// library has points. Each benchmark reports ns/key, the cost of placing
// every key once, which is what one replay step of ringreport costs a
// program built on the library; bench/run.sh sets these beside
// ringreport's own ns/key per step and prints the ratios.
//
// This is a separate module so that ringreport itself does not depend on
// the peers.
package peers
