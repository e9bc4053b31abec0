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
// step under one rule. It was about 45 ns on the reference machine (a
// 2-core Xeon VM shared by several builds, load ≈ 20): a replay of 10⁶
// keys over 21 states under two rules (ring, modulo) took 2.1 s for 5·10⁷
// key-steps, and 100 seed replays of 10⁵ keys 2.7 s for 6·10⁷.
package cost
