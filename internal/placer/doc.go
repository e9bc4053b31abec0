// Package placer is the contract between the placement rules and the
// simulator: the Placer interface and its optional extensions, Env,
// Delta, Arc and Point, RuleSpec, and the helpers every rule shares. How
// a rule describes itself to the rest of ringreport (its Kind and
// Params) is internal/rulekind.
package placer
