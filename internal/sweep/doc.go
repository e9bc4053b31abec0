// Package sweep reruns a scenario many times: over the values of one
// parameter (a sweep: points per node, node count, maglev table size,
// bounded ε or replicas) and over consecutive seeds, and summarizes each
// metric across the seeds as a mean with its spread. It sits beside
// internal/sim, which replays one scenario, and above it:
//
//	sim.Scenario + Plan ──► Plan.Scenario (one variant per value and seed)
//	                    ──► sim.ReplayWith (in parallel, metrics only)
//	                    ──► Run ──► Result.Band (mean, min–max, 10–90 %)
//	                                and Theory
//
// The replays share what they can: one key set per seed for every value
// (no parameter changes the keys), hashed and sorted once under each
// hash the rules use, and one replay per seed of each rule
// the parameter does not change (ketama under a vnodes sweep); they skip
// the figures' data. Execute's result is exactly that of replaying every
// variant in full on its own.
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
