// Package report renders a finished replay as a scenario's report files:
// report.md for people, data.json and steps.csv for scripts.
//
// The pipeline has three stages, each a pure function of the one before:
//
//  1. sim.Replay produces a *sim.Result: the membership timeline and, for
//     every rule and step, exact counts (moved, needed, ideal, loads,
//     fingerprints, recurrences, probes).
//  2. Build turns the result and its figures (svg.Figures) into a Report:
//     a plain-data model of everything report.md shows. Text fields are
//     unescaped plain text and numbers are unformatted; sentences such as
//     step headings ("remove d (random)") and the comparison of the rules
//     are composed here.
//  3. Markdown executes the report.md.tmpl template (package templates, or
//     Options.Templates) on the model. The template escapes every user
//     string with esc and formats every number with fixed functions (see
//     Funcs), so the Markdown is clean GitHub-flavoured Markdown that
//     goldmark can turn into HTML without raw HTML getting through.
//
// JSON and CSV read the result directly: their schema is documented in
// SCHEMA.md and is stable, because people script against it.
//
// Files runs all three renderers. Nothing here touches the file system or
// the clock, and no output depends on Go map iteration order: objects
// keyed by node names, rule labels or probe keys are written in join,
// scenario or probe order, and floats always have the same number of
// decimals. The same result therefore always renders to the same bytes.
package report
