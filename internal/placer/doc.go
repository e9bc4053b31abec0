// Package placer holds the placement rules: the contract every rule
// meets (Placer, Env, Arc, Point, Delta, RuleSpec), the rules themselves
// with their incremental fast paths, one file each, the product-profile
// adapter, and the registry (Kinds) that everything else reads a rule
// from.
package placer
