package sim

import "github.com/ringreport/ringreport/internal/placer"
import "github.com/ringreport/ringreport/internal/timeline"
import "github.com/ringreport/ringreport/internal/strips"
import "github.com/ringreport/ringreport/internal/keys"
import "slices"

// fullMeasure computes step i's StepResult from scratch, in O(K·R), from
// the previous and current whole assignments (prev is nil at step 0) and
// the previous step's loads and total (pk keeps the transfers). It is the reference the tracker's
// incremental measurement must match, key for key; Replay uses it only
// under replayOptions.full, which the tests set.
func fullMeasure(res *Result, i int, prev, cur [][]timeline.NodeID, prevLoads []int, total int, rank []uint32, keepCounts bool, pk *pairKeeper) StepResult {
	nodes := res.Timeline.Nodes
	sr := StepResult{Loads: make([]int, len(nodes)), Recurs: -1}
	k := res.Keys.Len()
	for key, o := range cur[0] {
		sr.Loads[o]++
		sr.Fingerprint += keys.Mix64(keys.NameHash64(nodes[o]) + uint64(key)*0x9e3779b97f4a7c15)
	}
	sr.UnderReplicated = placer.CountNoNode(cur[len(cur)-1])
	counts := strips.NewCounts(k)
	if i > 0 {
		fullCompare(res, i, prev, cur, rank, &sr, counts)
		sr.Needed = halfAbsDiff(prevLoads, sr.Loads)
		sr.Ideal = ideal(prevLoads, &res.Timeline.States[i], k)
	}
	var prev0 []timeline.NodeID
	var before, after []bool
	if prev != nil {
		prev0 = prev[0]
		n := len(nodes)
		before, after = liveSet(&res.Timeline.States[i-1], n), liveSet(&res.Timeline.States[i], n)
	}
	fullTransfers(res, i, prev0, cur[0], before, after, pk, &sr)
	sr.TotalMoved = total + sr.Moved
	sr.Strip = counts.Shade(k)
	if keepCounts {
		sr.counts = counts
	}
	return sr
}

// fullCompare counts moved keys by reason into the strip, and replica
// changes.
func fullCompare(res *Result, i int, prev, cur [][]timeline.NodeID, rank []uint32, sr *StepResult, strip *strips.Counts) {
	states, n := res.Timeline.States, len(res.Timeline.Nodes)
	before, after := liveSet(&states[i-1], n), liveSet(&states[i], n)
	cells, k := uint64(len(strip.KeyOrder)), uint64(res.Keys.Len())
	for key := range cur[0] {
		old, now := prev[0][key], cur[0][key]
		if old == now {
			continue
		}
		sr.Moved++
		why := strips.ReasonCollateral
		switch {
		case !after[old]:
			why = strips.ReasonForced
		case !before[now]:
			why = strips.ReasonGained
		}
		strip.KeyOrder[uint64(res.Keys.Gen[key])*cells/k][why]++
		h := uint64(key)
		if rank != nil {
			h = uint64(rank[key])
		}
		strip.HashOrder[h*cells/k][why]++
	}
	if len(prev) > 1 || len(cur) > 1 {
		sr.Streams = newStreams(n)
	}
	sr.ReplicaMoved, sr.Copies = replicaChanges(prev, cur, after, sr.Streams)
}

// replicaChanges counts keys whose replica set changed and the copies
// that the new sets need, into streams when it is not nil.
func replicaChanges(prev, cur [][]timeline.NodeID, after []bool, streams *Streams) (changed, copies int) {
	oldSet := make([]timeline.NodeID, 0, len(prev))
	for k := range cur[0] {
		oldSet = oldSet[:0]
		for _, l := range prev {
			if l[k] != timeline.NoNode {
				oldSet = append(oldSet, l[k])
			}
		}
		n, live := 0, 0
		for _, l := range cur {
			if l[k] != timeline.NoNode {
				live++
				if !slices.Contains(oldSet, l[k]) {
					n++
					if streams != nil {
						streams.count(l[k], oldSet, after)
					}
				}
			}
		}
		if n > 0 || live != len(oldSet) {
			changed++
		}
		copies += n
	}
	return changed, copies
}
