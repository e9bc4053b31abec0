package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// checkEmbedded checks every figure file of the site in dir, as a reader
// who pastes one into an article sees it (embedFindings): drawn as an
// image it has no pixel the page shows through and the same pixels in the
// light and the dark scheme (its background is opaque and its theme
// fixed, so that it looks the same on a white page and a black one), and
// its text keeps minContrast against what it is drawn on. label prefixes
// every failure (which build).
func checkEmbedded(t *testing.T, ctx context.Context, dir, label string) {
	srv := serve(t, dir)
	srv.open(t, ctx)
	scenarios, _ := filepath.Glob(filepath.Join(dir, "*", "index.html"))
	for _, p := range scenarios {
		svgs, _ := filepath.Glob(filepath.Join(filepath.Dir(p), "*.svg"))
		files := make([]figFile, len(svgs))
		for i, f := range svgs {
			rel, _ := filepath.Rel(dir, f)
			files[i] = figFile{rel: filepath.ToSlash(rel), schemes: schemesOf(t, f)}
		}
		for _, m := range embedFindings(t, ctx, filepath.Base(filepath.Dir(p)), files) {
			t.Error(label + m)
		}
	}
}

// figFile is one figure file of checkEmbedded: its path in the site (and
// on the test's server, under /site/) and the colour schemes to read it
// in.
type figFile struct {
	rel     string
	schemes []string
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

// embedResult is what embedScript reports in one scheme: for each file,
// its pixels and its texts under minContrast.
type embedResult struct {
	Pixels []pixels
	Low    [][]lowText
}

// pixels is what embedScript found in one file's pixels: Err when it does
// not draw as an image, else its width, the first pixel that is not
// opaque (Alpha, at index See) and the first pixel that differs from the
// scheme before (Is, where it was Was, at index Diff); -1 for none.
type pixels struct {
	Err          string
	W, See, Diff int
	Alpha        int
	Was, Is      [4]int
}

// figureHosts is the part of embedScript that lays out every file
// (texts: each file's text, or null when the server could not read it),
// once per batch: it parses the file as XML, as a browser opens an SVG
// file, and puts its <svg> in a shadow root of its own, in a 700 × 1000
// px box whose inherited properties are all initial, as a tab of that
// size shows the file: the file's style applies to it alone and the
// page's to none of it. (A frame per file would do the same at several
// times the cost of the figure itself.) It returns the outermost <svg> of
// each file, or what is wrong with the file.
const figureHosts = `(texts) => texts.map((text) => {
  if (text === null) return 'cannot be read';
  const host = document.body.appendChild(document.createElement('div'));
  host.style.cssText = 'all: initial; display: block; width: 700px; height: 1000px';
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.querySelector('parsererror') || !(doc.documentElement instanceof SVGSVGElement)) return 'is not an SVG document';
  host.attachShadow({mode: 'open'}).append(doc.documentElement);
  return host.shadowRoot.firstElementChild;
})`

// embedScript draws every file (rels, under /site/) into a canvas at its
// natural size, as a page draws an <img> of it, and reads its pixels.
// With keep (the light scheme, first) it starts a new batch: it drops the
// last batch's figures and images, fetches the files' texts in one
// request (/bundle), lays them out (figureHosts) and loads each as an
// image of its own bytes (a blob of type image/svg+xml: the server is
// asked once per file, not twice), finds the first pixel that is not
// opaque and keeps the pixels; without keep it redraws the same images in
// the scheme now emulated and compares their pixels with those kept. A
// file of a fractional width or height fails: its natural size rounds up,
// and the page shows through the last column or row, which it covers in
// part (every figure is a whole number of px, so that its edges are
// crisp). Then it runs textContrast on every file read in this scheme
// (read), as figureHosts laid it out. Only these small results cross to
// Go.
const embedScript = `async (rels, keep, read, min) => {
  if (keep) {
    for (const u of window.rr?.urls || []) URL.revokeObjectURL(u);
    document.body.replaceChildren();
    const res = await fetch('/bundle', {method: 'POST', body: JSON.stringify(rels)});
    const texts = await res.json();
    const urls = texts.map((t, k) => t === null ? '/site/' + rels[k] : URL.createObjectURL(new Blob([t], {type: 'image/svg+xml'})));
    const images = await Promise.all(urls.map(async (src) => {
      const im = new Image();
      try { await new Promise((ok, no) => { im.onload = ok; im.onerror = no; im.src = src; }); }
      catch (e) { return null; }
      return im;
    }));
    window.rr = {kept: [], tops: (` + figureHosts + `)(texts), urls: urls.filter(u => u.startsWith('blob:')), images};
  }
  const {kept, tops, images} = window.rr;
  const px = images.map((im, k) => {
    if (!im) return {Err: 'does not load as an image'};
    const w = im.naturalWidth, h = im.naturalHeight;
    if (!w || !h) return {Err: 'has no size as an image'};
    const g = new OffscreenCanvas(w, h).getContext('2d', {willReadFrequently: true});
    g.drawImage(im, 0, 0);
    const d = g.getImageData(0, 0, w, h).data;
    const r = {W: w, See: -1, Diff: -1};
    if (keep) {
      kept[k] = d;
      for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) { r.See = i >> 2; r.Alpha = d[i]; break; }
    } else if (kept[k]) {
      const o = kept[k], a = new Uint32Array(o.buffer), b = new Uint32Array(d.buffer);
      if (a.length !== b.length) return {Err: 'changes size with the scheme'};
      for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) { r.Diff = i; r.Was = [...o.subarray(4 * i, 4 * i + 4)]; r.Is = [...d.subarray(4 * i, 4 * i + 4)]; break; }
    }
    return r;
  });
  const contrast = (` + textContrast + `);
  const low = tops.map((top, k) => !read[k] ? [] : typeof top === 'string' ? [{Err: top}] : contrast(top, min));
  return {Pixels: px, Low: low};
}`

// embedFindings checks files, the figure files of one scenario (name),
// with embedScript in the tab's blank page (embedServer.open) read in the
// light scheme and then, in the same page, in the dark scheme. It
// returns one message per failure, each starting with the file's path.
func embedFindings(t *testing.T, ctx context.Context, name string, files []figFile) []string {
	t.Helper()
	rels := make([]string, len(files))
	for i, f := range files {
		rels[i] = f.rel
	}
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var msgs []string
	for _, scheme := range []string{"light", "dark"} {
		read := make([]bool, len(files))
		for i, f := range files {
			read[i] = slices.Contains(f.schemes, scheme)
		}
		call := fmt.Sprintf("(%s)(%s, %t, %s, %g)", embedScript, jsonOf(rels), scheme == "light", jsonOf(read), minContrast)
		res, err := chromedp.Run(tctx, func(ctx context.Context, tg *chromedp.Target) (*embedResult, error) {
			if err := chromedp.Do(ctx, colorScheme(scheme)); err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, chromedp.Evaluate[*embedResult](call, chromedp.EvalAwaitPromise))
		})
		if err != nil {
			t.Fatalf("cannot check the figures of %s (%s scheme): %v", name, scheme, err)
		}
		if len(res.Pixels) != len(files) || len(res.Low) != len(files) {
			t.Fatalf("%s: %d images and %d figures answered for %d files", name, len(res.Pixels), len(res.Low), len(files))
		}
		for i, f := range files {
			msgs = append(msgs, pixelFindings(f.rel, scheme, res.Pixels[i])...)
			for _, l := range res.Low[i] {
				msgs = append(msgs, lowFinding(f.rel, scheme, l))
			}
		}
	}
	return msgs
}

// lowFinding says what textContrast found wrong with a file in a scheme.
func lowFinding(rel, scheme string, l lowText) string {
	if l.Err != "" {
		return fmt.Sprintf("%s (%s scheme): %s", rel, scheme, l.Err)
	}
	return fmt.Sprintf("%s (%s scheme): text %q has contrast %s, want ≥ %.1f:1", rel, scheme, l.Text, l.Why, minContrast)
}

// pixelFindings says what is wrong with one file's pixels in a scheme.
func pixelFindings(rel, scheme string, p pixels) []string {
	var msgs []string
	if p.Err != "" {
		msgs = append(msgs, fmt.Sprintf("%s (%s scheme): %s", rel, scheme, p.Err))
	}
	if p.See >= 0 && p.W > 0 {
		msgs = append(msgs, fmt.Sprintf("%s: embedded as an image, its pixel (%d, %d) has alpha %d: the page shows through it", rel, p.See%p.W, p.See/p.W, p.Alpha))
	}
	if p.Diff >= 0 && p.W > 0 {
		msgs = append(msgs, fmt.Sprintf("%s: embedded as an image, its pixel (%d, %d) is rgba%v in the dark scheme and rgba%v in the light: its colours follow the reader", rel, p.Diff%p.W, p.Diff/p.W, p.Is, p.Was))
	}
	return msgs
}

// jsonOf returns v as a JavaScript literal.
func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings and slices of them always marshal
	}
	return string(b)
}

// embedServer serves a site's files under /site/, many at once as the
// JSON array of their texts at /bundle, and a blank page at /, from one
// origin on 127.0.0.1: the page can read the figures and the pixels of
// the images it draws from them.
type embedServer struct {
	url string
}

// serve starts an embedServer for the site in dir; it stops when the test
// ends.
func serve(t *testing.T, dir string) *embedServer {
	files := http.Dir(dir)
	mux := http.NewServeMux()
	mux.Handle("/site/", http.StripPrefix("/site/", http.FileServer(files)))
	mux.HandleFunc("POST /bundle", func(w http.ResponseWriter, r *http.Request) { bundle(w, r, files) })
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><meta charset=utf-8><title>embed</title><body></body>\n")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &embedServer{url: srv.URL}
}

// bundle answers a JSON array of paths under dir with the JSON array of
// those files' texts, null for a file it cannot read: one request for a
// batch of figures instead of one per file.
func bundle(w http.ResponseWriter, r *http.Request, dir http.Dir) {
	var rels []string
	if err := json.NewDecoder(r.Body).Decode(&rels); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	texts := make([]*string, len(rels))
	for i, rel := range rels {
		if b, err := readFile(dir, rel); err == nil {
			s := string(b)
			texts[i] = &s
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(texts)
}

// readFile reads the file at the slash-separated path rel under dir,
// which rel cannot leave.
func readFile(dir http.Dir, rel string) ([]byte, error) {
	f, err := dir.Open("/" + rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// open loads the server's blank page in the tab, in the light scheme.
func (s *embedServer) open(t *testing.T, ctx context.Context) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, colorScheme("light"), chromedp.Navigate(s.url+"/")); err != nil {
		t.Fatalf("cannot load a page for the figures: %v", err)
	}
}
