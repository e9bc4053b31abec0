package browser

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/outdir"
	"github.com/ringreport/ringreport/internal/svg"
)

// pageInfo is what the script in inspect reports about a page.
type pageInfo struct {
	IDs      []string
	Links    []string // resolved href of every <a>
	Figures  []figure
	Images   []image
	Overflow bool // the page is wider than the viewport
	Title    string
	Layout   []string // what layoutCheck found wrong
	Text     []figText
	Scheme   []string // what schemeProof found, when asked
}

// figText is the smallest text of one figure as the page draws it: the
// inline SVG's smallest rendered font size, or for an <img> the width it
// is drawn at and its natural width (checkTextSize reads its file).
type figText struct {
	ID    string
	Px    float64 // smallest rendered font size of an inline SVG, CSS px
	What  string  // that text
	Src   string  // an <img>'s file
	W, NW float64 // an <img>'s drawn and natural width
}

type figure struct {
	ID   string
	W, H float64
}

type image struct {
	Src string
	OK  bool
}

// inspect collects pageInfo in the page, and with proof runs
// schemeProof. Lazily loaded figures are made eager first and their load
// awaited, so that every image is checked, not only those in the first
// screenful. (Not their decode(): that draws each image, and costs twice
// its load.)
const inspect = `(async (proof) => {
  const r = (e) => e.getBoundingClientRect();
  for (const i of document.images) i.loading = 'eager';
  await Promise.all([...document.images].map(i => i.complete || new Promise(ok => { i.onload = i.onerror = ok; })));
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
    Layout: (` + layoutCheck + `)(),
    Text: (` + textSizes + `)(),
    Scheme: proof ? (` + schemeProof + `)() : null,
  };
})`

// textSizes measures, for every figure of the report (figure.fig: the
// gallery's thumbnails are links, not figures to read), its smallest text
// as drawn: each <text> and <tspan>'s computed font size times the scale
// its screen transform gives it. An <img>'s text cannot be reached from
// the page, so it reports the image's drawn and natural width instead.
const textSizes = `() => {
  const out = [];
  for (const f of document.querySelectorAll('figure.fig')) {
    const s = f.querySelector('svg'), im = f.querySelector('img');
    if (im) { out.push({ID: f.id, Src: im.src, W: im.getBoundingClientRect().width, NW: im.naturalWidth}); continue; }
    if (!s) continue;
    let px = Infinity, what = '';
    for (const e of s.querySelectorAll('text, tspan')) {
      if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
      const m = e.getScreenCTM();
      if (!m) continue;
      const v = parseFloat(getComputedStyle(e).fontSize) * Math.hypot(m.a, m.b);
      if (v < px) { px = v; what = e.textContent.trim(); }
    }
    if (px < Infinity) out.push({ID: f.id, Px: px, What: what});
  }
  return out;
}`

// minTextPx is the smallest font size, in CSS px, that a figure of a
// report page may draw its text at, at every screen width.
const minTextPx = 9

// layoutCheck opens every folded step (once: the second width finds them
// open, and sets nothing that would lay the page out again) and lists what is wrong with the
// page's layout at the current width:
//   - a table wider than its box, unless the box is a scroll container
//     that reaches all of it, or a box that reaches past the report's
//     column or the screen;
//   - a sticky first column that takes more than 60% of its box, so that
//     the other columns cannot be scrolled into view;
//   - a table whose first row does not show its first number after the
//     first column without scrolling (on a phone, a table that shows
//     labels only, as the step tables did before they wrapped);
//   - a figure title (the SVG's <title>, its drawn title and subtitle, or
//     an <img>'s alt text) cut with "…".
const layoutCheck = `() => {
  const bad = [];
  const r = (e) => e.getBoundingClientRect();
  for (const d of document.querySelectorAll('details')) if (!d.open) d.open = true;
  const where = (e) => {
    const h = e.closest('details.step')?.querySelector('h2');
    return h ? '#' + h.id : 'table ' + [...document.querySelectorAll('table')].indexOf(e);
  };
  const main = document.querySelector('main');
  const right = Math.min(window.innerWidth, main ? r(main).right : Infinity);
  for (const t of document.querySelectorAll('table')) {
    const box = t.parentElement, tr = r(t), br = r(box);
    const scrolls = box.classList.contains('scroll') && ['auto', 'scroll'].includes(getComputedStyle(box).overflowX);
    if (br.right > right + 1) bad.push(where(t) + ': its box reaches ' + Math.round(br.right) + ' px, past the report (' + Math.round(right) + ' px)');
    if (tr.width > br.width + 1 && !(scrolls && box.scrollWidth + 1 >= tr.width)) {
      bad.push(where(t) + ': a ' + Math.round(tr.width) + ' px table in a ' + Math.round(br.width) + ' px box that does not scroll to it');
    }
    const row = t.querySelector('tbody tr');
    if (row && row.cells.length > 1 && r(row.cells[0]).width > 0.6 * box.clientWidth) {
      bad.push(where(t) + ': its first column takes ' + Math.round(r(row.cells[0]).width) + ' of ' + box.clientWidth + ' px');
    }
  }
  for (const t of document.querySelectorAll('table')) {
    const row = t.querySelector('tbody tr');
    const cell = row && [...row.cells].slice(1).find(c => (c.getAttribute('style') || '').includes('right'));
    if (!cell) continue;
    const b = r(t.parentElement), c = r(cell);
    if (c.left < b.left - 1 || c.right > b.right + 1) {
      bad.push(where(t) + ': its first number (' + cell.textContent + ') is out of view, at ' + Math.round(c.left) + '–' + Math.round(c.right) + ' px of a box at ' + Math.round(b.left) + '–' + Math.round(b.right));
    }
  }
  for (const e of document.querySelectorAll('svg > title, svg text.title, svg text.sub, figure img')) {
    const s = e.tagName === 'IMG' ? e.alt : e.textContent;
    if (s.includes('…')) bad.push('figure title "' + s + '" is cut');
  }
  return bad;
}`

func TestSiteInBrowser(t *testing.T) {
	bin := findChromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but no Chromium was found (install chromium, or set CHROMIUM)")
		}
		t.Skip("no Chromium found; install chromium or set CHROMIUM to run this test")
	}
	if testing.Short() && os.Getenv("RINGREPORT_SITE") == "" {
		t.Skip("builds the examples and loads every page in Chromium; .ci/run runs it in full, on out/")
	}
	// One browser, a tab per subtest; the sites are built once, by the
	// first subtest that needs one, while the others already load pages.
	// Every example page is far under the inline budget; a budget of one
	// byte makes every page link its step figures, so that path is
	// checked in a browser too. The same build has dark figure files: a
	// linking page shows its own form of them (page/), which follows the
	// page whatever the theme, so one build serves both checks.
	ctx := browser(t, bin)
	site, other := sitesOnce(t, build.Options{InlineBudget: 1, Theme: svg.Dark})
	t.Run("inline", func(t *testing.T) { t.Parallel(); checkSite(t, tab(t, ctx), site(t)) })
	t.Run("linked", func(t *testing.T) { t.Parallel(); checkSite(t, tab(t, ctx), other(t)) })
	// Every figure file, of out/'s theme and of a dark build, as an <img>
	// of it shows in a light and a dark page, and its text's contrast.
	t.Run("embedded", func(t *testing.T) { t.Parallel(); checkEmbedded(t, tab(t, ctx), site(t), other(t)) })
	// Each check of the embedded figures, on files made to break it, and
	// schemeProof on pages made to break it.
	t.Run("catches", func(t *testing.T) {
		t.Parallel()
		ctx := tab(t, ctx)
		checkCatches(t, ctx)
		checkSchemeCatches(t, ctx)
	})
}

// checkSite loads every page of the site in dir at two screen widths and
// checks its figures, images, links and console.
func checkSite(t *testing.T, ctx context.Context, dir string) {
	pages, _ := filepath.Glob(filepath.Join(dir, "*", "index.html"))
	pages = append([]string{filepath.Join(dir, "index.html")}, pages...)

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
	// Each page is loaded once and inspected at both widths, in the
	// light scheme: the pages run no script, so a page resized lays out as
	// one loaded at that width, and schemeProof shows that its dark
	// layout is its light one. Every other page is inspected at 400 px
	// first, so that each loads at the width the page before it was left
	// at: no layout is made that no check reads.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1000), colorScheme("light")); err != nil {
		t.Fatal(err)
	}
	infos := map[string]*pageInfo{}
	for i, p := range pages {
		rel, _ := filepath.Rel(dir, p)
		open(t, ctx, p)
		widths := []int64{1280, 400}
		if i%2 == 1 {
			widths = []int64{400, 1280}
		}
		infos[p] = checkWidths(t, ctx, p, rel, widths)
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

// checkWidths inspects the page open in the tab at each of widths, in
// that order (the tab is at the first already), checks its layout and
// text sizes at each and, once, schemeProof; it returns the last
// inspection.
func checkWidths(t *testing.T, ctx context.Context, page, rel string, widths []int64) *pageInfo {
	var info *pageInfo
	for j, width := range widths {
		if j > 0 {
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 1000)); err != nil {
				t.Fatal(err)
			}
		}
		info = inspectPage(t, ctx, page, j == 0)
		for _, b := range info.Scheme {
			t.Errorf("%s may lay out differently in the dark scheme, which no inspection reads: %s", rel, b)
		}
		if info.Overflow {
			t.Errorf("%s is wider than a %d px screen", rel, width)
		}
		for _, b := range info.Layout {
			t.Errorf("%s at %d px: %s", rel, width, b)
		}
		checkTextSize(t, fmt.Sprintf("%s at %d px", rel, width), info.Text)
	}
	return info
}

// checkTextSize fails every figure whose smallest text is drawn under
// minTextPx; an <img>'s smallest font size is read from its file.
func checkTextSize(t *testing.T, where string, figs []figText) {
	t.Helper()
	for _, f := range figs {
		px, what := f.Px, f.What
		if f.Src != "" {
			u, err := url.Parse(f.Src)
			if err != nil || f.NW == 0 {
				t.Errorf("%s: figure %s: image %s has no natural width", where, f.ID, f.Src)
				continue
			}
			size, err := smallestFont(filepath.FromSlash(u.Path))
			if err != nil {
				t.Errorf("%s: figure %s: %v", where, f.ID, err)
				continue
			}
			px, what = size*f.W/f.NW, "its smallest font size"
		}
		if px < minTextPx-0.01 {
			t.Errorf("%s: figure %s draws text at %.1f px, under %d px (%q)", where, f.ID, px, minTextPx, what)
		}
	}
}

// fontSize matches a font-size attribute.
var fontSize = regexp.MustCompile(`font-size="([0-9.]+)"`)

// smallestFont returns the smallest font-size attribute of an SVG file.
func smallestFont(path string) (float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	least := math.Inf(1)
	for _, m := range fontSize.FindAllSubmatch(b, -1) {
		if v, err := strconv.ParseFloat(string(m[1]), 64); err == nil {
			least = min(least, v)
		}
	}
	if math.IsInf(least, 1) {
		return 0, fmt.Errorf("%s has no font-size", path)
	}
	return least, nil
}

// sitesOnce returns the two sites the test checks: RINGREPORT_SITE, or
// the examples built with the default options, and the examples built
// with opts. Each function builds its site the first time it is called
// (buildOnce) and returns its folder every time; without RINGREPORT_SITE
// the two sites come from one build (build.BuildEach), which replays the
// examples once for both.
func sitesOnce(parent *testing.T, opts build.Options) (site, other func(*testing.T) string) {
	if d := os.Getenv("RINGREPORT_SITE"); d != "" {
		abs, err := filepath.Abs(d)
		if err != nil {
			parent.Fatal(err)
		}
		return func(*testing.T) string { return abs }, buildOnce(parent, opts)[0]
	}
	both := buildOnce(parent, build.Options{}, opts)
	return both[0], both[1]
}

// buildOnce returns, for each of opts, a function that builds the
// examples with every one of opts (build.BuildEach), each into a temporary
// folder of parent, the first time one of them is called, and returns
// its folder every time: the subtests that read one site share one
// build, which lasts until parent ends.
func buildOnce(parent *testing.T, opts ...build.Options) []func(*testing.T) string {
	outs := make([]string, len(opts))
	for k := range outs {
		outs[k] = filepath.Join(parent.TempDir(), "out")
	}
	done := sync.OnceValue(func() error { return buildInto(outs, opts) })
	fs := make([]func(*testing.T) string, len(opts))
	for k := range fs {
		fs[k] = func(t *testing.T) string {
			if err := done(); err != nil {
				t.Fatalf("building the examples: %v", err)
			}
			return outs[k]
		}
	}
	return fs
}

// buildInto builds the examples with each of opts into the folder of
// outs at its index, from one replay.
func buildInto(outs []string, opts []build.Options) error {
	files, _ := filepath.Glob("../../../scenarios/*.yaml")
	var ins []build.Input
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		ins = append(ins, build.Input{Path: f, Src: src})
	}
	sites, err := build.BuildEach(ins, opts...)
	if err != nil {
		return err
	}
	for k, built := range sites {
		fs := make([]outdir.File, len(built))
		for i, b := range built {
			fs[i] = outdir.File(b)
		}
		if err := outdir.Write(outs[k], fs, false); err != nil {
			return err
		}
	}
	return nil
}

// inspectPage runs inspect in the page open in the tab, with schemeProof
// if proof.
func inspectPage(t *testing.T, ctx context.Context, page string, proof bool) *pageInfo {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	call := fmt.Sprintf("(%s)(%t)", inspect, proof)
	info, err := chromedp.Run(tctx, chromedp.Evaluate[*pageInfo](call, chromedp.EvalAwaitPromise))
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
