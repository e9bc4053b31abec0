package sim

import (
	"math"
	"math/bits"

	"github.com/ringreport/ringreport/internal/timeline"
)

// ideal returns the fewest key moves that take the loads a (by NodeID)
// to a split of k keys over the live members of st in which every live
// node i holds ⌊T_i⌋ or ⌈T_i⌉ keys, T_i = k·w_i/Σw. Keys on nodes that are
// not live must all move; a live node above its share must shed the
// excess; the k − Σ⌊T_i⌋ rounded-up shares go to over-full nodes first.
func ideal(a []int, st *timeline.State, k int) int {
	w := totalWeight(st)
	live := make([]bool, len(a))
	excess, eligible := 0, 0
	rem := k
	for _, m := range st.Members {
		if m.Failed {
			continue
		}
		live[m.ID] = true
		floor := k * m.Weight / w
		rem -= floor
		if a[m.ID] > floor {
			excess += a[m.ID] - floor
			if k*m.Weight%w != 0 {
				eligible++
			}
		}
	}
	for id, load := range a {
		if !live[id] {
			excess += load
		}
	}
	return excess - min(rem, eligible)
}

// Optimum returns the classic optimum of rule r's step i, the moves a
// perfectly balanced rule that moves nothing it need not would make, and
// false where it is not defined: at step 0 and at reconfigurations
// (vnodes, replicas, partitions, shards), which change no node's fair
// share. It counts first choices, as moved does, whatever R is:
//
//   - add and recover: the joining nodes' fair share of the keys after the
//     step, K·w_J/W' (W' the live weight after), rounded to the nearest
//     whole key, halves up;
//   - remove and fail: the keys the leaving nodes held before the step
//     under this rule, which every rule must move;
//   - weight: the shift of the fair shares, ½·Σ_i |T'_i − T_i| over the
//     nodes (T_i = K·w_i/W over the live ones, 0 for the others), rounded
//     the same way. For an add this shift is K·w_J/W' too.
//
// Envoy's load-balancer benchmarks (test/common/upstream/
// load_balancer_benchmark.cc) print the same optimum as a percentage:
// "optimal_percent_different" for a weight change is |s' − s| of the
// reweighted hosts' share of the weight, the shift above; for host loss,
// "host_loss_over_N_optimal" is the lost hosts over all hosts, their fair
// share rather than the keys they held, which is what a rule of uneven
// loads must move.
func (res *Result) Optimum(r, i int) (int, bool) {
	if i == 0 {
		return 0, false
	}
	prev, st := &res.Timeline.States[i-1], &res.Timeline.States[i]
	switch st.Op {
	case timeline.OpRemove, timeline.OpFail:
		return leavingLoad(res.Rules[r].Steps[i-1].Loads, prev, st), true
	case timeline.OpAdd, timeline.OpRecover, timeline.OpWeight:
		return shareShift(prev, st, len(res.Timeline.Nodes), res.Keys.Len()), true
	}
	return 0, false
}

// leavingLoad sums the loads a of the nodes live in prev and not in st.
// It marks st's live nodes by id first rather than look each member of
// prev up in st, which took n² a remove or failure (a fifth of a build
// over 10⁴ nodes).
func leavingLoad(a []int, prev, st *timeline.State) int {
	liveNow := make([]bool, len(a)) // a has a load for every node id
	for _, m := range st.Members {
		liveNow[m.ID] = !m.Failed
	}
	n := 0
	for _, m := range prev.Members {
		if !m.Failed && !liveNow[m.ID] {
			n += a[m.ID]
		}
	}
	return n
}

// shareShift returns ½·Σ_i |T'_i − T_i| for k keys, the fair shares over
// the live members of prev (T) and st (T'), to the nearest whole key,
// halves up. With W and W' the live weights, the sum is k·P/(W·W'), P the
// positive part of Σ_i (w'_i·W − w_i·W'); it is computed in 128 bits.
func shareShift(prev, st *timeline.State, nodes, k int) int {
	wa, wb := liveWeights(prev, nodes), liveWeights(st, nodes)
	ta, tb := uint64(totalWeight(prev)), uint64(totalWeight(st))
	switch {
	case tb == 0:
		return 0
	case ta == 0: // nothing was live: every key needs a node
		return k
	}
	var p uint64
	for id := range wa {
		if d, e := wb[id]*ta, wa[id]*tb; d > e {
			p += d - e
		}
	}
	hi, lo := bits.Mul64(uint64(k), p)
	d := ta * tb
	lo, carry := bits.Add64(lo, d/2, 0)
	q, _ := bits.Div64(hi+carry, lo, d)
	return int(q)
}

// liveWeights returns the weight of every live member of st by timeline.NodeID, 0
// for the others, over a node table of n names.
func liveWeights(st *timeline.State, n int) []uint64 {
	w := make([]uint64, n)
	for _, m := range st.Members {
		if !m.Failed {
			w[m.ID] = uint64(m.Weight)
		}
	}
	return w
}

// totalWeight returns the summed weight of the live members of st.
func totalWeight(st *timeline.State) int {
	w := 0
	for _, m := range st.Members {
		if !m.Failed {
			w += m.Weight
		}
	}
	return w
}

// Balance holds the imbalance figures of one rule at one step, over the
// live nodes, with x_i = B_i / T_i the load relative to the fair share.
type Balance struct {
	// PeakToMean is max_i x_i.
	PeakToMean float64
	// WorstDeviation is max_i |x_i − 1|.
	WorstDeviation float64
	// CV is the population standard deviation of the x_i.
	CV float64
	// NoiseCV is the CV that a perfectly random assignment with the same
	// shares shows on K keys: √((1/n)·Σ(1−p_i)/(K·p_i)), p_i = w_i/Σw,
	// which is √((n−1)/K) for equal weights.
	NoiseCV float64
}

// Balance returns the imbalance figures of rule r at step i.
func (res *Result) Balance(r, i int) Balance {
	st := &res.Timeline.States[i]
	loads := res.Rules[r].Steps[i].Loads
	return balance(loads, st, res.Keys.Len())
}

// LoadShare returns node id's keys under rule r at step i over its fair
// share, B_i / T_i: 1 is exactly its share. It is 0 when the node is not
// live.
func (res *Result) LoadShare(r, i int, id timeline.NodeID) float64 {
	share := res.FairShare(id, i)
	if share == 0 {
		return 0
	}
	return float64(res.Rules[r].Steps[i].Loads[id]) / share
}

// FairShares returns FairShare of every member of step i, in the order
// of the state's Members: one pass, where a FairShare per member would
// look each up and sum the weights again, n² at n nodes.
func (res *Result) FairShares(i int) []float64 {
	st := &res.Timeline.States[i]
	k, w := float64(res.Keys.Len()), float64(totalWeight(st))
	out := make([]float64, len(st.Members))
	for j, m := range st.Members {
		if !m.Failed {
			out[j] = k * float64(m.Weight) / w
		}
	}
	return out
}

// LoadShares returns LoadShare of every member of step i under rule r,
// in the order of the state's Members, in one pass.
func (res *Result) LoadShares(r, i int) []float64 {
	loads := res.Rules[r].Steps[i].Loads
	out := res.FairShares(i)
	for j, m := range res.Timeline.States[i].Members {
		if out[j] != 0 {
			out[j] = float64(loads[m.ID]) / out[j]
		}
	}
	return out
}

// FairShare returns T_i, node id's fair share of the keys at step i, or 0
// when it is not live.
func (res *Result) FairShare(id timeline.NodeID, i int) float64 {
	st := &res.Timeline.States[i]
	m, ok := st.Member(id)
	if !ok || m.Failed {
		return 0
	}
	return float64(res.Keys.Len()) * float64(m.Weight) / float64(totalWeight(st))
}

func balance(loads []int, st *timeline.State, k int) Balance {
	w := float64(totalWeight(st))
	var xs []float64
	var b Balance
	noise := 0.0
	for _, m := range st.Members {
		if m.Failed {
			continue
		}
		p := float64(m.Weight) / w
		x := float64(loads[m.ID]) / float64(float64(k)*p)
		xs = append(xs, x)
		b.PeakToMean = max(b.PeakToMean, x)
		b.WorstDeviation = max(b.WorstDeviation, math.Abs(x-1))
		noise += float64(1-p) / float64(float64(k)*p)
	}
	b.CV = stddev(xs)
	b.NoiseCV = math.Sqrt(noise / float64(len(xs)))
	return b
}

// RequestBalance returns the request-load figures of rule r at step i,
// with x_i = R_i / (Requests · w_i/Σw) the node's requests relative to its
// fair share of all requests, over the live nodes (PeakToMean,
// WorstDeviation and CV; NoiseCV is 0), and false when the key set
// carries no weights.
func (res *Result) RequestBalance(r, i int) (Balance, bool) {
	reqs := res.Rules[r].Steps[i].Requests
	if reqs == nil || res.Keys.Requests == 0 {
		return Balance{}, false
	}
	st := &res.Timeline.States[i]
	w := float64(totalWeight(st))
	var b Balance
	var xs []float64
	for _, m := range st.Members {
		if m.Failed {
			continue
		}
		x := float64(reqs[m.ID]) / float64(float64(res.Keys.Requests)*float64(m.Weight)/w)
		xs = append(xs, x)
		b.PeakToMean = max(b.PeakToMean, x)
		b.WorstDeviation = max(b.WorstDeviation, math.Abs(x-1))
	}
	b.CV = stddev(xs)
	return b, true
}

// RequestShare returns node id's fair share of the requests at step i,
// Requests·w_i/Σw, or 0 when it is not live.
func (res *Result) RequestShare(id timeline.NodeID, i int) float64 {
	if res.Keys.Len() == 0 {
		return 0
	}
	return res.FairShare(id, i) * float64(res.Keys.Requests) / float64(res.Keys.Len())
}

// stddev is the population standard deviation of xs, summed in order.
func stddev(xs []float64) float64 {
	n := float64(len(xs))
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= n
	v := 0.0
	for _, x := range xs {
		d := x - mean
		v += float64(d * d)
	}
	return math.Sqrt(v / n)
}
