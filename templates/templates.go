// Package templates holds ringreport's default templates, embedded in the
// binary. It is a package of its own because //go:embed cannot reach files
// outside the directory of the package that embeds them.
//
//   - report.md.tmpl renders one scenario's report.md from a report.Report
//     (see internal/report): plain text fields are escaped with the esc
//     function and numbers are formatted with count, pct and fixed, so the
//     template decides the layout and the report package the content.
//   - page.html.tmpl renders one scenario's index.html from a site.Page:
//     the report's Markdown as HTML, figures inlined, with a table of
//     contents and links to the neighbouring scenarios.
//   - index.html.tmpl renders the site's index.html, a gallery of every
//     scenario, from a site.Gallery; index.md.tmpl renders the same
//     gallery as the site's README.md.
//   - style.css.tmpl is the CSS both HTML pages inline (light, dark and
//     print).
//
// `ringreport build -templates DIR` reads any of these files from DIR
// instead, and the embedded ones for the files DIR lacks.
package templates

import "embed"

// FS holds every *.tmpl file of this directory, by base name.
//
//go:embed *.tmpl
var FS embed.FS
