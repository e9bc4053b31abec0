package svg

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestStripShadeProportional: at 10⁵ keys, where a strip cell is a bin of
// 48 or 49 keys, every cell the strips figure draws is painted at the
// opacity its exact share of moved keys gives (to the nearest 64th, at
// least one 64th when any moved), counted here key by key from owners
// replayed afresh (Result.EachOwner), in both orders; so a strip's mean
// opacity is its moved fraction, and the legend says so.
func TestStripShadeProportional(t *testing.T) {
	const k = 100_000
	res, err := sim.Replay(walkthrough("shade", k))
	if err != nil {
		t.Fatal(err)
	}
	owners := func(r, step int) []timeline.NodeID {
		out := make([]timeline.NodeID, 0, k)
		if err := res.EachOwner(r, step, func(_ string, p sim.Probe) { out = append(out, p.Owners[0]) }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	n := strips.MaxCells
	for r, rr := range res.Rules {
		rank := rankOf(figdata.KeyPositions(res, r))
		prev := owners(r, 0)
		for i := 1; i < len(res.Timeline.States); i++ {
			cur := owners(r, i)
			keyOrder, hashOrder := make([]int, n), make([]int, n)
			moved := 0
			for key := range cur {
				if cur[key] != prev[key] {
					moved++
					keyOrder[int(res.Keys.Gen[key])*n/k]++
					hashOrder[rank[key]*n/k]++
				}
			}
			prev = cur
			if moved != rr.Steps[i].Moved {
				t.Fatalf("%s step %d: %d keys changed owner, the step says %d moved", rr.Spec.Label, i, moved, rr.Steps[i].Moved)
			}
			f, _, err := FigureOf(res, "strips", i)
			if err != nil {
				t.Fatal(err)
			}
			if moved == 0 {
				continue // nothing drawn: a strip's grey background only
			}
			drawn := stripOpacities(t, string(f.SVG), "rule-"+idPart(rr.Spec.Label), n)
			for o, counts := range [][]int{keyOrder, hashOrder} {
				mean := 0.0
				for c, m := range counts {
					keys := strips.CellKeys(c, n, k)
					want := wantOpacity(m, keys)
					if drawn[o][c] != want {
						t.Fatalf("%s step %d, strip %d, cell %d: %d of %d keys moved, painted at opacity %g, want %g",
							rr.Spec.Label, i, o, c, m, keys, drawn[o][c], want)
					}
					mean += drawn[o][c] * float64(keys) / k
				}
				if frac := float64(moved) / k; math.Abs(mean-frac) > 1.0/128 {
					t.Errorf("%s step %d, strip %d: mean opacity %.4f, moved fraction %.4f", rr.Spec.Label, i, o, mean, frac)
				}
			}
			for _, s := range []string{"opacity is the share of them that moved", "opacity equal to the share of them that moved"} {
				if !strings.Contains(string(f.SVG), s) {
					t.Errorf("step %d: neither legend nor caption says %q", i, s)
				}
			}
		}
	}
}

// wantOpacity is the opacity the figure's legend promises a cell of keys
// keys of which m moved: m/keys to the nearest 64th (halves up), at
// least 1/64 when m > 0.
func wantOpacity(m, keys int) float64 {
	if m == 0 {
		return 0
	}
	l := math.Floor(64*float64(m)/float64(keys) + 0.5)
	return max(l, 1) / 64
}

// rankOf ranks keys by position, ties by canonical index, as a rule's
// hash order does.
func rankOf(pos []uint32) []int {
	idx := make([]int, len(pos))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return int(int64(pos[a]) - int64(pos[b])) })
	rank := make([]int, len(pos))
	for r, i := range idx {
		rank[i] = r
	}
	return rank
}

var (
	stripGroup    = regexp.MustCompile(`<g transform="translate\([0-9.]+ [0-9.]+\) scale\([0-9.]+ 1\)" >((?s:.*?))</g>`)
	stripPath     = regexp.MustCompile(`<path d="M0 8h(\d+)" stroke="(#[0-9A-F]{6})"[^>]*?stroke-dasharray="([0-9. ]+)"[^>]*/>`)
	strokeOpacity = regexp.MustCompile(`stroke-opacity="([0-9.]+)"`)
)

// stripOpacities decodes the two strips of one rule's block of a strips
// figure (the group with id ending in rule): the opacity each of its n
// cells is painted at, 0 where nothing is. A cell painted twice fails.
func stripOpacities(t *testing.T, doc, rule string, n int) [2][]float64 {
	t.Helper()
	i := strings.Index(doc, rule+`" >`)
	if i < 0 {
		t.Fatalf("no block %s", rule)
	}
	groups := stripGroup.FindAllStringSubmatch(doc[i:], 2)
	if len(groups) != 2 {
		t.Fatalf("%s: %d strips, want 2", rule, len(groups))
	}
	var out [2][]float64
	for g, m := range groups {
		out[g] = make([]float64, n)
		for _, p := range stripPath.FindAllStringSubmatch(m[1], -1) {
			if p[1] != strconv.Itoa(n) || !slices.Contains(reasonColors[:], p[2]) {
				t.Fatalf("%s: a strip path %.80s", rule, p[0])
			}
			op := 1.0
			if o := strokeOpacity.FindStringSubmatch(p[0]); o != nil {
				op, _ = strconv.ParseFloat(o[1], 64)
			}
			at := 0.0
			for j, f := range strings.Fields(p[3]) {
				v, _ := strconv.ParseFloat(f, 64)
				if j%2 == 0 {
					for c := int(at); c < int(at+v) && c < n; c++ {
						if out[g][c] != 0 {
							t.Fatalf("%s: cell %d painted twice", rule, c)
						}
						out[g][c] = op
					}
				}
				at += v
			}
		}
	}
	return out
}
