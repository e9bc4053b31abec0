// Package sim replays cluster-membership changes over a fixed key set
// under several placement rules and measures, exactly, what each change
// costs each rule.
//
// The pipeline has three stages, all pure and deterministic:
//
//  1. timeline.NewTimeline resolves a Scenario's steps into the
//     membership after every step (random choices come from a PCG
//     generator seeded by the scenario), independent of any rule.
//  2. keys.NewKeySet generates or takes the keys and sorts them by their
//     default position (keys.Hash32); this canonical order is shared by
//     every rule, so per-key results line up across rules.
//  3. Replay runs each rule (a placer.Placer, built by
//     registry.NewPlacer) through the timeline: at every
//     step the rule assigns every key a preference list, and a tracker
//     compares it with the previous step's to count moved, needed and
//     ideal moves, replica changes, a fingerprint and exact recurrences
//     (checked through internal/undolog's logs of the owners each step
//     overwrote).
//
// What only figures draw from a Result (key positions on a wheel, arcs,
// notable members) is derived in internal/figdata, not here; the
// changed-key strips are counted here, where every moved key is seen,
// into internal/strips, which says what a cell is and how it is shaded.
// Transfers, who ships keys to whom, are kept bounded (Transfers): the
// largest pairs of a step, the sums of the rest and each node's keys
// received, and every pair only up to MaxKeptPairs in a replay.
//
// Counts are integers. Floating-point figures (Balance) are derived from
// them at the edge, for presentation. Nothing here reads files, the
// clock or a global random source.
package sim
