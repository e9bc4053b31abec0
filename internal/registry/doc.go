// Package registry is the one table of placement rules (Kinds) and what
// needs the whole table: looking a rule up by name, building its placer,
// and a spec's effective parameters.
package registry
