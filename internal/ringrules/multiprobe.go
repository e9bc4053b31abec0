package ringrules

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// MultiprobeKind is the multi-probe rule's registry entry.
var MultiprobeKind = rulekind.Kind{Name: "multiprobe", HistoryFree: true, Doc: "Multi-probe consistent hashing (Appleton and O'Reilly 2015): one point per node, probes lookups per key.",
	Params: []rulekind.Param{paramProbes, rulekind.HashParam}, Fixed: []rulekind.Param{paramVNodes.WithDefault("1")}, Mosaic: true,
	Footprint: rulekind.Footprint{PerKey: func(s placer.RuleSpec) int64 { return max(1, int64(cmp.Or(s.Probes, defaultProbes))/4) },
		StepPoints: true, Local: true},
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) {
		return placer.Checked(newMultiprobe(s, e))
	}}

var paramProbes = rulekind.IntField(rulekind.Param{Name: "probes", Type: rulekind.ParamInt, Min: 1, Max: maxProbes, Default: strconv.Itoa(defaultProbes),
	Doc:    "Hashes of each key; the key goes to the node whose point is nearest to any of them.",
	Suffix: " probes"},
	func(s *placer.RuleSpec) *int { return &s.Probes })

// defaultProbes is the probe count of a multiprobe rule that names none:
// the paper's 21, for a peak-to-mean load of about 1.05.
const defaultProbes = 21

// maxProbes bounds the probe count a rule may ask for.
const maxProbes = 64

// Multiprobe is multi-probe consistent hashing (Appleton & O'Reilly 2015,
// "Multi-probe consistent hashing", arXiv:1505.00062): every node has a
// single point on the circle, at the rule's hash of "name#0"; a key is
// hashed k times (Probes, default 21) and goes to the node whose point
// follows one of its probes most closely clockwise; equal distances go to
// the earlier probe. Probe j sits at h + j·d (double hashing, as in
// github.com/dgryski/go-mpchash), h the key's position and
// d = fmix32(h + 0x9e3779b9) | 1.
//
// Weights are not in the paper: a node of weight w puts w points,
// "name#0" … "name#w−1", each an equal competitor, so its expected share is
// w/Σw. VNodes, when set, multiplies that (points per unit of weight,
// default 1); vnodes steps do not apply. Failed nodes keep their points
// and probes skip them: a probe's distance is to the next live point.
//
// Replicas are not in the paper: here they are the ring walk clockwise
// from the winning point, collecting distinct live nodes.
//
// Steps are incremental (multiprobe_delta.go): only the keys of nodes that
// lost a point or a list, and the keys an arriving point may capture, are
// probed again.
type Multiprobe struct {
	R      *Ring
	K      int
	points []uint32 // point positions, ascending
	next   []uint32 // for each point, the position of the first live point at or after it
	index  []uint32 // index[b]: first point at or after b·2^shift
	shift  uint
	last   multiprobePlaced // what the last assign or delta placed, for delta
}

func newMultiprobe(spec placer.RuleSpec, e *placer.Env) (*Multiprobe, error) {
	k := spec.Probes
	if k == 0 {
		k = defaultProbes
	}
	if k < 1 || k > maxProbes {
		return nil, fmt.Errorf("rule multiprobe: probes = %d must be between 1 and %d", k, maxProbes)
	}
	r, err := newRingChecked(placer.RuleSpec{Kind: spec.Kind, Hash: spec.Hash, VNodes: max(spec.VNodes, 1)}, e)
	if err != nil {
		return nil, err
	}
	return &Multiprobe{R: r, K: k}, nil
}

func (p *Multiprobe) Update(st *timeline.State) []string {
	notes := p.R.build(st, p.R.Vnodes)
	P := len(p.R.Pts)
	p.points = make([]uint32, P)
	p.next = make([]uint32, P)
	for j, pt := range p.R.Pts {
		p.points[j] = pt.Pos
	}
	// Two passes backwards find every point's next live point, wrapping.
	var nextLive uint32
	for pass := 0; pass < 2; pass++ {
		for j := P - 1; j >= 0; j-- {
			if p.R.Live[p.R.Pts[j].Node] {
				nextLive = p.points[j]
			}
			p.next[j] = nextLive
		}
	}
	p.buildIndex()
	if st.Op == timeline.OpVNodes {
		notes = append(notes, "multiprobe: vnodes steps do not apply (one point per unit of weight)")
	}
	return notes
}

// buildIndex buckets the circle into at least 4 buckets per point, each
// remembering its first point, so that a probe finds its successor in
// about one step.
func (p *Multiprobe) buildIndex() {
	bits := uint(8)
	for 1<<bits < 4*len(p.points) && bits < 22 {
		bits++
	}
	p.shift = 32 - bits
	p.index = make([]uint32, 1<<bits)
	j := 0
	for b := range p.index {
		for j < len(p.points) && p.points[j] < uint32(b)<<p.shift {
			j++
		}
		p.index[b] = uint32(j)
	}
}

// successor returns the first point at or after x, wrapping.
func (p *Multiprobe) successor(x uint32) int {
	j := int(p.index[x>>p.shift])
	for j < len(p.points) && p.points[j] < x {
		j++
	}
	if j == len(p.points) {
		return 0
	}
	return j
}

// best returns the point index that the key at h goes to: the point a
// probe lands on (or before) whose next live point is closest.
func (p *Multiprobe) best(h uint32) int {
	j, _ := p.bestDist(h)
	return j
}

// bestDist is best with the winning probe's distance to its next live
// point.
func (p *Multiprobe) bestDist(h uint32) (int, uint32) {
	d := keys.Fmix32(h+0x9e3779b9) | 1
	bestJ, bestD := 0, uint64(math.MaxUint64)
	x := h
	for range p.K {
		j := p.successor(x)
		if dist := uint64(p.next[j] - x); dist < bestD {
			bestJ, bestD = j, dist
		}
		x += d
	}
	return bestJ, uint32(bestD)
}

func (p *Multiprobe) Assign(lists [][]timeline.NodeID) {
	pref := p.R.Prefs(len(lists))
	pos := p.R.kc.Pos32()
	owner, dist := p.last.perKey(len(pos))
	for i, h := range pos {
		j, dd := p.bestDist(h)
		owner[i], dist[i] = pref[0][j], dd
		for r, l := range lists {
			l[i] = pref[r][j]
		}
	}
	p.last.set(p.R, pref)
}

func (p *Multiprobe) Probe(key string, R int) (uint64, []timeline.NodeID) {
	h := p.R.kc.Hash.Sum32([]byte(key))
	return uint64(h), p.R.walk(p.best(h), R, nil)
}

// Geometry samples the owner of a key whose hash is the wheel position,
// with the nodes' points.
func (p *Multiprobe) Geometry() ([]placer.Arc, []placer.Point) {
	arcs := placer.SampledArcs(placer.WheelSamples, func(h uint32) timeline.NodeID { return p.R.walk(p.best(h), 1, nil)[0] })
	return arcs, slices.Clone(p.R.Pts)
}

func (p *Multiprobe) Order() []uint32 { return p.R.Order() }
