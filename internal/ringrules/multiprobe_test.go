package ringrules

import (
	"testing"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestMultiprobeBrute: every key goes to the node whose live point
// follows one of its k probes most closely, by brute force over all
// points.
func TestMultiprobeBrute(t *testing.T) {
	nodes := []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 1}, {Name: "c", Weight: 1},
		{Name: "d", Weight: 1}, {Name: "e", Weight: 1}, {Name: "f", Weight: 1}}
	tl, errs := timeline.NewTimeline(4, nodes, 1, []timeline.Step{{Op: timeline.OpFail, Nodes: nodes[1:2]}})
	if len(errs) > 0 {
		t.Fatal(errs[0])
	}
	e := &placer.Env{Keys: keys.NewKeySet(keys.KeySpec{Count: 3000}, 4), Nodes: tl.Nodes}
	p, err := newMultiprobe(placer.RuleSpec{Kind: MultiprobeKind.Name, Probes: 5}, e)
	if err != nil {
		t.Fatal(err)
	}
	p.Update(&tl.States[0])
	p.Update(&tl.States[1])
	owners := [][]timeline.NodeID{make([]timeline.NodeID, e.Keys.Len())}
	p.Assign(owners)
	for i, h := range e.Keys.Pos {
		d := keys.Fmix32(h+0x9e3779b9) | 1
		best, bestD := timeline.NoNode, uint64(1<<33)
		for j := range uint32(5) {
			x := h + j*d
			for _, pt := range p.R.Pts {
				if dist := uint64(pt.Pos - x); p.R.Live[pt.Node] && dist < bestD {
					best, bestD = pt.Node, dist
				}
			}
		}
		if owners[0][i] != best {
			t.Fatalf("key %d: owner %d, brute force %d", i, owners[0][i], best)
		}
	}
}
