package browser

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// colorScheme emulates the reader's light or dark setting
// (prefers-color-scheme).
func colorScheme(theme string) chromedp.Action[chromedp.Void] {
	p := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}}}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, p)
		return err
	})
}

// findChromium returns the browser binary, or "".
func findChromium() string {
	if c := os.Getenv("CHROMIUM"); c != "" {
		return c
	}
	for _, name := range []string{"/usr/lib/chromium/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// disabledFeatures are the Chromium features the test turns off:
// chromedp's two (Translate, BlinkGenPropertyTrees) and the omnibox
// popups that Chromium 156 keeps loaded in a renderer of their own for
// every window, even headless: that renderer and the browser kept about
// 15% of a core busy while the test ran, and 70% more with five tabs
// open (0.04 CPU-s in 5 s idle with them off, 4.0 with them on).
const disabledFeatures = "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup"

// browser starts headless Chromium for the test.
func browser(t *testing.T, bin string) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-features", disabledFeatures),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(900, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatalf("cannot start %s: %v", bin, err)
	}
	noteBrowserUI(t, ctx)
	return ctx
}

// noteBrowserUI says so when the browser runs pages of its own user
// interface (a Chromium that names the omnibox popups' features
// otherwise): they do not change what the test checks, but cost CPU.
func noteBrowserUI(t *testing.T, ctx context.Context) {
	r, err := cdp.Call(ctx, chromedp.FromContext(ctx).Browser, target.GetTargets, target.GetTargetsParams{})
	if err != nil {
		t.Logf("cannot list the browser's targets: %v", err)
		return
	}
	for _, ti := range r.TargetInfos {
		if ti.Type == "browser_ui" {
			t.Logf("the browser runs %s, which costs CPU: update disabledFeatures", ti.URL)
		}
	}
}

// tab opens a new tab of the browser that ctx (from browser) drives, for
// one subtest, in a minimised window; it closes when the subtest ends.
// A page that no one sees is never painted, so Chromium lays it out only
// when a check asks (every check reads layout, styles or a canvas, none
// a painted frame): that saves about a sixth of the test's CPU, and on
// both sites every inspection reads the same as in a visible tab.
func tab(t *testing.T, browser context.Context) context.Context {
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("cannot open a tab: %v", err)
	}
	if err := chromedp.Do(ctx, minimise); err != nil {
		t.Logf("the tab stays visible, and costs more CPU: cannot minimise its window: %v", err)
	}
	return ctx
}

// minimise minimises the window of the tab.
var minimise = chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
	w, err := cdp.Call(ctx, tg, cdpbrowser.GetWindowForTarget, cdpbrowser.GetWindowForTargetParams{})
	if err != nil {
		return err
	}
	state := &cdpbrowser.Bounds{WindowState: cdpbrowser.WindowStateMinimized}
	_, err = cdp.Call(ctx, tg, cdpbrowser.SetWindowBounds, cdpbrowser.SetWindowBoundsParams{WindowID: w.WindowID, Bounds: state})
	return err
})

// open loads page in the tab.
func open(t *testing.T, ctx context.Context, page string) {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: page}).String()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("cannot load %s: %v", page, err)
	}
}
