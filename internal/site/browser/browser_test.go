package browser

import (
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/outdir"
)

// pageInfo is what the script in inspect reports about a page.
type pageInfo struct {
	IDs      []string
	Links    []string // resolved href of every <a>
	Figures  []figure
	Images   []image
	Overflow bool // the page is wider than the viewport
	Title    string
}

type figure struct {
	ID   string
	W, H float64
}

type image struct {
	Src string
	OK  bool
}

// inspect collects pageInfo in the page. Lazily loaded figures are made
// eager first and awaited, so that every image is checked, not only those
// in the first screenful.
const inspect = `(async () => {
  const r = (e) => e.getBoundingClientRect();
  for (const i of document.images) i.loading = 'eager';
  await Promise.all([...document.images].map(i => i.decode().catch(() => {})));
  return {
    IDs: [...document.querySelectorAll('[id]')].map(e => e.id),
    Links: [...document.querySelectorAll('a[href]')].map(a => a.href),
    Figures: [...document.querySelectorAll('figure')].map(f => {
      const s = f.querySelector('svg, img');
      return {ID: f.id || '', W: s ? r(s).width : 0, H: s ? r(s).height : 0};
    }),
    Images: [...document.images].map(i => ({Src: i.src, OK: i.complete && i.naturalWidth > 0})),
    Overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
    Title: document.title,
  };
})()`

func TestSiteInBrowser(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but no Chromium was found (install chromium, or set CHROMIUM)")
		}
		t.Skip("no Chromium found; install chromium or set CHROMIUM to run this test")
	}
	if testing.Short() && os.Getenv("RINGREPORT_SITE") == "" {
		t.Skip("builds the examples twice and loads every page in Chromium; .ci/run runs it in full")
	}
	// Each subtest has its own browser and site, so they run side by
	// side: one mostly waits on Chromium while the other builds.
	t.Run("inline", func(t *testing.T) { t.Parallel(); checkSite(t, bin, siteDir(t)) })
	// Every example page is far under the inline budget; a budget of one
	// byte makes every page link its step figures, so that path is
	// checked in a browser too.
	t.Run("linked", func(t *testing.T) { t.Parallel(); checkSite(t, bin, buildSite(t, 1)) })
}

// checkSite loads every page of the site in dir at two screen widths and
// checks its figures, images, links and console.
func checkSite(t *testing.T, bin, dir string) {
	pages, _ := filepath.Glob(filepath.Join(dir, "*", "index.html"))
	pages = append([]string{filepath.Join(dir, "index.html")}, pages...)

	ctx := browser(t, bin)
	var mu sync.Mutex
	var console []string
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() || m.Type == chromedp.ConsoleWarning {
				mu.Lock()
				console = append(console, m.String()+" at "+m.URL)
				mu.Unlock()
			}
		}
	}()
	infos := map[string]*pageInfo{}
	for _, width := range []int64{900, 600} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 1000)); err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			info := load(t, ctx, p)
			infos[p] = info
			rel, _ := filepath.Rel(dir, p)
			if info.Overflow {
				t.Errorf("%s is wider than a %d px screen", rel, width)
			}
		}
	}
	for _, p := range pages {
		checkPage(t, dir, p, infos)
	}
	time.Sleep(200 * time.Millisecond) // let the last console events arrive
	mu.Lock()
	defer mu.Unlock()
	for _, m := range console {
		t.Errorf("console: %s", m)
	}
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

// siteDir returns RINGREPORT_SITE, or a fresh build of the examples.
func siteDir(t *testing.T) string {
	if d := os.Getenv("RINGREPORT_SITE"); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			t.Fatal(err)
		}
		return abs
	}
	return buildSite(t, 0)
}

// buildSite builds the examples with the given inline budget (0: the
// default) into a temporary directory and returns it.
func buildSite(t *testing.T, budget int) string {
	files, _ := filepath.Glob("../../../scenarios/*.yaml")
	var ins []build.Input
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, build.Input{Path: f, Src: src})
	}
	built, err := build.Build(ins, build.Options{InlineBudget: budget})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	var fs []outdir.File
	for _, b := range built {
		fs = append(fs, outdir.File(b))
	}
	if err := outdir.Write(out, fs, false); err != nil {
		t.Fatal(err)
	}
	return out
}

// browser starts headless Chromium for the test.
func browser(t *testing.T, bin string) context.Context {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true), chromedp.WindowSize(900, 1000))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelA() })
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatalf("cannot start %s: %v", bin, err)
	}
	return ctx
}

// load opens page and inspects it.
func load(t *testing.T, ctx context.Context, page string) *pageInfo {
	t.Helper()
	u := (&url.URL{Scheme: "file", Path: page}).String()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("cannot load %s: %v", page, err)
	}
	info, err := chromedp.Run(tctx, chromedp.Evaluate[*pageInfo](inspect, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("cannot inspect %s: %v", page, err)
	}
	return info
}

// checkPage checks page's figures, images and links.
func checkPage(t *testing.T, dir, page string, infos map[string]*pageInfo) {
	info := infos[page]
	rel, _ := filepath.Rel(dir, page)
	if info.Title == "" {
		t.Errorf("%s has no title", rel)
	}
	for _, f := range info.Figures {
		if f.W < 50 || f.H < 50 {
			t.Errorf("%s: figure %q is drawn at %.0f×%.0f px", rel, f.ID, f.W, f.H)
		}
	}
	for _, im := range info.Images {
		if !im.OK {
			t.Errorf("%s: image %s did not load", rel, im.Src)
		}
	}
	if rel != "index.html" {
		checkEveryFigure(t, page, rel, info)
	} else if len(info.Figures) != len(infos)-1 {
		t.Errorf("index.html shows %d thumbnails for %d scenarios", len(info.Figures), len(infos)-1)
	}
	for _, l := range info.Links {
		checkLink(t, dir, rel, l, infos)
	}
}

// checkEveryFigure checks that every SVG file of a scenario is on its
// page, inline or as an image.
func checkEveryFigure(t *testing.T, page, rel string, info *pageInfo) {
	svgs, _ := filepath.Glob(filepath.Join(filepath.Dir(page), "*.svg"))
	for _, s := range svgs {
		id := "fig-" + strings.TrimSuffix(filepath.Base(s), ".svg")
		if !slices.ContainsFunc(info.Figures, func(f figure) bool { return f.ID == id }) {
			t.Errorf("%s: no figure %s for %s", rel, id, filepath.Base(s))
		}
	}
}

// checkLink checks that a link points at an existing file inside the
// site and, with a fragment, at an existing id.
func checkLink(t *testing.T, dir, rel, link string, infos map[string]*pageInfo) {
	u, err := url.Parse(link)
	if err != nil || u.Scheme != "file" {
		t.Errorf("%s: link %q is not a relative link within the site", rel, link)
		return
	}
	target := filepath.FromSlash(u.Path)
	if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
		t.Errorf("%s: link %q leaves the site", rel, link)
		return
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("%s: link %q: %v", rel, link, err)
		return
	}
	if u.Fragment == "" {
		return
	}
	ti, ok := infos[target]
	if !ok || !slices.Contains(ti.IDs, u.Fragment) {
		t.Errorf("%s: link %q: no id %q there", rel, link, u.Fragment)
	}
}
