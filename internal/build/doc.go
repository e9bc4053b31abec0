// Package build is ringreport's one pipeline, which build, check and
// render all run. Its stages, in order:
//
//	parse   scenario.ParseStudy of every Input, and the output folder
//	        names checked against each other and the site's own files
//	replay  sim.Replay of each scenario; sweep.Execute of its sweep: and
//	        seeds: variants, beside the figures
//	model   report.Build: the report model, from the replay and figures
//	render  svg figures; data.json, steps.csv, transfers.csv and
//	        migrations.csv (internal/report); report.md, the pages and
//	        the gallery (internal/site)
//	emit    each scenario's files handed to the caller as soon as they are
//	        ready (Stream), then the gallery
//
// Stream and Build run every stage for a whole site, and BuildEach for
// several sites that differ only in the site stage's options (theme,
// inline budget, templates), from one replay; One runs only what one
// output of one scenario needs (the render command). Every stage draws
// goroutines from the one process-wide pool of internal/workers, whose
// size Options.Jobs sets; the output does not depend on it. The package
// reads and writes no files: the command hands it file contents and
// writes what it emits.
package build
