// Package figdata derives from a finished sim.Result what only the
// figures and the report's shortened tables need: where each key sits on
// a rule's wheel, which keys moved, the arcs a point rule's points give,
// and the notable members of a large cluster. The measurement engine
// (internal/sim) keeps none of it.
package figdata
