// Ringreport turns YAML scenarios of cluster membership changes into a
// static report site on data placement: for every scenario it replays the
// changes over a deterministic key set under several placement rules
// side by side (consistent-hash ring, modulo, jump, rendezvous, maglev,
// ...) and writes figures, a Markdown report, an HTML page and
// machine-readable data. The same input gives the same bytes on any
// machine.
//
// Usage:
//
//	ringreport <command> [flags] [path ...]
//
// # Build
//
// build (the default command) replays every scenario file given (files,
// or folders of *.yaml and *.yml files, in any case; hidden files and
// symlinks to nothing are skipped with a note; default scenarios/) and
// writes the site to -o (default out/):
//
//	$ ringreport
//	$ ringreport build -o site -j 4 scenarios/ring.yaml scenarios/replication.yaml
//
// The site holds index.html, a gallery of every scenario, and README.md,
// the same gallery for readers on a code host; and for each scenario a
// folder with index.html (a self-contained page: inline CSS and SVG, no
// scripts, works offline), report.md, data.json, steps.csv,
// transfers.csv (every from → to pair of moved keys, left out past 5
// MiB) and the figures as SVG files.
//
// The SVG files have an opaque background and one theme, -theme light
// (the default) or dark, so that they read the same pasted anywhere; or
// -theme auto, which follows the light or dark setting of whatever shows
// them. The pages inline the figures in the form that follows the page.
//
//	$ ringreport build -theme dark -o dark scenarios/ring.yaml
//
// Scenarios are replayed in parallel, -j at a time (default: one per
// CPU); the output does not depend on -j. A progress bar is drawn on
// standard error only when it is a terminal and CI is not set; NO_COLOR
// turns its colour off. When done, build prints one line on standard
// error, such as "wrote out/: 10 scenarios, 214 files, 8.6 s" (the time
// goes there only, never into a file); -q leaves it out. The site is
// written to a temporary folder and
// swapped into place, so a failed build leaves the previous site as it
// was; SIGINT or SIGTERM removes the temporary folder. A second build
// into the same folder while one runs is refused (the first holds an
// flock on .out.lock beside it). Build refuses to replace a non-empty
// folder that it did not write, unless given -force; even then it
// replaces only a directory, never a file, a device or a symlink.
//
// -templates DIR restyles the site without forking: DIR may hold any of
// page.html.tmpl (a scenario's page), index.html.tmpl (the gallery),
// style.css.tmpl (the CSS both inline), index.md.tmpl (README.md) and
// report.md.tmpl (report.md); files it lacks come from the built-in set
// (see package templates for the data each one gets).
//
//	$ ringreport build -templates brand/ -o branded
//
// # Check
//
// check builds the site and compares each file with -o, byte for byte,
// as its scenario finishes. When they differ it lists every changed, missing and extra file and
// exits with status 3: the gate that keeps a committed site current in
// CI.
//
//	$ ringreport check
//
// # Validate
//
// validate parses scenarios without replaying them and reports every
// problem of every file at once, as file:line:col: message.
//
//	$ ringreport validate scenarios/
//
// # Render
//
// render writes one figure or one data file of one scenario to standard
// output, for embedding in an article or a README: ring (or rings) and
// strips for one -step, history, balance, deviation and transfers for the
// whole run, migrations for a scenario with compare:, sweep-cv, sweep-worst-deviation and sweep-moved for a
// scenario with sweep: (exit status 1 without one), and report
// (Markdown), data (JSON, with the sweep and seed bands), csv, owners
// (every key's owners at -step n) and transfers-csv (every from → to pair
// of moved keys, at every step or at -step n: the file a build leaves
// out when it would pass 5 MiB). -rule keeps only the rule with that
// label. A figure is drawn alone, without the others; -theme picks its
// colours, as for build. rsvg-convert (Debian's librsvg2-bin) turns a
// figure into PNG:
// "ringreport render history scenarios/ring.yaml | rsvg-convert -z 2 -o history.png".
//
//	$ ringreport render ring --rule ring --step 3 scenarios/ring.yaml > ring.svg
//	$ ringreport render history scenarios/ring.yaml > history.svg
//	$ ringreport render sweep-cv scenarios/points-sweep.yaml > sweep-cv.svg
//	$ ringreport render data --rule modulo scenarios/ring.yaml > modulo.json
//	$ ringreport render transfers-csv -step 1 scenarios/ring.yaml > transfers-1.csv
//
// # Schema
//
// schema prints the JSON Schema (draft-07) of the scenario format, so
// that editors with a YAML language server complete and check scenario
// files. A copy is committed as schema.json at the repository root;
// point a scenario at it with a first line such as
// "# yaml-language-server: $schema=../schema.json".
//
//	$ ringreport schema > schema.json
//
// # Limits
//
// build, check, validate and render refuse a scenario that would take
// too long or too much memory, before replaying anything, with a message
// that names the limit and the flag that raises it: -max-file-size (4
// MiB), -max-keys-file-size (256 MiB), -max-keys (50,000,000),
// -max-nodes (10,000), -max-points (100,000 ring points on one node),
// -max-steps (10,000), -max-node-steps (2,000,000: distinct node names ×
// (steps + 1)), -max-work (4,000,000,000 key-steps of about 5 ns: the
// estimated time of the whole build, sweep and seeds included),
// -max-memory (2 GiB) and -max-output (1 GiB), the last three estimated
// per scenario by one cost model (internal/cost) that counts the replay,
// the figures and every file. Sizes take KiB, MiB and GiB; counts take
// 50_000_000 or 5e7.
//
//	$ ringreport validate -max-keys 100_000_000 -max-work 1e10 -max-memory 16GiB scenarios/
//
// The garbage collector lets the heap grow by half of what its last
// collection found live, and by at most 128 MiB or a quarter of it,
// whichever is more (internal/gcbound): a replay's heap is mostly
// pointer-free arrays, which a collection does not scan, so this bounds
// the peak by the replay's own state plus a constant at about 5% more
// time (10⁷ keys). GOGC or GOMEMLIMIT set in the environment replaces
// this policy with Go's own.
//
// Keys files are read through an os.Root on the scenario's folder, so
// they cannot name a file outside it, not even through a symlink; so are
// scenarios found in a folder, and -templates files. Only regular files
// are opened, by every command; check reports anything else in the
// output folder as a difference without opening it. Build never replaces
// the working directory, a scenarios folder it reads, or an ancestor of
// either, even with -force.
//
// # Version and help
//
//	$ ringreport version
//	$ ringreport help render
//
// # Exit status
//
//	0  success
//	1  an error in the input or the build: a scenario with errors, an
//	   unreadable file, a broken template, a -rule or -step that the
//	   scenario does not have, a sweep figure of a scenario without
//	   sweep:, or a failed expect: entry (build still
//	   writes the site, whose reports show the failure)
//	2  usage: an unknown command or flag, a bad flag value, a wrong
//	   number of arguments — anything wrong on the command line alone
//	3  check: the output folder is stale
//	130, 143  build: interrupted by SIGINT or SIGTERM (the previous site
//	   is left as it was)
package main
