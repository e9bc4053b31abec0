package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// checkEmbedded checks every figure file of the site in dir and of the
// site in dark, as a reader who pastes one into an article sees it
// (embedFindings): an image of it has no pixel the page shows through
// and the same pixels in the light and the dark scheme (its background
// is opaque and its theme fixed, so that it looks the same on a white
// page and a black one), and its text keeps minContrast against what it
// is drawn on. The failures of dark's files start with "dark build: ".
// Each scenario's files of dir are checked, then those of dark: each
// that differs from the file of dir of its name only in its style
// element (restyles; all do, a theme being colours) is checked as that
// file's document with the style element replaced, without parsing and
// laying out the rest again.
func checkEmbedded(t *testing.T, ctx context.Context, dir, dark string) {
	srv := serve(t, dir, dark)
	srv.open(t, ctx)
	restyled, all := 0, 0
	defer func() {
		t.Logf("%d of the dark build's %d figure files checked as the light ones restyled", restyled, all)
	}()
	verdicts := map[string]proofVerdict{}
	for _, name := range scenarioNames(dir, dark) {
		light := figFiles(t, dir, name, "0/")
		msgs, v := embedFindings(t, ctx, name, light)
		for _, m := range msgs {
			t.Error(m)
		}
		maps.Copy(verdicts, v)
		others := figFiles(t, dark, name, "1/")
		for i := range others {
			others[i].restyle = i < len(light) && light[i].rel == others[i].rel && restyles(light[i].text, others[i].text)
			if others[i].restyle {
				restyled++
			}
		}
		all += len(others)
		msgs, v = embedFindings(t, ctx, name, others)
		for _, m := range msgs {
			t.Error("dark build: " + m)
		}
		maps.Copy(verdicts, v)
	}
	checkAnchor(t, ctx, anchorFiles(t, dir, "0/"), anchorFiles(t, dark, "1/"), verdicts)
}

// checkAnchor draws the files of the pixel anchor of both builds
// (anchorFiles) at once and checks their pixels against the proofs'
// verdicts (anchorFindings); the failures of dark's files start with
// "dark build: ".
func checkAnchor(t *testing.T, ctx context.Context, light, dark []figFile, verdicts map[string]proofVerdict) {
	names := make([]string, 0, len(light)+len(dark))
	for _, f := range slices.Concat(light, dark) {
		names = append(names, f.path)
	}
	t.Logf("drawn as images in both schemes: %d files: %s", len(names), strings.Join(names, " "))
	for i, msgs := range anchorFindings(t, ctx, slices.Concat(light, dark), verdicts) {
		for _, m := range msgs {
			if i >= len(light) {
				m = "dark build: " + m
			}
			t.Error(m)
		}
	}
}

// scenarioNames returns the names of the scenario folders of the sites in
// dirs, sorted, each once.
func scenarioNames(dirs ...string) []string {
	var names []string
	for _, d := range dirs {
		pages, _ := filepath.Glob(filepath.Join(d, "*", "index.html"))
		for _, p := range pages {
			names = append(names, filepath.Base(filepath.Dir(p)))
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// figFiles returns the figure files of scenario name of the site in dir,
// sorted, each on the test's server under prefix.
func figFiles(t *testing.T, dir, name, prefix string) []figFile {
	svgs, _ := filepath.Glob(filepath.Join(dir, name, "*.svg"))
	files := make([]figFile, len(svgs))
	for i, f := range svgs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel := name + "/" + filepath.Base(f)
		files[i] = figFile{rel: rel, path: prefix + rel, text: b, schemes: schemesOf(b)}
	}
	return files
}

// figFile is one figure file of embedFindings: its path in its site, its
// path on the test's server, its bytes, the colour schemes to read it in,
// and whether it is to be checked as the file before it at its index in
// the last batch, restyled (restyles).
type figFile struct {
	rel, path string
	text      []byte
	schemes   []string
	restyle   bool
}

// restyles reports whether the file b is the file a with its style
// element replaced, so that the page can make b's document from a's by
// replacing that element with b's (embedScript): each holds one "<style"
// and one "</style>", which are then its one style element's start and
// end (no comment or CDATA section can hide one of two, and without a
// DOCTYPE no entity can make one), and the texts before and after them
// are the same.
func restyles(a, b []byte) bool {
	pa, sa, ok := styleSplit(a)
	pb, sb, okb := styleSplit(b)
	return ok && okb && bytes.Equal(pa, pb) && bytes.Equal(sa, sb)
}

// styleSplit returns the text of an SVG file before its one style
// element and after it, and false when it holds no such element alone.
func styleSplit(b []byte) (before, after []byte, ok bool) {
	const open, end = "<style", "</style>"
	if bytes.Count(b, []byte(open)) != 1 || bytes.Count(b, []byte(end)) != 1 || bytes.Contains(bytes.ToUpper(b), []byte("<!DOCTYPE")) {
		return nil, nil, false
	}
	i, j := bytes.Index(b, []byte(open)), bytes.Index(b, []byte(end))+len(end)
	if j < i {
		return nil, nil, false
	}
	return b[:i], b[j:], true
}

// schemesOf returns the colour schemes to read an SVG file (its bytes)
// in: both for a file whose colours follow the reader's (-theme auto),
// else one. (A file that follows the reader in a way this misses still
// fails: fixedScheme finds it.)
func schemesOf(b []byte) []string {
	if bytes.Contains(b, []byte("prefers-color-scheme")) {
		return []string{"light", "dark"}
	}
	return []string{"light"}
}

// figResult is what embedScript found in one file in one scheme: Err
// when the file could not be laid out, else why the page would show
// through an image of it (Cover, "" for nowhere) and its texts under
// minContrast; in the light scheme, the first, also what sameInImage and
// fixedScheme found, and whether the file's document was made from the
// last batch's (restyled).
type figResult struct {
	Err      string
	Cover    string
	Low      []lowText
	Context  []string
	Follows  []string
	Restyled bool
}

// figureHost is the part of embedScript that lays out a file (text: its
// text, or null when the server could not read it): it parses the file
// as XML, as a browser opens an SVG file or an image of one, and puts its
// <svg> in a shadow root of its own, in a 700 × 1000 px box whose
// inherited properties are all initial, as a tab of that size shows the
// file: the file's style applies to it alone and the page's to none of
// it. (A frame per file would do the same at several times the cost of
// the figure itself.) It returns the file's outermost <svg>, or what is
// wrong with the file.
const figureHost = `(text) => {
  if (text === null) return 'cannot be read';
  const host = document.body.appendChild(document.createElement('div'));
  host.style.cssText = 'all: initial; display: block; width: 700px; height: 1000px';
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  if (doc.querySelector('parsererror') || !(doc.documentElement instanceof SVGSVGElement)) { host.remove(); return 'is not an SVG document'; }
  host.attachShadow({mode: 'open'}).append(doc.documentElement);
  return host.shadowRoot.firstElementChild;
}`

// restyled is the part of embedScript that makes, from top (the
// outermost <svg> of a file laid out by figureHost), the document of the
// file whose text is text and which differs from it only in its one
// style element (restyles): it replaces top's style element with text's,
// parsed alone. The browser then styles and lays out the figure anew, as
// it would the file, without parsing the rest of it again. It returns
// top, or null when top has not one style element or text's does not
// parse alone.
const restyled = `(top, text) => {
  const styles = top.querySelectorAll('style'), a = text.indexOf('<style'), b = text.indexOf('</style>');
  if (styles.length !== 1 || a < 0 || b < a) return null;
  const doc = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + text.slice(a, b + 8) + '</svg>', 'image/svg+xml');
  const st = doc.documentElement.firstChild;
  if (doc.querySelector('parsererror') || doc.documentElement.childNodes.length !== 1 || !(st instanceof SVGStyleElement)) return null;
  styles[0].replaceWith(st);
  return top;
}`

// embedScript checks every file (paths, on the server) read in the
// scheme now emulated (read), and returns a figResult for each (null for
// a file not read in it). With first (the light scheme, read first) it
// starts a new batch: it fetches the files' texts in one request
// (/bundle), makes each file's document, from the last batch's at its
// index when restyle says so (restyled), else anew (figureHost), drops
// the last batch's figures that no file took, and runs sameInImage and
// fixedScheme on each, which do not depend on the scheme. In every
// scheme it runs coverProof and textContrast on the layout as that scheme
// styles it: switching the scheme restyles the figures without
// reloading them. Only these small results cross to Go.
const embedScript = `async (paths, first, read, min, restyle) => {
  if (first) {
    const res = await fetch('/bundle', {method: 'POST', body: JSON.stringify(paths)});
    const texts = await res.json(), old = window.rr ? window.rr.tops : [];
    const host = (` + figureHost + `), again = (` + restyled + `);
    const tops = texts.map((text, k) => restyle[k] && text !== null && old[k] instanceof SVGSVGElement ? again(old[k], text) : null);
    old.forEach((top, k) => { if (top instanceof SVGSVGElement && tops[k] !== top) top.getRootNode().host.remove(); });
    window.rr = {tops: tops.map((top, k) => top || host(texts[k])), again: tops.map(top => !!top)};
  }
  const contrast = (` + textContrast + `), cover = (` + coverProof + `);
  const same = (` + sameInImage + `), fixed = (` + fixedScheme + `);
  return window.rr.tops.map((top, k) => {
    if (!read[k]) return null;
    if (typeof top === 'string') return {Err: top};
    const r = {Cover: cover(top), Low: contrast(top, min)};
    if (first) { r.Context = same(top); r.Follows = fixed(top); r.Restyled = window.rr.again[k]; }
    return r;
  });
}`

// embedFindings checks files, the figure files of one scenario (name),
// with embedScript in the tab's blank page (embedServer.open) read in the
// light scheme and then, in the same page, in the dark scheme. It
// returns one message per failure, each starting with the file's path,
// and what the proofs said of each file's image, by its path on the
// server (for the pixel anchor to check: anchorFindings).
func embedFindings(t *testing.T, ctx context.Context, name string, files []figFile) ([]string, map[string]proofVerdict) {
	t.Helper()
	paths, restyle := make([]string, len(files)), make([]bool, len(files))
	for i, f := range files {
		paths[i], restyle[i] = f.path, f.restyle
	}
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var msgs []string
	verdicts := make(map[string]proofVerdict, len(files))
	for _, scheme := range []string{"light", "dark"} {
		read := make([]bool, len(files))
		for i, f := range files {
			read[i] = slices.Contains(f.schemes, scheme)
		}
		if scheme != "light" && !slices.Contains(read, true) {
			continue
		}
		call := fmt.Sprintf("(%s)(%s, %t, %s, %g, %s)", embedScript, jsonOf(paths), scheme == "light", jsonOf(read), minContrast, jsonOf(restyle))
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
			if res[i] == nil {
				continue
			}
			if scheme == "light" && res[i].Restyled != f.restyle {
				t.Errorf("%s: restyles says %t, but the page restyled it: %t", f.rel, f.restyle, res[i].Restyled)
			}
			msgs = append(msgs, figFindings(f.rel, scheme, res[i])...)
			verdicts[f.path] = verdicts[f.path].and(scheme, res[i])
		}
	}
	return msgs, verdicts
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

// embedServer serves the files of one or more sites, the k-th under
// "k/", many at once as the JSON array of their texts at /bundle, and a
// blank page at /, from one origin on 127.0.0.1.
type embedServer struct {
	url string
}

// serve starts an embedServer for the sites in dirs; it stops when the
// test ends.
func serve(t *testing.T, dirs ...string) *embedServer {
	roots := make([]http.Dir, len(dirs))
	for k, d := range dirs {
		roots[k] = http.Dir(d)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /bundle", func(w http.ResponseWriter, r *http.Request) { bundle(w, r, roots) })
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<!doctype html><meta charset=utf-8><title>embed</title><body></body>\n")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &embedServer{url: srv.URL}
}

// bundle answers a JSON array of paths ("k/" and a path in the k-th of
// roots) with the JSON array of those files' texts, null for a file it
// cannot read: one request for a batch of figures instead of one per
// file.
func bundle(w http.ResponseWriter, r *http.Request, roots []http.Dir) {
	var paths []string
	if err := json.NewDecoder(r.Body).Decode(&paths); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	texts := make([]*string, len(paths))
	for i, p := range paths {
		root, rel, _ := strings.Cut(p, "/")
		k, err := strconv.Atoi(root)
		if err != nil || k < 0 || k >= len(roots) {
			continue
		}
		if b, err := readFile(roots[k], rel); err == nil {
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
