package browser

import (
	"bytes"
	"context"
	"fmt"
	"html"
	img "image"
	"image/png"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ringreport/ringreport/internal/build"
	"github.com/ringreport/ringreport/internal/svg"
)

// minContrast is WCAG AA's contrast for text, which every figure file's
// text must keep against what it is drawn on.
const minContrast = 4.5

// textContrast lists, for an SVG document open in the browser, every text
// whose contrast with what it is drawn on is under minContrast. For each
// <text> or <tspan> with text of its own it takes three points along the
// middle of its box, and at each the shapes drawn before it (document
// order is paint order) whose fill covers that point (isPointInFill),
// composited bottom to top with their fill-opacity and opacity; where no
// opaque shape is under the text, the page shows through, and the text is
// checked on white and on black. Hatch patterns (url fills) count as
// transparent.
const textContrast = `(min) => {
  const rgb = (c) => { const m = /rgba?\(([^)]*)\)/.exec(c); if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lin = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const over = (top, a, bottom) => [0, 1, 2].map(i => top[i] * a + bottom[i] * (1 - a));
  const alpha = (e, prop) => { let a = parseFloat(getComputedStyle(e)[prop] || '1');
    for (let n = e; n && n instanceof SVGElement; n = n.parentElement) a *= parseFloat(getComputedStyle(n).opacity); return a; };
  const all = [...document.documentElement.querySelectorAll('*')];
  const shapes = [];
  all.forEach((e, i) => {
    if (!(e instanceof SVGGeometryElement) || e.closest('defs, pattern, clipPath, mask, marker, text')) return;
    const f = rgb(getComputedStyle(e).fill);
    if (f) shapes.push({e, i, f, a: alpha(e, 'fillOpacity') * f[3], b: e.getBoundingClientRect()});
  });
  const bad = [];
  all.forEach((t, ti) => {
    if (!(t instanceof SVGTextContentElement)) return;
    if (![...t.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) return;
    const fill = rgb(getComputedStyle(t).fill);
    if (!fill) { bad.push({Text: t.textContent.trim(), Why: 'fill ' + getComputedStyle(t).fill}); return; }
    const fa = alpha(t, 'fillOpacity') * fill[3];
    const b = t.getBoundingClientRect();
    let worst = Infinity, on = '';
    for (const fx of [0.2, 0.5, 0.8]) {
      const x = b.left + fx * b.width, y = b.top + b.height / 2;
      const under = shapes.filter(s => s.i < ti && x >= s.b.left && x <= s.b.right && y >= s.b.top && y <= s.b.bottom &&
        s.e.isPointInFill(new DOMPoint(x, y).matrixTransform(s.e.getScreenCTM().inverse())));
      for (const page of [[255, 255, 255], [0, 0, 0]]) {
        let bg = page;
        for (const s of under) bg = over(s.f, s.a, bg);
        const r = ratio(over(fill, fa, bg), bg);
        if (r < worst) { worst = r; on = 'rgb(' + bg.map(Math.round).join(',') + ')'; }
      }
    }
    if (worst < min) bad.push({Text: t.textContent.trim(), Why: worst.toFixed(2) + ':1, ' + getComputedStyle(t).fill + ' on ' + on});
  });
  return bad;
}`

// lowText is a text that textContrast found under minContrast.
type lowText struct {
	Text, Why string
}

// checkEmbedded checks every figure file of the site in dir (out/'s
// theme) and of a dark build, as a reader who pastes one into an article
// sees it: embedded as <img> in a plain white page read in the light
// scheme and in a plain black page read in the dark scheme, it looks
// the same to the pixel (its background is opaque and its theme fixed),
// and its text keeps minContrast against what it is drawn on.
func checkEmbedded(t *testing.T, bin, dir string) {
	dark := buildTheme(t, svg.Dark)
	ctx := browser(t, bin)
	for _, site := range []string{dir, dark} {
		scenarios, _ := filepath.Glob(filepath.Join(site, "*", "index.html"))
		for _, p := range scenarios {
			files, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "*.svg"))
			sameOnWhiteAndBlack(t, ctx, site, files)
			for _, f := range files {
				rel, _ := filepath.Rel(site, f)
				if site == dark {
					rel = "dark build: " + rel
				}
				for _, scheme := range schemesOf(t, f) {
					for _, l := range contrastOf(t, ctx, f, scheme) {
						t.Errorf("%s (%s scheme): text %q has contrast %s, want ≥ %.1f:1", rel, scheme, l.Text, l.Why, minContrast)
					}
				}
			}
		}
	}
}

// schemesOf returns the colour schemes to read an SVG file in: both for
// a file whose colours follow the reader's (-theme auto), else one.
func schemesOf(t *testing.T, file string) []string {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("prefers-color-scheme")) {
		return []string{"light", "dark"}
	}
	return []string{"light"}
}

// contrastOf opens one SVG file in the reader's colour scheme and runs
// textContrast in it.
func contrastOf(t *testing.T, ctx context.Context, file, scheme string) []lowText {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	u := (&url.URL{Scheme: "file", Path: file}).String()
	if err := chromedp.Do(tctx, colorScheme(scheme), chromedp.Navigate(u)); err != nil {
		t.Fatalf("cannot load %s: %v", file, err)
	}
	low, err := chromedp.Run(tctx, chromedp.Evaluate[[]lowText](fmt.Sprintf("(%s)(%g)", textContrast, minContrast)))
	if err != nil {
		t.Fatalf("cannot inspect %s: %v", file, err)
	}
	return low
}

// sameOnWhiteAndBlack embeds files as <img> one under the other in a
// white page read in the light scheme and in a black page read in the
// dark scheme, and fails every image whose pixels differ between the two.
func sameOnWhiteAndBlack(t *testing.T, ctx context.Context, site string, files []string) {
	t.Helper()
	var shots [2]img.Image
	var boxes [][4]float64
	for k, v := range []struct{ scheme, bg string }{{"light", "#fff"}, {"dark", "#000"}} {
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><meta charset=utf-8><title>embed</title><style>body{margin:0;background:%s}img{display:block;margin:0 0 8px}</style>\n", v.bg)
		for _, f := range files {
			fmt.Fprintf(&b, "<img src=\"%s\" alt=\"\">\n", html.EscapeString((&url.URL{Scheme: "file", Path: f}).String()))
		}
		page := filepath.Join(t.TempDir(), "embed.html")
		if err := os.WriteFile(page, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		err := chromedp.Do(tctx, chromedp.EmulateViewport(700, 1000), colorScheme(v.scheme),
			chromedp.Navigate((&url.URL{Scheme: "file", Path: page}).String()))
		var png []byte
		if err == nil {
			boxes, err = chromedp.Run(tctx, chromedp.Evaluate[[][4]float64](`(async () => {
  await Promise.all([...document.images].map(i => i.decode()));
  return [...document.images].map(i => { const r = i.getBoundingClientRect(); return [r.left, r.top + scrollY, r.width, r.height]; });
})()`, chromedp.EvalAwaitPromise))
		}
		if err == nil {
			png, err = chromedp.Run(tctx, chromedp.FullScreenshot(100))
		}
		cancel()
		if err != nil {
			t.Fatalf("cannot embed the figures of %s: %v", filepath.Dir(files[0]), err)
		}
		if shots[k], err = decodePNG(png); err != nil {
			t.Fatal(err)
		}
	}
	for j, box := range boxes {
		if x, y, ok := firstDifference(shots[0], shots[1], box); !ok {
			rel, _ := filepath.Rel(site, files[j])
			t.Errorf("%s: embedded in a black page read in the dark scheme it differs from a white page's at (%d, %d): the page shows through or its colours follow the reader", rel, x, y)
		}
	}
}

func decodePNG(b []byte) (img.Image, error) { return png.Decode(bytes.NewReader(b)) }

// firstDifference compares two screenshots inside box (x, y, w, h) and
// returns the first pixel that differs, with false, or true when none
// does.
func firstDifference(a, b img.Image, box [4]float64) (int, int, bool) {
	// Whole pixels only: a row the image covers in part blends with the page.
	x0, y0 := int(math.Ceil(box[0])), int(math.Ceil(box[1]))
	x1, y1 := int(math.Floor(box[0]+box[2])), int(math.Floor(box[1]+box[3]))
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			if a.At(x, y) != b.At(x, y) {
				ra, ga, ba, _ := a.At(x, y).RGBA()
				rb, gb, bb, _ := b.At(x, y).RGBA()
				if ra != rb || ga != gb || ba != bb {
					return x, y, false
				}
			}
		}
	}
	return 0, 0, true
}

// buildTheme builds the examples with figure files in theme th into a
// temporary directory and returns it.
func buildTheme(t *testing.T, th svg.Theme) string { return buildWith(t, build.Options{Theme: th}) }
