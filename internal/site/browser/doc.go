// Package browser holds no code: its test loads a built site in headless
// Chromium and checks what only a browser can tell — no console errors,
// every figure drawn at a non-zero size, every relative link and anchor
// resolving, and no page wider than a 600 px screen. It is a package of
// its own so that the chromedp dependency stays out of the other tests.
//
// The test builds the example scenarios into a temporary folder, or
// checks the folder that RINGREPORT_SITE names. It skips when Chromium is
// not installed, except when CI is set: there it fails, so that CI never
// silently skips it. CHROMIUM names the browser binary when it is not
// found on its own.
package browser
