package browser

import (
	"bytes"
	"context"
	"fmt"
	"html"
	img "image"
	"image/png"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
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

// checkEmbedded checks every figure file of the site in dir, as a reader
// who pastes one into an article sees it: embedded as <img> in a plain
// white page read in the light scheme and in a plain black page read in
// the dark scheme, it looks the same to the pixel (its background is
// opaque and its theme fixed), and its text keeps minContrast against
// what it is drawn on. label prefixes every failure (which build). The
// files are served over 127.0.0.1, so that the contrast page can reach
// into the figures it holds: one page load per scenario and scheme, not
// one per figure.
func checkEmbedded(t *testing.T, ctx context.Context, dir, label string) {
	srv := serve(t, dir)
	scenarios, _ := filepath.Glob(filepath.Join(dir, "*", "index.html"))
	for _, p := range scenarios {
		svgs, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "*.svg"))
		files := make([]figFile, len(svgs))
		for i, f := range svgs {
			rel, _ := filepath.Rel(dir, f)
			files[i] = figFile{rel: filepath.ToSlash(rel), url: srv.url + "/site/" + filepath.ToSlash(rel), schemes: schemesOf(t, f)}
		}
		sameOnWhiteAndBlack(t, ctx, srv, label, files)
		checkContrast(t, ctx, srv, label, files)
	}
}

// figFile is one figure file of checkEmbedded: its path in the site, its
// address on the test's server and the colour schemes to read it in.
type figFile struct {
	rel, url string
	schemes  []string
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

// inFrames runs textContrast inside every <iframe> of the page (each
// holds one figure file as its own document, laid out in a 700 × 1000
// box as a tab of that size would) and returns one list per frame.
const inFrames = `(min) => [...document.querySelectorAll('iframe')].map(f => f.contentWindow.eval('(' + %s + ')')(min))`

// checkContrast loads files as iframes of one page, once per colour
// scheme, and fails every text that textContrast finds under
// minContrast in a scheme the file is read in.
func checkContrast(t *testing.T, ctx context.Context, srv *embedServer, label string, files []figFile) {
	t.Helper()
	var b strings.Builder
	b.WriteString("<!doctype html><meta charset=utf-8><title>contrast</title><style>iframe{display:block;width:700px;height:1000px;border:0}</style>\n")
	for _, f := range files {
		fmt.Fprintf(&b, "<iframe src=\"%s\"></iframe>\n", html.EscapeString(f.url))
	}
	u := srv.page(t, path.Dir(files[0].rel)+"-contrast.html", b.String())
	for _, scheme := range []string{"light", "dark"} {
		if !slices.ContainsFunc(files, func(f figFile) bool { return slices.Contains(f.schemes, scheme) }) {
			continue
		}
		tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		lows, err := chromedp.Run(tctx, func(ctx context.Context, tg *chromedp.Target) ([][]lowText, error) {
			if err := chromedp.Do(ctx, colorScheme(scheme), chromedp.Navigate(u)); err != nil {
				return nil, err
			}
			src := fmt.Sprintf("(%s)(%g)", fmt.Sprintf(inFrames, strconv.Quote(textContrast)), minContrast)
			return chromedp.Run(ctx, chromedp.Evaluate[[][]lowText](src))
		})
		cancel()
		if err != nil {
			t.Fatalf("%scannot check the contrast of %s: %v", label, path.Dir(files[0].rel), err)
		}
		if len(lows) != len(files) {
			t.Fatalf("%s%s: %d frames answered for %d figures", label, path.Dir(files[0].rel), len(lows), len(files))
		}
		for i, f := range files {
			if !slices.Contains(f.schemes, scheme) {
				continue
			}
			for _, l := range lows[i] {
				t.Errorf("%s%s (%s scheme): text %q has contrast %s, want ≥ %.1f:1", label, f.rel, scheme, l.Text, l.Why, minContrast)
			}
		}
	}
}

// embedServer serves a site's files under /site/ and the pages the test
// writes under /page/, from one origin on 127.0.0.1: a page can reach into
// the documents of the figures it frames.
type embedServer struct {
	url, pages string
}

// serve starts an embedServer for the site in dir; it stops when the test
// ends.
func serve(t *testing.T, dir string) *embedServer {
	s := &embedServer{pages: t.TempDir()}
	mux := http.NewServeMux()
	mux.Handle("/site/", http.StripPrefix("/site/", http.FileServer(http.Dir(dir))))
	mux.Handle("/page/", http.StripPrefix("/page/", http.FileServer(http.Dir(s.pages))))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	s.url = srv.URL
	return s
}

// page writes html as the page called name and returns its address.
func (s *embedServer) page(t *testing.T, name, html string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.pages, name), []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	return s.url + "/page/" + name
}

// sameOnWhiteAndBlack embeds files as <img> one under the other in a
// white page read in the light scheme and in a black page read in the
// dark scheme, and fails every image whose pixels differ between the two.
// The page is as wide as its widest image, and an image that the
// screenshot does not hold whole fails: no pixel goes unchecked.
func sameOnWhiteAndBlack(t *testing.T, ctx context.Context, srv *embedServer, label string, files []figFile) {
	t.Helper()
	var shots [2]img.Image
	var boxes [][4]float64
	for k, v := range []struct{ scheme, bg string }{{"light", "#fff"}, {"dark", "#000"}} {
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><meta charset=utf-8><title>embed</title><style>body{margin:0;background:%s}img{display:block;margin:0 0 8px}</style>\n", v.bg)
		for _, f := range files {
			fmt.Fprintf(&b, "<img src=\"%s\" alt=\"\">\n", html.EscapeString(f.url))
		}
		u := srv.page(t, path.Dir(files[0].rel)+"-"+v.scheme+".html", b.String())
		tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		png, err := chromedp.Run(tctx, func(ctx context.Context, tg *chromedp.Target) ([]byte, error) {
			err := chromedp.Do(ctx, chromedp.EmulateViewport(700, 1000), colorScheme(v.scheme), chromedp.Navigate(u))
			if err == nil {
				boxes, err = chromedp.Run(ctx, chromedp.Evaluate[[][4]float64](`(async () => {
  await Promise.all([...document.images].map(i => i.decode()));
  return [...document.images].map(i => { const r = i.getBoundingClientRect(); return [r.left, r.top + scrollY, r.width, r.height]; });
})()`, chromedp.EvalAwaitPromise))
			}
			if err != nil {
				return nil, err
			}
			width := 1.0
			for _, box := range boxes {
				width = max(width, box[0]+box[2])
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(math.Ceil(width)), 1000)); err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, fastScreenshot)
		})
		cancel()
		if err != nil {
			t.Fatalf("%scannot embed the figures of %s: %v", label, path.Dir(files[0].rel), err)
		}
		if shots[k], err = decodePNG(png); err != nil {
			t.Fatal(err)
		}
	}
	for j, box := range boxes {
		if x, y, ok := firstDifference(shots[0], shots[1], box); !ok {
			t.Errorf("%s%s: embedded in a black page read in the dark scheme it differs from a white page's at (%d, %d): the page shows through, its colours follow the reader, or the screenshot does not hold it whole", label, files[j].rel, x, y)
		}
	}
}

// fastScreenshot captures the whole page as a PNG, encoded for speed
// rather than size (lossless all the same).
func fastScreenshot(ctx context.Context, t *chromedp.Target) ([]byte, error) {
	yes := true
	r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
		Format: page.CaptureScreenshotFormatPng, CaptureBeyondViewport: &yes, FromSurface: &yes, OptimizeForSpeed: &yes})
	if err != nil {
		return nil, err
	}
	return r.Data, nil
}

func decodePNG(b []byte) (img.Image, error) { return png.Decode(bytes.NewReader(b)) }

// firstDifference compares the colours (not the alpha) of two
// screenshots inside box (x, y, w, h) and returns the first pixel that
// differs, with false, or true when none does. A box that reaches past
// either screenshot differs at its first pixel: it cannot be checked.
func firstDifference(a, b img.Image, box [4]float64) (int, int, bool) {
	// Whole pixels only: a row the image covers in part blends with the page.
	r := img.Rect(int(math.Ceil(box[0])), int(math.Ceil(box[1])), int(math.Floor(box[0]+box[2])), int(math.Floor(box[1]+box[3])))
	if !r.In(a.Bounds()) || !r.In(b.Bounds()) {
		return r.Min.X, r.Min.Y, false
	}
	pa, sa, okA := pixels(a)
	pb, sb, okB := pixels(b)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if okA && okB {
				i, j := (y-a.Bounds().Min.Y)*sa+(x-a.Bounds().Min.X)*4, (y-b.Bounds().Min.Y)*sb+(x-b.Bounds().Min.X)*4
				if pa[i] == pb[j] && pa[i+1] == pb[j+1] && pa[i+2] == pb[j+2] {
					continue
				}
			}
			ra, ga, ba, _ := a.At(x, y).RGBA()
			rb, gb, bb, _ := b.At(x, y).RGBA()
			if ra != rb || ga != gb || ba != bb {
				return x, y, false
			}
		}
	}
	return 0, 0, true
}

// pixels returns the bytes and stride of an opaque screenshot's RGBA or
// NRGBA pixels (the two agree on an opaque pixel), or false for another
// kind of image, which firstDifference reads pixel by pixel.
func pixels(m img.Image) ([]uint8, int, bool) {
	switch m := m.(type) {
	case *img.RGBA:
		return m.Pix, m.Stride, m.Opaque()
	case *img.NRGBA:
		return m.Pix, m.Stride, m.Opaque()
	}
	return nil, 0, false
}

// TestFirstDifference checks the pixel comparison on images made here:
// equal opaque colours pass, in RGBA and NRGBA alike, a changed colour is
// found where it is, and a box that the screenshot does not hold whole
// fails.
func TestFirstDifference(t *testing.T) {
	a, b := img.NewRGBA(img.Rect(0, 0, 10, 10)), img.NewNRGBA(img.Rect(0, 0, 10, 10))
	for i := range a.Pix {
		a.Pix[i], b.Pix[i] = 200, 200
		if i%4 == 3 {
			a.Pix[i], b.Pix[i] = 255, 255
		}
	}
	box := [4]float64{0.5, 0.5, 9, 9} // whole pixels 1..8
	if x, y, ok := firstDifference(a, b, box); !ok {
		t.Errorf("equal images differ at (%d, %d)", x, y)
	}
	b.Pix[b.PixOffset(9, 9)] = 0 // outside the whole pixels of box
	if _, _, ok := firstDifference(a, b, box); !ok {
		t.Error("a pixel the box covers in part counts")
	}
	b.Pix[b.PixOffset(3, 7)+1] = 0
	if x, y, ok := firstDifference(a, b, box); ok || x != 3 || y != 7 {
		t.Errorf("firstDifference = (%d, %d, %v), want (3, 7, false)", x, y, ok)
	}
	if _, _, ok := firstDifference(a, a, [4]float64{0, 0, 11, 5}); ok {
		t.Error("a box wider than the screenshot passes")
	}
}
