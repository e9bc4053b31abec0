// Package productrules adapts the production profiles (internal/profile/…)
// to placement rules: one generic placer for any profile.Rule
// (adapter.go) and one file per product declaring its parameters and its
// registry entry (rule_<product>.go).
package productrules
