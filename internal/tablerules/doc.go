// Package tablerules holds the placement rules that place keys through a
// table or a formula rather than points: modulo, jump, rendezvous, maglev
// and Redis Cluster's slots, one file per rule with its fast path beside
// it. A rule's tests sit beside it and drive its placer through
// timeline states; internal/sim tests what needs a whole replay.
package tablerules
