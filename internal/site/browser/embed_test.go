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
// who pastes one into an article sees it (embedFindings): an image of it
// has no pixel the page shows through and the same pixels in the light
// and the dark scheme (its background is opaque and its theme fixed, so
// that it looks the same on a white page and a black one), and its text
// keeps minContrast against what it is drawn on. label prefixes every
// failure (which build).
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
// on the test's server) and the colour schemes to read it in.
type figFile struct {
	rel     string
	schemes []string
}

// schemesOf returns the colour schemes to read an SVG file in: both for
// a file whose colours follow the reader's (-theme auto), else one. (A
// file that follows the reader in a way this misses still fails:
// fixedScheme finds it.)
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

// figResult is what embedScript found in one file in one scheme: Err
// when the file could not be laid out, else why the page would show
// through an image of it (Cover, "" for nowhere) and its texts under
// minContrast; in the light scheme, the first, also what sameInImage and
// fixedScheme found.
type figResult struct {
	Err     string
	Cover   string
	Low     []lowText
	Context []string
	Follows []string
}

// figureHosts is the part of embedScript that lays out every file
// (texts: each file's text, or null when the server could not read it),
// once per batch: it parses the file as XML, as a browser opens an SVG
// file or an image of one, and puts its <svg> in a shadow root of its
// own, in a 700 × 1000 px box whose inherited properties are all
// initial, as a tab of that size shows the file: the file's style applies
// to it alone and the page's to none of it. (A frame per file would do
// the same at several times the cost of the figure itself.) It returns
// the outermost <svg> of each file, or what is wrong with the file.
const figureHosts = `(texts) => texts.map((text) => {
  if (text === null) return 'cannot be read';
  const host = document.body.appendChild(document.createElement('div'));
  host.style.cssText = 'all: initial; display: block; width: 700px; height: 1000px';
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.querySelector('parsererror') || !(doc.documentElement instanceof SVGSVGElement)) return 'is not an SVG document';
  host.attachShadow({mode: 'open'}).append(doc.documentElement);
  return host.shadowRoot.firstElementChild;
})`

// embedScript checks every file (rels, on the server) read in the scheme
// now emulated (read), and returns a figResult for each (null for a file
// not read in it). With first (the light scheme, read first) it starts a
// new batch: it drops the last batch's figures, fetches the files' texts
// in one request (/bundle), lays them out (figureHosts) and runs
// sameInImage and fixedScheme on each, which do not depend on the
// scheme. In every scheme it runs coverProof and textContrast on the
// layout as that scheme styles it: switching the scheme restyles the
// figures without reloading them. Only these small results cross to Go.
const embedScript = `async (rels, first, read, min) => {
  if (first) {
    document.body.replaceChildren();
    const res = await fetch('/bundle', {method: 'POST', body: JSON.stringify(rels)});
    window.rr = {tops: (` + figureHosts + `)(await res.json())};
  }
  const contrast = (` + textContrast + `), cover = (` + coverProof + `);
  const same = (` + sameInImage + `), fixed = (` + fixedScheme + `);
  return window.rr.tops.map((top, k) => {
    if (!read[k]) return null;
    if (typeof top === 'string') return {Err: top};
    const r = {Cover: cover(top), Low: contrast(top, min)};
    if (first) { r.Context = same(top); r.Follows = fixed(top); }
    return r;
  });
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
		if scheme != "light" && !slices.Contains(read, true) {
			continue
		}
		call := fmt.Sprintf("(%s)(%s, %t, %s, %g)", embedScript, jsonOf(rels), scheme == "light", jsonOf(read), minContrast)
		res, err := chromedp.Run(tctx, func(ctx context.Context, tg *chromedp.Target) ([]*figResult, error) {
			if err := chromedp.Do(ctx, colorScheme(scheme)); err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, chromedp.Evaluate[[]*figResult](call, chromedp.EvalAwaitPromise))
		})
		if err != nil {
			t.Fatalf("cannot check the figures of %s (%s scheme): %v", name, scheme, err)
		}
		if len(res) != len(files) {
			t.Fatalf("%s: %d results for %d files", name, len(res), len(files))
		}
		for i, f := range files {
			if read[i] != (res[i] != nil) {
				t.Fatalf("%s (%s scheme): read %t, but the page answered %v", f.rel, scheme, read[i], res[i])
			}
			if res[i] != nil {
				msgs = append(msgs, figFindings(f.rel, scheme, res[i])...)
			}
		}
	}
	return msgs
}

// figFindings says what is wrong with one file in a scheme.
func figFindings(rel, scheme string, r *figResult) []string {
	var msgs []string
	if r.Err != "" {
		msgs = append(msgs, fmt.Sprintf("%s (%s scheme): %s", rel, scheme, r.Err))
	}
	for _, c := range r.Context {
		msgs = append(msgs, fmt.Sprintf("%s: an image of it may draw what this test does not read: %s", rel, c))
	}
	for _, f := range r.Follows {
		msgs = append(msgs, fmt.Sprintf("%s: its colours follow the reader: %s", rel, f))
	}
	if r.Cover != "" {
		msgs = append(msgs, fmt.Sprintf("%s (%s scheme): embedded as an image, the page shows through it: %s", rel, scheme, r.Cover))
	}
	for _, l := range r.Low {
		msgs = append(msgs, fmt.Sprintf("%s (%s scheme): text %q has contrast %s, want ≥ %.1f:1", rel, scheme, l.Text, l.Why, minContrast))
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

// embedServer serves a site's files, many at once as the JSON array of
// their texts at /bundle, and a blank page at /, from one origin on
// 127.0.0.1.
type embedServer struct {
	url string
}

// serve starts an embedServer for the site in dir; it stops when the test
// ends.
func serve(t *testing.T, dir string) *embedServer {
	files := http.Dir(dir)
	mux := http.NewServeMux()
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
