// Package sweep reruns a scenario many times: over the values of one
// parameter (a sweep: points per node, node count, maglev table size,
// bounded ε or replicas) and over consecutive seeds, and summarizes each
// metric across the seeds as a mean with its spread. It sits beside
// internal/sim, which replays one scenario, and above it:
//
//	sim.Scenario + Plan ──► Plan.Scenario (one variant per value and seed)
//	                    ──► sim.Replay (in parallel) ──► Run (metrics only)
//	                    ──► Result.Band (mean, min–max, 10–90 %) and Theory
//
// A variant differs from the scenario as written in the swept parameter's
// value and in its seed. Seed j (0-based) of a plan is the scenario's
// seed plus j (modulo 2^64), which draws other generated keys and other
// random choices (remove: random, fail: random). Ring points, maglev
// permutations and rendezvous scores come from node names, not from the
// seed, so seed j ≥ 1 also renames every node, consistently in the
// starting list and in the steps, to name~j (node-3 becomes node-3~1):
// a seed band then spans the luck of the keys, of the random choices and
// of the cluster's layout, which is what the theory averages over. Seed
// 0 is the scenario exactly as written; rules that place by join order
// alone (modulo, jump, slots) see only the keys change.
//
// The results are identical whatever the parallelism: every variant is
// replayed on its own and its metrics land in a fixed slot.
package sweep
