package svg

// The share wheel: what the wheel of a rule without arcs draws. Such a
// rule (its registry entry says Mosaic: modulo, jump, rendezvous,
// maglev, multiprobe and the profiles built on them) changes owner from
// one key hash to the next, so a wheel sampled by hash is a uniform blur.
// Its structure is a list of buckets or table entries by node; the share
// wheel is that list bent round: each live node's share of the keys, in
// join order, and after step 0 the keys each node received in the step.

import (
	"math"

	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/strips"
	"github.com/ringreport/ringreport/internal/timeline"
)

// segment is one live node's part of a share wheel, in fractions of a
// turn.
type segment struct {
	id       timeline.NodeID
	from, to float64
}

// shareSegments returns the live members of step i in join order, each
// with its share of the keys under rule r, end to end from the top.
func shareSegments(res *sim.Result, r, i int) []segment {
	loads := res.Rules[r].Steps[i].Loads
	k := float64(res.Keys.Len())
	var out []segment
	sum := 0
	for _, m := range res.Timeline.States[i].Members {
		if m.Failed {
			continue
		}
		out = append(out, segment{m.ID, float64(sum) / k, float64(sum+loads[m.ID]) / k})
		sum += loads[m.ID]
	}
	return out
}

// shareWheel draws rule r's share wheel at step i: the segments in their
// nodes' colours, cut apart, and after step 0 an inner ring that fills
// from the start of each segment with the keys its node received in the
// step, by why (as the strips colour moved keys). A crowded wheel
// (crowdedShares) is drawn one pixel at a time (pixelSpans), and cut only
// between segments wide enough to show a cut.
func shareWheel(c *canvas, res *sim.Result, r, i int, cx, cy, rad float64) []segment {
	segs := shareSegments(res, r, i)
	nodes := len(res.Timeline.Nodes)
	l := 2 * math.Pi * rad
	crowded := crowdedShares(segs, l)
	spans := make([][]span, nodes)
	for _, s := range segs {
		spans[s.id] = append(spans[s.id], span{s.from, s.to})
	}
	if crowded {
		spans = pixelSpans(spans, l)
	}
	c.ring(cx, cy, rad, 16, spans, func(id timeline.NodeID) []string {
		return []string{attr("stroke", nodeColor(id)), attr("fill", "none")}
	})
	if len(segs) > 1 {
		for j, s := range segs {
			if crowded && !(wideSegment(s, l) && wideSegment(segs[(j+len(segs)-1)%len(segs)], l)) {
				continue
			}
			x0, y0 := polar(cx, cy, rad-9, s.from)
			x1, y1 := polar(cx, cy, rad+9, s.from)
			c.line(x0, y0, x1, y1, cls("cut"), attr("stroke-width", "1.5"))
		}
	}
	if i == 0 {
		return segs
	}
	got := receivedSpans(res, r, i, segs)
	ir := rad - 13
	if crowded {
		c.ring(cx, cy, ir, 5, receivedShades(got, 2*math.Pi*ir), func(cl timeline.NodeID) []string { return shadeStyle(int(cl)) })
		return segs
	}
	c.ring(cx, cy, ir, 5, got, func(why timeline.NodeID) []string {
		return []string{attr("stroke", reasonColors[why]), attr("fill", "none")}
	})
	return segs
}

// receivedShades draws the received keys of a crowded share wheel (got,
// by reason) one pixel of the inner ring (of length l) at a time, as
// changedShades draws what changed: each pixel in the colour of the
// reason that covers most of it, at the share of it covered, so that a
// node that received all its keys in the step shows even where its
// segment is a fraction of a pixel.
func receivedShades(got [][]span, l float64) [][]span {
	cover := make(pixelCover, int(math.Ceil(l)))
	for reason, ss := range got {
		for _, s := range ss {
			cover.add(reason, s.from, s.to)
		}
	}
	return cover.shades()
}

// minCutSegment is the shortest segment, in pixels, that a crowded share
// wheel cuts off from its neighbours: twice the cut's width, so that the
// cut leaves as much of the node's colour as it hides.
const minCutSegment = 3.0

// crowdedShares reports whether a share wheel of segments segs round a
// ring of length l is crowded: whether its segments are shorter than
// minCutSegment on average, so that cutting each from the next would
// paint the ring in the background colour, and a path and a cut per node
// would make the figure grow with its nodes rather than its pixels.
func crowdedShares(segs []segment, l float64) bool {
	return float64(len(segs))*minCutSegment > l
}

// wideSegment reports whether s is at least minCutSegment long on a ring
// of length l.
func wideSegment(s segment, l float64) bool { return (s.to-s.from)*l >= minCutSegment }

// receivedSpans returns, by reason, the parts of each segment that the
// keys its node received at step i cover, from the segment's start: a
// node that now holds only keys that moved to it is filled all round. It
// reads each node's keys received by reason (sim.Transfers.Received), so
// it costs a pass over the segments, whatever the pairs of the step.
func receivedSpans(res *sim.Result, r, i int, segs []segment) [][]span {
	received := res.Rules[r].Steps[i].Transfers.Received
	k := float64(res.Keys.Len())
	out := make([][]span, strips.NumReasons)
	if received == nil {
		return out
	}
	for _, s := range segs {
		at := s.from
		for reason, n := range received[s.id] {
			if n == 0 {
				continue
			}
			end := at + float64(n)/k
			out[reason] = append(out[reason], span{at, end})
			at = end
		}
	}
	return out
}

// moveReason returns why a key that moved from old to new at the step of
// st moved, as sim's strips count it: to a node that joined or recovered
// in the step, off one that left or failed in it, or else collateral.
func moveReason(st *timeline.State) func(old, new timeline.NodeID) timeline.NodeID {
	joined := st.Op == timeline.OpAdd || st.Op == timeline.OpRecover
	left := st.Op == timeline.OpRemove || st.Op == timeline.OpFail
	named := map[timeline.NodeID]bool{}
	for _, id := range st.Named {
		named[id] = true
	}
	return func(old, new timeline.NodeID) timeline.NodeID {
		switch {
		case joined && named[new]:
			return strips.ReasonGained
		case left && named[old]:
			return strips.ReasonForced
		}
		return strips.ReasonCollateral
	}
}

// segmentAt returns where the k-th (from 0) of n probes whose primary is
// node id sits in its segment: n evenly spaced places, the middle for
// one.
func segmentAt(segs []segment, id timeline.NodeID, k, n int) float64 {
	for _, s := range segs {
		if s.id == id {
			return s.from + (s.to-s.from)*float64(k+1)/float64(n+1)
		}
	}
	return 0
}
