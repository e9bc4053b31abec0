package ringrules

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// BoundedKind is the bounded-load rule's registry entry.
var BoundedKind = rulekind.Kind{Name: "bounded", HistoryFree: true, Doc: "Consistent hashing with bounded loads (Mirrokni et al. 2018): no node holds more than (1+epsilon) times the mean.",
	Params:    []rulekind.Param{paramVNodes.WithDefault(strconv.Itoa(placer.DefaultVNodes)), paramEpsilon, rulekind.HashParam},
	Footprint: rulekind.Footprint{Table: vnodeTable, Points: true, StepPoints: true},
	Build:     func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newBounded(s, e)) }}

var paramEpsilon = rulekind.FloatField(rulekind.Param{Name: "epsilon", Type: rulekind.ParamFloat, Max: maxEpsilon, Default: strconv.FormatFloat(DefaultEpsilon, 'f', -1, 64),
	Doc:    "Load bound: no node holds more than (1 + epsilon) times the mean.",
	Prefix: "ε = "},
	func(s *placer.RuleSpec) *float64 { return &s.Epsilon })

// DefaultEpsilon is the slack ε of a bounded rule that names none.
const DefaultEpsilon = 0.25

// maxEpsilon bounds the slack a bounded rule may ask for.
const maxEpsilon = 1000

// bounded is consistent hashing with bounded loads (Mirrokni, Thorup,
// Zadimoghaddam, "Consistent Hashing with Bounded Loads", SODA 2018): the
// points are the ring rule's (VNodes per unit of weight, the rule's hash,
// vnodes steps apply), and every live node i may hold at most
//
//	c_i = ⌈(1+ε)·K·w_i/Σw⌉ keys (⌈(1+ε)·K/n⌉ with equal weights),
//
// ε = Epsilon (default 0.25), taken to six decimals so that capacities are
// integer arithmetic. Keys are placed one at a time in ascending position
// under the rule's hash (the canonical key order for the default hash),
// each walking clockwise from its position to the first point of a live
// node with room. Σc_i ≥ (1+ε)·K > K, so every key finds room (update
// still checks, and would say "infeasible").
//
// The assignment is a function of the live set and weights, not of
// history, so a step can move keys between nodes that stayed once a
// capacity binds (a cascade of overflows; the paper analyses how far such
// cascades reach). Failed nodes keep their points but get no capacity, so
// walks pass them. Steps are incremental all the same (bounded_delta.go):
// until the first node fills the placement is the ring's, so a step diffs
// the rings up to there and places only the keys from there on again.
//
// Replicas are not in the paper: here they are the ring walk clockwise
// from the point where the key found room (capacities bound owners only).
// Geometry draws the ring's unbounded arcs: where a key goes when its
// first node has room.
type bounded struct {
	r      *Ring
	eps    uint64 // (1+ε)·10⁶
	cap    []int  // by NodeID, 0 when not live
	sum    int    // Σ cap
	fullAt []int  // by NodeID: rank of the key that filled it, or K
	last   boundedPlaced
}

// EpsScale is the fixed-point scale of ε.
const EpsScale = 1_000_000

func newBounded(spec placer.RuleSpec, e *placer.Env) (*bounded, error) {
	eps := spec.Epsilon
	if eps == 0 {
		eps = DefaultEpsilon
	}
	if !(eps > 0 && eps <= maxEpsilon) {
		return nil, fmt.Errorf("rule bounded: epsilon = %v must be above 0 and at most %d", spec.Epsilon, maxEpsilon)
	}
	r, err := newRingChecked(spec, e)
	if err != nil {
		return nil, err
	}
	return &bounded{r: r, eps: EpsScale + uint64(math.Round(eps*EpsScale))}, nil
}

func (b *bounded) Update(st *timeline.State) []string {
	notes := b.r.Update(st)
	live := placer.LiveList(st)
	W := uint64(0)
	for _, m := range live {
		W += uint64(m.Weight)
	}
	K := uint64(b.r.Env.Keys.Len())
	b.cap, b.sum = make([]int, len(b.r.Env.Nodes)), 0
	for _, m := range live {
		b.cap[m.ID] = int(ceilMulDiv(b.eps*K, uint64(m.Weight), EpsScale*W))
		b.sum += b.cap[m.ID]
	}
	if b.sum < int(K) {
		notes = append(notes, fmt.Sprintf("bounded: capacities sum to %d < %d keys: infeasible", b.sum, K))
	}
	return notes
}

// ceilMulDiv returns ⌈a·b/c⌉ without overflow for a·b < 2⁶⁴·c.
func ceilMulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, r := bits.Div64(hi, lo, c)
	if r != 0 {
		q++
	}
	return q
}

func (b *bounded) Assign(lists [][]timeline.NodeID) {
	pref := b.r.Prefs(len(lists))
	sorted := b.r.kc.SortedPos()
	perm, _ := b.r.kc.Order()
	w := b.newWalker()
	P := len(b.r.Pts)
	j := 0
	first, tail := len(sorted), []int32(nil) // see boundedPlaced
	for t, p := range sorted {
		i := keys.CanonicalAt(perm, t)
		for j < P && b.r.Pts[j].Pos < p {
			j++
		}
		c := w.place(j%P, t)
		for r, l := range lists {
			l[i] = pref[r][c]
		}
		if first == len(sorted) && w.fullAt[b.r.Pts[c].Node] == t {
			first = t
		}
		if first < len(sorted) {
			tail = append(tail, int32(c))
		}
	}
	b.fullAt = w.fullAt
	b.last = boundedPlaced{view: ringView{b.r.Pts, pref}, first: first, tail: tail, loads: w.load}
}

// walker finds, from a point, the first point of a live node with room.
// Points of dead or full nodes are closed; skip links each closed point
// toward the next open one (union-find with path halving, wrapping), so a
// placement costs near-constant amortized time however long the run of
// full nodes.
type walker struct {
	b      *bounded
	skip   []int32   // skip[j] == j when point j is open
	byNode [][]int32 // point indices of each NodeID
	load   []int
	fullAt []int
}

func (b *bounded) newWalker() *walker {
	P := len(b.r.Pts)
	n := len(b.cap)
	w := &walker{b: b, skip: make([]int32, P+1), byNode: make([][]int32, n), load: make([]int, n), fullAt: make([]int, n)}
	for id := range w.fullAt {
		w.fullAt[id] = b.r.Env.Keys.Len()
	}
	for j, pt := range b.r.Pts {
		w.skip[j] = int32(j)
		if b.cap[pt.Node] == 0 {
			w.skip[j] = int32(j + 1)
		}
		w.byNode[pt.Node] = append(w.byNode[pt.Node], int32(j))
	}
	w.skip[P] = int32(P)
	return w
}

// find returns the first open point at or after j, or len(pts).
func (w *walker) find(j int32) int32 {
	for w.skip[j] != j {
		w.skip[j] = w.skip[w.skip[j]]
		j = w.skip[j]
	}
	return j
}

// place puts the key of rank t at the first open point from j and
// returns that point.
func (w *walker) place(j, t int) int {
	P := int32(len(w.b.r.Pts))
	c := w.find(int32(j))
	if c == P {
		c = w.find(0)
	}
	if c == P {
		panic("bounded: no node has room") // impossible: Σ capacities > K
	}
	id := w.b.r.Pts[c].Node
	w.load[id]++
	if w.load[id] == w.b.cap[id] {
		w.fullAt[id] = t
		for _, p := range w.byNode[id] {
			w.skip[p] = p + 1
		}
	}
	return int(c)
}

// Probe places the key as one more key inserted just before the keys at
// or after its position: it walks from its point to the first live node
// that still had room at that moment (a node is full from the key that
// filled it on). A probe that is one of the keys gets that key's owner.
func (b *bounded) Probe(key string, R int) (uint64, []timeline.NodeID) {
	pos := b.r.kc.Hash.Sum32([]byte(key))
	t := lowerBound(b.r.kc.SortedPos(), pos)
	P := len(b.r.Pts)
	j := b.r.First(pos)
	for s := 0; s < P; s++ {
		id := b.r.Pts[(j+s)%P].Node
		if b.cap[id] > 0 && b.fullAt[id] >= t {
			return uint64(pos), b.r.walk((j+s)%P, R, nil)
		}
	}
	return uint64(pos), nil
}

func (b *bounded) Geometry() ([]placer.Arc, []placer.Point) { return b.r.Geometry() }

func (b *bounded) Order() []uint32 { return b.r.Order() }

// lowerBound returns the first index of a with a[j] ≥ x, or len(a).
func lowerBound(a []uint32, x uint32) int {
	lo, hi := 0, len(a)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if a[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
