package svg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestPixelSpans: every cell of pixelSpans' ring goes to the highest id
// whose spans, overlapping or not, cover the cell's middle, and there are
// no more spans than cells.
func TestPixelSpans(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		l := 20 + 500*rng.Float64()
		spans := make([][]span, 1+rng.IntN(40))
		for range rng.IntN(300) {
			a, id := rng.Float64(), rng.IntN(len(spans))
			spans[id] = append(spans[id], span{a, min(1, a+rng.Float64()*0.05)})
		}
		got := pixelSpans(spans, l)
		cells := int(math.Ceil(l))
		owner := func(spans [][]span, mid float64) int {
			id := -1
			for j, ss := range spans {
				for _, s := range ss {
					if s.from <= mid && mid < s.to {
						id = j
					}
				}
			}
			return id
		}
		n := 0
		for _, ss := range got {
			n += len(ss)
		}
		if n > cells {
			t.Errorf("trial %d: %d spans on a ring of %d cells", trial, n, cells)
		}
		for c := range cells {
			mid := (float64(c) + 0.5) / float64(cells)
			if g, w := owner(got, mid), owner(spans, mid); g != w {
				t.Fatalf("trial %d: cell %d of %d goes to %d, want %d", trial, c, cells, g, w)
			}
		}
	}
}

// TestPixelSpansAsDenseArcs: the arcs of a rule with more than maxTicks
// points, drawn per pixel as denseArcSpans samples them, are what
// pixelSpans makes of the same arcs drawn exactly.
func TestPixelSpansAsDenseArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const nodes, l = 40, 456.0
	starts := []uint32{0}
	for range 3 * maxTicks {
		starts = append(starts, rng.Uint32())
	}
	slices.Sort(starts)
	var arcs []placer.Arc
	exact := make([][]span, nodes)
	for j, s := range starts {
		if j > 0 && s == starts[j-1] {
			continue
		}
		id := timeline.NodeID(rng.IntN(nodes))
		arcs = append(arcs, placer.Arc{Start: s, Node: id})
	}
	for j, a := range arcs {
		end := circle
		if j+1 < len(arcs) {
			end = float64(arcs[j+1].Start)
		}
		exact[a.Node] = append(exact[a.Node], span{float64(a.Start) / circle, end / circle})
	}
	got, want := pixelSpans(exact, l), denseArcSpans(arcs, nodes, l)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pixelSpans of the exact arcs differs from denseArcSpans")
	}
}

// crowdedScenario is the scale scenario at nodes nodes: five
// rules, a node added and the oldest removed, more keys than maxDots.
func crowdedScenario(t testing.TB, nodes int) *sim.Result {
	t.Helper()
	var s strings.Builder
	fmt.Fprintf(&s, "title: crowded\nnodes: %d\nkeys: 5000\nrules: [ring, modulo, jump, rendezvous, maglev]\nsteps:\n  - add: node-%d\n  - remove: node-1\n", nodes, nodes+1)
	sc, err := scenario.Parse("crowded.yaml", []byte(s.String()), scenario.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Replay(sc)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

var (
	shareRingRE = regexp.MustCompile(`(?s)<g fill="none" stroke-width="16" >(.*?)</g>`)
	dashPathRE  = regexp.MustCompile(`<path d="M([\d.]+) ([\d.]+)A([\d.]+) [^"]*"[^>]*stroke-dasharray="([^"]*)"`)
	cutRE       = regexp.MustCompile(`class="rr-cut"`)
	panelRE     = regexp.MustCompile(`<g transform="translate\(([\d.]+) ([\d.]+)\)" id="[^"]*-rule-([a-z]+)" >`)
)

// TestCrowdedWheelsBoundedByPixels: past as many nodes as there are node
// colours a wheel draws a path per colour, not per node, and a share
// wheel whose segments are narrower than its cuts is drawn per pixel and
// left uncut, so that a step's wheels of 1,000 and of 3,000 nodes are
// about the same size, and each share wheel's ring is covered once all
// round by its paths (their dashes add up to its length).
func TestCrowdedWheelsBoundedByPixels(t *testing.T) {
	t.Parallel()
	size := map[int]int{}
	for _, nodes := range []int{1000, 3000} {
		res := crowdedScenario(t, nodes)
		for i := range 2 {
			f, _, err := FigureOf(res, "rings", i)
			if err != nil {
				t.Fatal(err)
			}
			doc := string(f.SVG)
			size[nodes] = max(size[nodes], len(doc))
			for _, label := range []string{"modulo", "jump", "rendezvous", "maglev"} {
				panel := panelOf(t, doc, label)
				ring := shareRingRE.FindStringSubmatch(panel)
				if ring == nil {
					t.Fatalf("%d nodes step %d %s: no share ring drawn by style", nodes, i, label)
				}
				paths := dashPathRE.FindAllStringSubmatch(ring[1], -1)
				if len(paths) > maxRingPaths {
					t.Errorf("%d nodes step %d %s: %d paths on the share ring, want at most %d", nodes, i, label, len(paths), maxRingPaths)
				}
				if cuts := len(cutRE.FindAllString(panel, -1)); cuts > 20 {
					t.Errorf("%d nodes step %d %s: %d cuts", nodes, i, label, cuts)
				}
				on := 0.0
				var l float64
				for _, p := range paths {
					r, _ := strconv.ParseFloat(p[3], 64)
					l = 2 * math.Pi * r
					for j, d := range strings.Fields(p[4]) {
						if v, _ := strconv.ParseFloat(d, 64); j%2 == 0 {
							on += v
						}
					}
				}
				if math.Abs(on-l) > 1 {
					t.Errorf("%d nodes step %d %s: dashes cover %.1f of the ring's %.1f", nodes, i, label, on, l)
				}
			}
		}
	}
	if size[1000] > 80_000 || float64(size[3000]) > 1.1*float64(size[1000]) {
		t.Errorf("wheels of 1,000 nodes are %d bytes, of 3,000 nodes %d: want at most 80,000 and the same within 10%%", size[1000], size[3000])
	}
}

// TestCrowdedShareWheelsShowTheirColours: drawn by rsvg-convert, the ring
// of every share wheel of 1,000 nodes shows node colours all round, not
// the background its cuts are drawn in.
func TestCrowdedShareWheelsShowTheirColours(t *testing.T) {
	t.Parallel()
	bin := lab.Need(t, "rsvg-convert", "librsvg2-bin")
	res := crowdedScenario(t, 1000)
	f, _, err := FigureOf(res, "rings", 1)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(t.TempDir(), "rings.svg")
	if err := os.WriteFile(in, f.File(Light), 0o644); err != nil {
		t.Fatal(err)
	}
	out := in + ".png"
	if msg, err := exec.Command(bin, "-z", "2", "-o", out, in).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v: %s", err, msg)
	}
	img := readPNG(t, out)
	bg := parseHex(lightInk.bg)
	doc := string(f.SVG)
	panels := panelRE.FindAllStringSubmatch(doc, -1)
	if len(panels) != len(res.Rules) {
		t.Fatalf("%d panels, want %d", len(panels), len(res.Rules))
	}
	for _, p := range panels {
		if p[3] == "ring" {
			continue
		}
		tx, _ := strconv.ParseFloat(p[1], 64)
		ty, _ := strconv.ParseFloat(p[2], 64)
		m := dashPathRE.FindStringSubmatch(shareRingRE.FindString(panelOf(t, doc, p[3])))
		cx, _ := strconv.ParseFloat(m[1], 64)
		top, _ := strconv.ParseFloat(m[2], 64)
		rad, _ := strconv.ParseFloat(m[3], 64)
		blank := 0
		const samples = 720
		for j := range samples {
			x, y := polar(tx+cx, ty+top+rad, rad, float64(j)/samples)
			cr, cg, cb, _ := img.At(int(2*x), int(2*y)).RGBA()
			if abs(int(cr>>8)-int(bg[0])) < 8 && abs(int(cg>>8)-int(bg[1])) < 8 && abs(int(cb>>8)-int(bg[2])) < 8 {
				blank++
			}
		}
		if blank > samples/10 {
			t.Errorf("%s: %d of %d points round the share ring are background", p[3], blank, samples)
		}
	}
}

// TestReceivedShadesKeepSubpixelParts: on a crowded share wheel a node's
// received keys a quarter of a pixel long, clear of any pixel's middle,
// still tint their pixel, at a quarter strength in the reason's colour,
// where drawing the inner ring per pixel by its middles would drop them.
func TestReceivedShadesKeepSubpixelParts(t *testing.T) {
	const l = 100.0
	got := make([][]span, strips.NumReasons)
	got[strips.ReasonGained] = []span{{0.101, 0.1035}} // 10.1 to 10.35 px
	got[strips.ReasonCollateral] = []span{{0.5, 0.52}} // two whole pixels
	if anySpans(pixelSpans(got, l)[strips.ReasonGained : strips.ReasonGained+1]) {
		t.Fatal("the quarter pixel holds a pixel's middle; the test needs one that does not")
	}
	sh := receivedShades(got, l)
	class := func(reason int, share float64) int {
		return 1 + reason*strips.ShadeLevels + strips.ShadeLevel(int(share*1e6), 1e6) - 1
	}
	want := map[int][]span{
		class(strips.ReasonGained, 0.25):    {{0.10, 0.11}},
		class(strips.ReasonCollateral, 1.0): {{0.50, 0.52}},
	}
	for cl, ss := range sh {
		if len(ss) > 0 && want[cl] == nil {
			t.Errorf("class %d: spans %v, want none", cl, ss)
		}
	}
	for cl, w := range want {
		var ss []span
		if cl < len(sh) {
			ss = sh[cl]
		}
		if len(ss) != len(w) {
			t.Errorf("class %d: spans %v, want %v", cl, ss, w)
			continue
		}
		for j := range ss {
			if math.Abs(ss[j].from-w[j].from) > 1e-9 || math.Abs(ss[j].to-w[j].to) > 1e-9 {
				t.Errorf("class %d: spans %v, want %v", cl, ss, w)
			}
		}
	}
}
