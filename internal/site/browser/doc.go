// Package browser holds no code: its test loads a built site in headless
// Chromium at 1280 and 400 px and checks what only a browser can tell —
// no console errors, every figure drawn at a non-zero size, every
// relative link and anchor resolving, no page wider than the screen, no
// table wider than its box unless the box scrolls to all of it, a sticky
// first column that leaves room for the others, every table's first
// number in view without scrolling (with every step section opened), no
// figure title cut with "…", and no figure text of a report page drawn
// under 9 CSS px at either width. Pages are inspected in the light colour
// scheme: a check of each page's style sheets (schemeProof) shows that
// every rule that follows prefers-color-scheme changes colours and
// nothing else, so that the dark page lays out as the light one, and
// fails the page otherwise. It also checks every figure file, of the
// site's theme and of a dark build, as a reader who embeds it as an
// image sees it, without drawing it: laid out in a shadow root of its
// own, the file is shown to draw there what an image of it draws (its
// rules apply alike in both: sameInImage), to draw the same in the light
// and the dark scheme (nothing in it can follow the reader's: fixedScheme;
// that is what comparing its pixels in both schemes showed), and to let
// the page show through no pixel (a whole number of px, covered by one
// opaque rectangle nothing fades or clips: coverProof); and every text
// keeps 4.5:1 contrast against the shapes it is drawn on, in each scheme
// the file is read in. The proofs are sufficient conditions of our
// choosing, so a pixel anchor checks them against Chromium's own
// drawing: of each build, the largest file of each kind of figure (the
// families of file names, numbers written N: step-N-rings.svg,
// balance.svg, …, read from the site) is drawn as an image into a canvas
// in the light and the dark scheme, and must have every pixel opaque and
// the same in both, and the proofs must have said so (where they and the
// pixels disagree, either way, both are reported). A subtest checks that
// each of these checks fails on a file of testdata/embed made to break
// it, drawing every one of those files too (each that breaks the opacity
// or the scheme sameness of its image must fail its pixels), and that
// schemeProof fails each page of testdata/scheme whose dark rules could
// move something. It is a package of its own so that the chromedp
// dependency stays out of the other tests.
//
// The test builds the example scenarios into a temporary folder, or
// checks the folder that RINGREPORT_SITE names (.ci/run names out/, after
// ringreport check has found it to be what the examples build), and
// builds the examples again with a one-byte inline budget and dark
// figure files (the pages that link their figures, and the dark files).
// Its subtests run side by side in tabs of one browser, in minimised
// windows (nothing is painted that no check reads), with the browser's
// own omnibox pages turned off (they kept a core busy), and each site is
// built once. Each page is loaded once, at the width the page before it
// was left at, and inspected at both widths. The figure files of both
// builds are served from 127.0.0.1 to one blank page: each scenario's
// files come in one request, are parsed into shadow roots of their own,
// and are read in the dark scheme too, without a reload, when they follow
// the reader's; a file of the dark build that differs from the site's
// only in its style sheet (all of them: the theme is its colours) is
// checked as the site's file with its style element replaced, without
// parsing the rest again. No file of one build is byte for byte one of
// the other, so none is checked twice. The pixel anchor's files, of both
// builds, come last, in one request, and are loaded as images from their
// own bytes and drawn into one canvas in each scheme. Only small results
// cross from the browser to Go. Under -short it runs only with
// RINGREPORT_SITE, which is how .ci/run runs it. It skips when Chromium
// is not installed, except when CI is set: there it fails, so that CI
// never silently skips it. CHROMIUM names the browser binary when it is
// not found on its own.
package browser
