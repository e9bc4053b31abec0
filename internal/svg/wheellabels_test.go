package svg

import (
	"cmp"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

var labelRE = regexp.MustCompile(`<text [^>]*font-size="9" >([^<]*)`)

// TestWheelLabelsNameTheStep: past twelve nodes, every wheel of
// cache-tier.yaml and grow-64.yaml names the nodes its step acted on at
// their arcs (a share wheel only those it still has), and no wheel of
// ring.yaml, twelve nodes or fewer, names any.
func TestWheelLabelsNameTheStep(t *testing.T) {
	for _, file := range []string{"cache-tier.yaml", "grow-64.yaml", "ring.yaml"} {
		res := exampleResult(t, file)
		names, _ := shortNames(res.Timeline.Nodes)
		for i := 1; i < len(res.Timeline.States); i++ {
			f, _, err := FigureOf(res, "rings", i)
			if err != nil {
				t.Fatal(err)
			}
			st := &res.Timeline.States[i]
			for _, rr := range res.Rules {
				var labels []string
				for _, m := range labelRE.FindAllStringSubmatch(panelOf(t, string(f.SVG), rr.Spec.Label), -1) {
					if m[1] != "0" {
						labels = append(labels, m[1])
					}
				}
				if !wheelLabelled(res) {
					if len(labels) > 0 {
						t.Errorf("%s step %d %s: labels %q on a wheel of %d nodes", file, i, rr.Spec.Label, labels, len(res.Timeline.Nodes))
					}
					continue
				}
				if len(labels) < 3 {
					t.Errorf("%s step %d %s: only %d labels", file, i, rr.Spec.Label, len(labels))
				}
				for _, id := range st.Named {
					m, live := st.Member(id)
					if mosaicWheel(rr.Spec) && (!live || m.Failed) {
						continue
					}
					if !slices.Contains(labels, names[id]) {
						t.Errorf("%s step %d %s: %s, which the step acted on, is not named (labels %q)", file, i, rr.Spec.Label, names[id], labels)
					}
				}
			}
		}
	}
}

// TestPackBandKeepsApart: however many labels and wherever their anchors,
// the labels placeBand keeps lie in the band, labelGap apart, and each
// leader stays outside the wheel and off every other leader.
func TestPackBandKeepsApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const cx, cy, ar, endY = 106.0, 150.0, 92.0, 50.0
	for trial := range 200 {
		var cands []wheelLabel
		for j := range 1 + rng.IntN(12) {
			f := rng.Float64()
			if math.Cos(2*math.Pi*f) < 0 {
				f = 0.5 - f // keep it in the top half
			}
			f = math.Mod(f+1, 1)
			cands = append(cands, wheelLabel{id: timeline.NodeID(j), f: f, spots: []float64{f}, w: 20 + 40*rng.Float64()})
		}
		band := placeBand(cands, band{cx: cx, cy: cy, ar: ar, lo: 4, hi: 2*cx - 4, rows: []row{{endY - 2.5, endY, endY - 9.7}}}, obstacles{})[0]
		if len(band) == 0 {
			t.Fatalf("trial %d: no label of %d placed", trial, len(cands))
		}
		for j, w := range band {
			if w.x < 4 || w.x+w.w > 2*cx-4 {
				t.Errorf("trial %d: label at %.1f–%.1f outside the band", trial, w.x, w.x+w.w)
			}
			if j > 0 && w.x < band[j-1].x+band[j-1].w+labelGap-1e-9 {
				t.Errorf("trial %d: labels %d and %d closer than labelGap", trial, j-1, j)
			}
			x, y := polar(cx, cy, ar, w.f)
			ex := leaderEnd(w, x)
			// The nearest point of the leader to the centre, by projection.
			dx, dy := ex-x, endY-y
			s := math.Max(0, math.Min(1, ((cx-x)*dx+(cy-y)*dy)/(dx*dx+dy*dy)))
			if d := math.Hypot(x+s*dx-cx, y+s*dy-cy); d < ar-1e-6 {
				t.Errorf("trial %d: label %d's leader comes %.1f from the centre, inside the wheel (%.0f)", trial, j, d, ar)
			}
			for _, o := range band[:j] {
				ox, oy := polar(cx, cy, ar, o.f)
				if crosses([4]float64{ox, oy, leaderEnd(o, ox), endY}, [4]float64{x, y, ex, endY}) {
					t.Errorf("trial %d: leaders cross", trial)
				}
			}
		}
	}
}

// TestPlaceBandAsFullSearch: placeBand, which re-packs only the row it
// tries a label in, places every label where the plain search does that
// re-lays the whole band out for every trial (searchBand), to the bit.
func TestPlaceBandAsFullSearch(t *testing.T) {
	bd, keep := benchBand()
	placed, rows2 := 0, 0
	for seed := range uint64(60) {
		cands := benchLabels(1+int(seed%20), seed)
		if seed%2 == 1 { // labels that tie, where a stable sort keeps the first first
			for j := 1; j < len(cands); j += 3 {
				cands[j].spots, cands[j].f, cands[j].w = cands[j-1].spots, cands[j-1].f, cands[j-1].w
			}
		}
		got, want := placeBand(cands, bd, keep), searchBand(cands, bd, keep)
		rows2 += len(want[1])
		for k := range want {
			placed += len(want[k])
			if len(got[k]) != len(want[k]) {
				t.Fatalf("seed %d row %d: %d labels, want %d", seed, k, len(got[k]), len(want[k]))
			}
			for j, w := range want[k] {
				g := got[k][j]
				if g.id != w.id || g.f != w.f || g.dx != w.dx || g.x != w.x {
					t.Errorf("seed %d row %d label %d: id %d at f=%v dx=%v x=%v, want id %d at f=%v dx=%v x=%v",
						seed, k, j, g.id, g.f, g.dx, g.x, w.id, w.f, w.dx, w.x)
				}
			}
		}
	}
	if placed < 60 || rows2 == 0 { // so that the comparison compares something
		t.Errorf("%d labels placed, %d of them in the second row", placed, rows2)
	}
}

// searchBand is placeBand as a plain search: for every trial (row, spot,
// shift) it lays the whole band out again.
func searchBand(cands []wheelLabel, b band, keep obstacles) [][]wheelLabel {
	anchor := func(w wheelLabel) wheelLabel { w.ax, w.ay = polar(b.cx, b.cy, b.ar, w.f); return w }
	rows := make([][]wheelLabel, len(b.rows))
	for _, w := range cands {
	try:
		for k := range rows {
			for _, f := range w.spots {
				for _, dx := range labelShifts {
					w.f, w.dx = f, dx
					trial := slices.Clone(rows)
					trial[k] = append(slices.Clone(rows[k]), anchor(w))
					if searchLayout(b, trial, keep) {
						rows = trial
						break try
					}
				}
			}
		}
	}
	searchLayout(b, rows, keep)
	return rows
}

// searchLayout sorts, packs and checks every row of rows in turn, each
// keeping off keep and the rows before it.
func searchLayout(b band, rows [][]wheelLabel, keep obstacles) bool {
	for k, labels := range rows {
		r := b.rows[k]
		slices.SortStableFunc(labels, func(a, b wheelLabel) int { return cmp.Compare(a.want(), b.want()) })
		if !packBand(labels, b.lo, b.hi) || !keepsOff(labels, b, r, keep, -1) {
			return false
		}
		keep = withRow(obstacles{}, keep, labels, r)
	}
	return true
}
