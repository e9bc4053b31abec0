package browser

// The pixel anchor: the proofs of figproof_test.go stand for drawing each
// figure file as an image, and are sufficient conditions of our choosing.
// A Chromium rule they do not list (an image renders otherwise than a
// shadow root lays out, the covering rect's edges are anti-aliased, an
// image draws its text in another font) would pass them unseen; so a few
// files are drawn after all, as an <img> draws them, in the light and the
// dark scheme, and their pixels must show what the proofs said: every
// alpha 255 where the proofs found the image opaque, every pixel the same
// in both schemes where they found nothing that follows the reader.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// proofVerdict is what the proofs said of an image of a file: that it
// lets the page show through no pixel (Opaque) and that it draws the same
// in the light and the dark scheme (Fixed: fixedScheme and sameInImage
// found nothing). coverProof answers for the schemes the file was read
// in, so Opaque is that it found nothing in any of them, sameInImage
// nothing, and either the file was read in the dark scheme too (Dark) or
// it is Fixed. A file that could not be laid out is neither.
type proofVerdict struct {
	Fixed, Dark bool
	covered     bool // coverProof found nothing in any scheme read
}

// Opaque reports whether the proofs show that an image of the file lets
// the page show through no pixel, in either scheme.
func (v proofVerdict) Opaque() bool {
	return v.covered && (v.Fixed || v.Dark)
}

// and returns v with r, the figResult of the file in scheme, taken into
// account; the light scheme, read first, starts from a file that has
// failed nothing.
func (v proofVerdict) and(scheme string, r *figResult) proofVerdict {
	if scheme == "light" {
		v = proofVerdict{Fixed: true, covered: true}
	}
	if r.Err != "" || len(r.Context) > 0 {
		return proofVerdict{}
	}
	v.covered = v.covered && r.Cover == ""
	v.Fixed = v.Fixed && len(r.Follows) == 0
	v.Dark = v.Dark || scheme == "dark"
	return v
}

// digitRun matches a number in a figure file's name.
var digitRun = regexp.MustCompile(`[0-9]+`)

// figFamily returns the family of a figure file's name, the kind of
// figure it is: the name with each number in it written N
// (step-3-rings.svg is of step-N-rings.svg, balance.svg of itself).
func figFamily(name string) string {
	return digitRun.ReplaceAllString(name, "N")
}

// anchorFiles returns the files of the site in dir that the pixel anchor
// draws, on the test's server under prefix: of each family of figure
// file names (figFamily), the largest file of any scenario (the one with
// the most to draw), the first by path of equally large ones; sorted by
// family. The families are read from the site, so that a new kind of
// figure is drawn too.
func anchorFiles(t *testing.T, dir, prefix string) []figFile {
	type cand struct {
		rel  string
		size int64
	}
	best := map[string]cand{}
	for _, name := range scenarioNames(dir) {
		svgs, _ := filepath.Glob(filepath.Join(dir, name, "*.svg"))
		for _, f := range svgs {
			st, err := os.Stat(f)
			if err != nil {
				t.Fatal(err)
			}
			c, fam := cand{name + "/" + filepath.Base(f), st.Size()}, figFamily(filepath.Base(f))
			if b, ok := best[fam]; !ok || c.size > b.size || c.size == b.size && c.rel < b.rel {
				best[fam] = c
			}
		}
	}
	fams := make([]string, 0, len(best))
	for fam := range best {
		fams = append(fams, fam)
	}
	slices.Sort(fams)
	files := make([]figFile, len(fams))
	for i, fam := range fams {
		files[i] = figFile{rel: best[fam].rel, path: prefix + best[fam].rel}
	}
	return files
}

// pixels is what anchorScript found in the pixels of one file's image in
// one scheme: Err when it does not draw as an image, else its size, the
// first pixel that is not opaque (Alpha, at index See) and, in the dark
// scheme, the first pixel that differs from the light scheme's (Is, where
// it was Was, at index Diff); -1 for none.
type pixels struct {
	Err             string
	W, H, See, Diff int
	Alpha           int
	Was, Is         [4]int
}

// anchorScript draws each file (paths, on the server) into a canvas at
// its natural size, as a page draws an <img> of it, in the scheme now
// emulated, and reads its pixels (one canvas for all, cleared where each
// is drawn: a canvas per image drew a third slower). With first (the
// light scheme, drawn first) it drops the figures that embedScript laid
// out in the page (switching the scheme with them in it restyled them,
// at half the anchor's CPU), fetches the files' texts in one request
// (/bundle), loads each as an image of its own bytes (a blob of type
// image/svg+xml), finds the first pixel that is not opaque and keeps the
// pixels; without first it draws the same images again, compares their
// pixels with those kept, looks for a pixel that is not opaque only where
// they differ (elsewhere the light scheme's answer stands), and lets the
// images go. Only small results cross to Go.
const anchorScript = `async (paths, first) => {
  if (first) {
    document.body.replaceChildren();
    delete window.rr;
    const res = await fetch('/bundle', {method: 'POST', body: JSON.stringify(paths)});
    const urls = (await res.json()).map(t => t === null ? null : URL.createObjectURL(new Blob([t], {type: 'image/svg+xml'})));
    const images = await Promise.all(urls.map(async (src) => {
      if (!src) return null;
      const im = new Image();
      try { await new Promise((ok, no) => { im.onload = ok; im.onerror = no; im.src = src; }); }
      catch (e) { return null; }
      return im;
    }));
    window.anchor = {urls: urls.filter(u => u), images, kept: []};
  }
  const {urls, images, kept} = window.anchor;
  const g = window.anchor.g ||= new OffscreenCanvas(1, 1).getContext('2d', {willReadFrequently: true});
  const out = images.map((im, k) => {
    if (!im) return {Err: 'does not load'};
    const w = im.naturalWidth, h = im.naturalHeight;
    if (!w || !h) return {Err: 'has no size'};
    if (w > g.canvas.width || h > g.canvas.height) { g.canvas.width = Math.max(w, g.canvas.width); g.canvas.height = Math.max(h, g.canvas.height); }
    g.clearRect(0, 0, w, h);
    g.drawImage(im, 0, 0);
    const d = g.getImageData(0, 0, w, h).data;
    const r = {W: w, H: h, See: -1, Diff: -1};
    if (!first) {
      const o = kept[k], a = new Uint32Array(o.buffer), b = new Uint32Array(d.buffer);
      for (let i = 0; i < b.length; i++) if (a[i] !== b[i]) { r.Diff = i; r.Was = [...o.subarray(4 * i, 4 * i + 4)]; r.Is = [...d.subarray(4 * i, 4 * i + 4)]; break; }
    }
    if (first || r.Diff >= 0) for (let i = 3; i < d.length; i += 4) if (d[i] !== 255) { r.See = i >> 2; r.Alpha = d[i]; break; }
    if (first) kept[k] = d;
    return r;
  });
  if (!first) { urls.forEach(u => URL.revokeObjectURL(u)); delete window.anchor; }
  return out;
}`

// anchorFindings draws files with anchorScript in the tab's blank page
// (embedServer.open), in the light and then the dark scheme, and checks
// their pixels: that none lets the page show through (every alpha 255)
// and that each is the same in both schemes, and that this is what the
// proofs said of each file (verdicts, from embedFindings, by its path on
// the server; a file they did not check fails). It returns the messages
// of each file, at its index, each starting with the file's path.
func anchorFindings(t *testing.T, ctx context.Context, files []figFile, verdicts map[string]proofVerdict) [][]string {
	t.Helper()
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	var drawn [2][]*pixels
	for k, scheme := range []string{"light", "dark"} {
		call := fmt.Sprintf("(%s)(%s, %t)", anchorScript, jsonOf(paths), k == 0)
		res, err := chromedp.Run(tctx, func(ctx context.Context, tg *chromedp.Target) ([]*pixels, error) {
			if err := chromedp.Do(ctx, colorScheme(scheme)); err != nil {
				return nil, err
			}
			return chromedp.Run(ctx, chromedp.Evaluate[[]*pixels](call, chromedp.EvalAwaitPromise))
		})
		if err != nil {
			t.Fatalf("cannot draw the figures (%s scheme): %v", scheme, err)
		}
		if len(res) != len(files) {
			t.Fatalf("%d images drawn for %d files", len(res), len(files))
		}
		drawn[k] = res
	}
	msgs := make([][]string, len(files))
	for i, f := range files {
		v, ok := verdicts[f.path]
		if !ok {
			t.Errorf("%s: the pixel anchor drew it, but the proofs did not check it", f.rel)
		}
		msgs[i] = pixelFindings(f.rel, v, drawn[0][i], drawn[1][i])
	}
	return msgs
}

// pixelFindings says what is wrong with one file's pixels, drawn in the
// light and the dark scheme, and where they disagree with the proofs'
// verdict v.
func pixelFindings(rel string, v proofVerdict, light, dark *pixels) []string {
	if light.Err != "" {
		msgs := []string{fmt.Sprintf("%s: drawn as an image, it %s", rel, light.Err)}
		return append(msgs, disagreement(rel, v, false, false)...)
	}
	var msgs []string
	for _, p := range []struct {
		scheme string
		*pixels
	}{{"light", light}, {"dark", dark}} {
		if p.See >= 0 {
			msgs = append(msgs, fmt.Sprintf("%s (%s scheme): drawn as an image, its pixel (%d, %d) has alpha %d: the page shows through it", rel, p.scheme, p.See%p.W, p.See/p.W, p.Alpha))
		}
	}
	if dark.Diff >= 0 {
		msgs = append(msgs, fmt.Sprintf("%s: drawn as an image, its pixel (%d, %d) is rgba%v in the dark scheme and rgba%v in the light: its colours follow the reader", rel, dark.Diff%dark.W, dark.Diff/dark.W, dark.Is, dark.Was))
	}
	return append(msgs, disagreement(rel, v, light.See < 0 && dark.See < 0, dark.Diff < 0)...)
}

// disagreement says where the pixels (opaque: no pixel lets the page
// through; fixed: the same in both schemes) disagree with the proofs'
// verdict v, in either direction: proofs that pass what the pixels fail
// are wrong, and proofs that fail what the pixels pass may be stricter
// than needed (or read what this file's pixels do not show).
func disagreement(rel string, v proofVerdict, opaque, fixed bool) []string {
	yes := map[bool]string{true: "yes", false: "no"}
	var msgs []string
	for _, c := range []struct {
		what          string
		proofs, drawn bool
	}{{"lets the page show through no pixel", v.Opaque(), opaque}, {"draws the same in both schemes", v.Fixed, fixed}} {
		if c.proofs != c.drawn {
			msgs = append(msgs, fmt.Sprintf("%s: the proofs and the pixels disagree on whether an image of it %s: the proofs say %s, the pixels %s", rel, c.what, yes[c.proofs], yes[c.drawn]))
		}
	}
	return msgs
}
