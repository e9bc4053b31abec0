// Package figdata derives from a finished sim.Result what only the
// figures and the report's shortened tables need: where each key sits on
// a rule's wheel, which keys moved, the arcs a point rule's points give,
// the notable members of a large cluster, and the steps of a long run
// that the report shows in full (ShownSteps). The measurement engine
// (internal/sim) keeps none of it.
package figdata
