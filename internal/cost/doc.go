// Package cost is the one cost model of a build: what replaying a
// scenario, rendering its figures and writing every output file will
// take, in time (Work, in key-steps), in peak memory and in bytes
// written, estimated from the scenario alone before anything runs.
//
// The parser (internal/scenario) compares an Estimate with its Limits
// and refuses a scenario over any of them, with the flag that raises it;
// the sweep (internal/sweep) and the command read nothing else. Every
// term errs high: it is an upper bound of what the build takes on the
// machine its constants were measured on, and each constant names that
// measurement. TestEstimateGrid in cmd/ringreport builds a grid of
// adversarial shapes for real and checks the measured peak and output
// against the estimate.
//
// One key-step is the unit of Work: the time of placing one key at one
// step under one rule, about 5 ns on the reference machine (a 2-core
// Xeon VM shared by several builds), where a step that passes over every
// key (modulo, jump's renumbering) takes 1–5 ns a key and an incremental
// one less. The other terms are converted to it at their own measured
// cost: hashing and sorting a key set, building a ring point, filling a
// maglev table, a node at a step, a byte of output. On a loaded machine
// (load ≈ 20 on two cores) everything took about 3.4 times as long.
package cost
