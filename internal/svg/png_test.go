package svg

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
)

// TestPNG: rsvg-convert (Debian's librsvg2-bin), the converter the README
// documents for tools that want PNG, turns every figure of an example
// scenario into a PNG of twice the figure's size without a warning, on
// the theme's opaque background and with the heading's text drawn. No
// kept pure-Go library draws these figures' text (see the README). The
// converter takes one PNG a process, so the figures are converted
// GOMAXPROCS at a time, beside the package's other parallel tests.
//
// A figure that uses the very SVG of one already converted (svgFeatures:
// its kind, the same elements with the same attributes, the same style
// sheet) is not converted again: it differs only in numbers (num, checked
// against strconv), colours (palette.go) and escaped text, which the
// converter reads the same way in every figure, so 11 of ring.yaml's 14
// wheels and 12 of its 13 strips (a process of 0.1 s of CPU each) would
// prove nothing the others do not; they are parsed as XML instead.
func TestPNG(t *testing.T) {
	t.Parallel()
	bin := lab.Need(t, "rsvg-convert", "librsvg2-bin")
	figs, err := Figures(exampleResult(t, "ring.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type job struct {
		f  Figure
		th Theme
	}
	var jobs []job
	seen := map[string]bool{}
	for _, f := range figs {
		sig := svgFeatures(f)
		if seen[sig] {
			// Still parsed, as the converter would.
			if err := wellFormed(f.File(Light)); err != nil {
				t.Errorf("%s: %v", f.Name, err)
			}
			continue
		}
		seen[sig] = true
		jobs = append(jobs, job{f, Light})
		if f.Kind == "history" {
			jobs = append(jobs, job{f, Dark})
		}
	}
	t.Logf("%d figures, %d of them with SVG features of their own", len(figs), len(seen))
	problems := make([]string, len(jobs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, j := range jobs {
		in := filepath.Join(dir, j.th.String()+"-"+j.f.Name)
		if err := os.WriteFile(in, j.f.File(j.th), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			msg, err := exec.Command(bin, "-z", "2", "-o", in+".png", in).CombinedOutput()
			if err != nil || len(bytes.TrimSpace(msg)) > 0 {
				problems[i] = fmt.Sprintf("rsvg-convert %s (%s): %v: %s", j.f.Name, j.th, err, msg)
			}
		})
	}
	wg.Wait()
	for i, j := range jobs {
		if problems[i] != "" {
			t.Error(problems[i])
			continue
		}
		checkPNG(t, filepath.Join(dir, j.th.String()+"-"+j.f.Name)+".png", j.f, j.th)
	}
}

// checkPNG checks a PNG of f at zoom 2: its size, its background, and
// text in the heading: the title's first line is written in the theme's
// text colour, so that band holds many pixels near it.
func checkPNG(t *testing.T, file string, f Figure, th Theme) {
	t.Helper()
	img := readPNG(t, file)
	b := img.Bounds()
	if b.Dx() != int(2*f.w+0.5) || b.Dy() != int(2*f.h+0.5) {
		t.Errorf("%s (%s): %d×%d px, want %.0f×%.0f", f.Name, th, b.Dx(), b.Dy(), 2*f.w, 2*f.h)
	}
	k := lightInk
	if th == Dark {
		k = darkInk
	}
	near := func(x, y int, c [3]uint8, tol int) bool {
		r, g, bl, a := img.At(x, y).RGBA()
		d := func(v uint32, w uint8) int { return abs(int(v>>8) - int(w)) }
		return a>>8 == 255 && d(r, c[0]) <= tol && d(g, c[1]) <= tol && d(bl, c[2]) <= tol
	}
	if bg := parseHex(k.bg); !near(b.Max.X-1, b.Max.Y-1, bg, 2) || !near(0, 0, bg, 2) {
		t.Errorf("%s (%s): corners are %v, want the background %s", f.Name, th, img.At(0, 0), k.bg)
	}
	ink := 0
	fg := parseHex(k.fg)
	for y := 2 * 4; y < 2*20; y++ { // the title's first line
		for x := 2 * 8; x < min(b.Max.X, 2*200); x++ {
			if near(x, y, fg, 40) {
				ink++
			}
		}
	}
	if ink < 300 {
		t.Errorf("%s (%s): %d pixels of text colour in the title, want text", f.Name, th, ink)
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// readPNG decodes the PNG file, failing the test when it cannot.
func readPNG(t *testing.T, file string) image.Image {
	t.Helper()
	r, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	img, err := png.Decode(r)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return img
}

var (
	startTag  = regexp.MustCompile(`<([A-Za-z][\w:.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*/?>`)
	attrName  = regexp.MustCompile(`([\w:.-]+)="`)
	styleElem = regexp.MustCompile(`(?s)<style[^>]*>.*?</style>`)
	figureID  = regexp.MustCompile(`<svg[^>]* id="([^"]*)"`)
)

// svgFeatures is what of f's light SVG a converter could treat in a way
// of its own: its kind, every element name with the names of the
// attributes it carries, and the style sheet with the figure's own id
// taken out. Two figures with the same features differ only in
// attribute values and text.
func svgFeatures(f Figure) string {
	doc := string(f.File(Light))
	seen := map[string]bool{}
	for _, m := range startTag.FindAllStringSubmatch(doc, -1) {
		seen[m[1]] = true
		for _, a := range attrName.FindAllStringSubmatch(m[2], -1) {
			seen[m[1]+"@"+a[1]] = true
		}
	}
	features := slices.Sorted(maps.Keys(seen))
	style := strings.Join(styleElem.FindAllString(doc, -1), "")
	if id := figureID.FindStringSubmatch(doc); id != nil {
		style = strings.ReplaceAll(style, id[1], "")
	}
	return f.Kind + "\n" + strings.Join(features, " ") + "\n" + style
}
