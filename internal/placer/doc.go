// Package placer is the contract between the placement rules and the
// simulator: the Placer interface and its optional extensions, Env,
// Delta, Arc and Point, RuleSpec, and the Kind and Param types a rule
// describes itself with, with the helpers every rule shares.
package placer
