package sim

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ringreport/ringreport/internal/timeline"
)

// mapPairCounter is how pairs were counted above DenseTransferNodes
// before the sorted counter: a map from the packed pair, its keys sorted
// at the flush. BenchmarkPairCount keeps it as the baseline.
type mapPairCounter map[uint32]*Transfer

func (m mapPairCounter) add(from, to timeline.NodeID, w uint32) {
	key := uint32(from)<<16 | uint32(to)
	t := m[key]
	if t == nil {
		t = &Transfer{From: from, To: to}
		m[key] = t
	}
	t.Keys++
	t.Requests += int64(w)
}

func (m mapPairCounter) flush() []Transfer {
	var out []Transfer
	for _, key := range slices.Sorted(maps.Keys(m)) {
		out = append(out, *m[key])
	}
	clear(m)
	return out
}

// BenchmarkPairCount counts one step's moved keys by (from, to) pair and
// lists the pairs sorted, as a step of modulo over n nodes does (every
// key moves, between about min(n², moves) pairs): the map counter of
// before against the sorted one (radix passes over the node table), and
// the dense table where n allows it.
func BenchmarkPairCount(b *testing.B) {
	for _, c := range []struct{ nodes, moves int }{{1000, 1e5}, {1000, 1e6}, {10_000, 1e6}, {512, 1e6}} {
		rng := rand.New(rand.NewPCG(1, uint64(c.nodes)))
		from, to := make([]timeline.NodeID, c.moves), make([]timeline.NodeID, c.moves)
		for i := range from {
			from[i], to[i] = timeline.NodeID(rng.IntN(c.nodes)), timeline.NodeID(rng.IntN(c.nodes))
		}
		name := "nodes=" + strconv.Itoa(c.nodes) + "/moves=" + strconv.Itoa(c.moves)
		b.Run(name+"/counter=map", func(b *testing.B) {
			m := mapPairCounter{}
			for b.Loop() {
				for i := range from {
					m.add(from[i], to[i], 1)
				}
				m.flush()
			}
		})
		counter := "sorted"
		if c.nodes <= DenseTransferNodes {
			counter = "dense"
		}
		b.Run(name+"/counter="+counter, func(b *testing.B) {
			p := newPairCounter(c.nodes)
			for b.Loop() {
				for i := range from {
					p.add(from[i], to[i], 1)
				}
				p.flush(nil)
			}
		})
	}
}
