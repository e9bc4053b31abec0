// Package cost is the one cost model of a build: what replaying a
// scenario, rendering its figures and writing every output file will
// take, in time (Work, in key-steps), in peak memory and in bytes
// written, estimated from the scenario alone before anything runs.
//
// The parser (internal/scenario) compares an Estimate with its Limits
// and refuses a scenario over any of them, with the flag that raises it;
// the sweep (internal/sweep) and the command read nothing else. Every
// term errs high: it is an upper bound of what the build takes on the
// machine its constants were measured on, for any scenario of that
// shape, hostile ones included, and each constant names its
// measurement. TestEstimateGrid in cmd/ringreport builds a grid of
// adversarial shapes for real and checks the measured CPU time, peak and
// output against the estimate.
//
// One key-step is the unit of Work: the time of placing one key at one
// step under one rule, about 5 ns on the reference machine (a 2-core
// Xeon VM shared by several builds), where a step that passes over every
// key (modulo, maglev) takes 4–10 ns a key. The other terms are
// converted to it at their own measured cost. What each term counts, per
// rule, and by how much it errs on the shapes that stress it (estimated
// work at 5 ns a key-step over the CPU time the build took):
//
//   - the key set (KeySetWork, MD5KeySetWork): every key hashed under
//     the rule's hash and sorted: 1.05–2.4× (10⁷ keys, one state);
//   - the placements: a rule that passes over every key at a step
//     (not rulekind.Footprint.Local) pays every key at every state; a
//     Local one pays a pass over the keys (LocalPassKeys) and every key
//     its steps move (MovedKeyWork), bounded step by step by twice the
//     named nodes' share of the live weight when the rule's shares follow
//     the weights (sharesOf), else every key at every step: 2.1× when a
//     heavy node's failures move nearly every key;
//   - the recomputations of earlier placements that a recurrence check
//     may need (RecurWork, and the table built again; the key hashes are reused), at
//     every state after the first: any may be one. This term makes the
//     estimate of long replays over many keys 3–9× high when, as in most
//     scenarios, few recurrences need one, and 1.4–2.1× for hostile ones
//     that recompute at every state;
//   - the table: ring points built (PointWork) and merged at every
//     state (PointStateWork); maglev's and the profiles' tables filled
//     at every state (tableTries);
//   - rendezvous's ranking (RankPairs pairs a key-step, WeightedRankWork
//     a pair with weights, when every state may rank every key): 1.5×;
//   - every node at every state (NodeWork), every transfer pair
//     (NodePairWork) and, over more than sim.DenseTransferNodes nodes,
//     the moved keys of the sorting pair counter (MoveWork) for a rule
//     that is not Local, which counts every key: 6× for maglev over
//     1,000 nodes, whose steps move few;
//   - the figures of the steps shown in full (FigureWork, and ArcWork
//     an arc or PointDrawWork a point of a wheel drawn per pixel), a
//     byte of any file (ByteWork) and a scenario's fixed work
//     (ScenarioWork): 1.1–3.7× on builds that are mostly figures.
//
// Memory (replayMemory, renderMemory) counts the key set and every
// rule's working state with the collector's headroom (gcbound), a
// recomputation's new placer, the tables, the result's per-state data and
// the text files held whole, over Base; it errs by 1.3–3× on replays of
// 10⁶–10⁷ keys, 2.5–5× on small builds (Base and the sections), and up
// to 16× on rings whose points every state keeps (StepPoints) but which
// a failure does not change.
//
// Known low: jump renumbering its buckets at every step (removing a
// member other than the last) takes 30 ns a key and state over 10
// nodes, where its placements count 3 key-steps (15 ns); the rule's
// Footprint has no field for a per-step cost that grows with the nodes.
package cost
