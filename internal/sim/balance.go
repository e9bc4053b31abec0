package sim

import "github.com/ringreport/ringreport/internal/timeline"
import "math"

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
