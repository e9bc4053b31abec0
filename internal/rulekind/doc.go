// Package rulekind is how a placement rule describes itself to the rest
// of ringreport: its Kind (name, parameters, theory, footprint for the
// cost model, constructor), the Param types a scenario sets it with, and
// the Profile of a production product. Each rule declares its Kind beside
// its placer; internal/registry lists them.
package rulekind
