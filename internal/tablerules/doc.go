// Package tablerules holds the placement rules that place keys through a
// table or a formula rather than points: modulo, jump, rendezvous, maglev
// and Redis Cluster's slots, one file per rule with its fast path beside
// it.
package tablerules
