// Package templates holds ringreport's default report templates, embedded
// in the binary. It is a package of its own because //go:embed cannot
// reach files outside the directory of the package that embeds them.
//
// report.md.tmpl renders one scenario's report.md from a report.Report
// (see internal/report): plain text fields are escaped with the esc
// function and numbers are formatted with count, pct and fixed, so the
// template decides the layout and the report package decides the content.
package templates

import "embed"

// FS holds every *.tmpl file of this directory, by base name.
//
//go:embed *.tmpl
var FS embed.FS
