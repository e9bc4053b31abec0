package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/timeline"
)

// MaxTransferPairs is the most from → to pairs a step's transfer list
// shows per rule; data.json has them all.
const MaxTransferPairs = 12

// requestSource says where the request counts come from, or "".
func requestSource(res *sim.Result) string {
	ks := res.Scenario.Keys
	switch {
	case ks.Zipf > 0:
		req := ks.Requests
		if req == 0 {
			req = keys.DefaultZipfRequests
		}
		return fmt.Sprintf("Zipf-distributed with exponent s = %s: the key of popularity rank r gets round(%s · r^−s / H) requests (ranks shuffled by the seed), %s requests in all",
			strconv.FormatFloat(ks.Zipf, 'f', -1, 64), count(int(req)), count(int(res.Keys.Requests)))
	case ks.Weights != nil:
		return fmt.Sprintf("read from the keys file (key,weight lines), %s requests in all", count(int(res.Keys.Requests)))
	}
	return ""
}

// requestSummary is the request load at the last step and the hot keys,
// or nil when the keys carry no weights.
func requestSummary(res *sim.Result) *RequestSummary {
	if res.Keys.Weight == nil {
		return nil
	}
	last := len(res.Timeline.States) - 1
	rs := &RequestSummary{Total: int(res.Keys.Requests), Last: last}
	for r, rr := range res.Rules {
		rs.Rules = append(rs.Rules, rr.Spec.Label)
		rs.Rows = append(rs.Rows, requestRow(res, r, last))
	}
	for j, k := range res.Keys.Hot {
		h := HotKey{Rank: j + 1, Key: shownKey(res.Keys.Name(k)), Requests: int(res.Keys.Weight[k]),
			Share: float64(res.Keys.Weight[k]) / float64(res.Keys.Requests)}
		for _, rr := range res.Rules {
			h.Cells = append(h.Cells, hotCell(res, rr.Steps, j))
		}
		rs.Hot = append(rs.Hot, h)
	}
	return rs
}

// requestRow is rule r's request balance at step i, with its busiest
// node: the greatest requests over fair share, ties in join order.
func requestRow(res *sim.Result, r, i int) RequestRow {
	sr := &res.Rules[r].Steps[i]
	b, _ := res.RequestBalance(r, i)
	row := RequestRow{Label: res.Rules[r].Spec.Label, PeakToMean: b.PeakToMean, WorstDeviation: b.WorstDeviation,
		KeyPeakToMean: res.Balance(r, i).PeakToMean}
	best := -1.0
	if res.Keys.Len() == 0 {
		return row
	}
	fair := res.FairShares(i)
	for j, m := range res.Timeline.States[i].Members {
		share := fair[j] * float64(res.Keys.Requests) / float64(res.Keys.Len()) // RequestShare
		if share == 0 {
			continue
		}
		if x := float64(sr.Requests[m.ID]) / share; x > best {
			best = x
			row.Busiest, row.Requests, row.RequestRatio = res.Timeline.Nodes[m.ID], int(sr.Requests[m.ID]), x
			row.Keys = sr.Loads[m.ID]
			row.KeyRatio = float64(sr.Loads[m.ID]) / fair[j]
		}
	}
	return row
}

// hotCell follows hot key j under one rule over the steps.
func hotCell(res *sim.Result, steps []sim.StepResult, j int) HotCell {
	name := func(id timeline.NodeID) string { return res.Timeline.Nodes[id] }
	c := HotCell{First: name(steps[0].HotOwners[j]), Owner: name(steps[len(steps)-1].HotOwners[j])}
	for i := 1; i < len(steps); i++ {
		if steps[i].HotOwners[j] != steps[i-1].HotOwners[j] {
			c.Moves++
		}
	}
	return c
}

// stepRequests is step i's request figures, or nil when unweighted.
func stepRequests(res *sim.Result, i int, shown []timeline.Member) *StepRequests {
	if res.Keys.Weight == nil {
		return nil
	}
	sq := &StepRequests{Loads: newLoadTable(res, i, shown)}
	for r, rr := range res.Rules {
		sr := &rr.Steps[i]
		b, _ := res.RequestBalance(r, i)
		sq.Rows = append(sq.Rows, StepRequestRow{Label: rr.Spec.Label, Moved: int(sr.MovedRequests),
			MovedFraction: float64(sr.MovedRequests) / float64(res.Keys.Requests), PeakToMean: b.PeakToMean, WorstDeviation: b.WorstDeviation})
	}
	for _, m := range shown {
		share := res.RequestShare(m.ID, i)
		row := LoadRow{Node: res.Timeline.Nodes[m.ID], Failed: m.Failed, Weight: m.Weight, Share: share}
		for _, rr := range res.Rules {
			n := rr.Steps[i].Requests[m.ID]
			cell := LoadCell{Keys: int(n)}
			if share > 0 {
				cell.Deviation = (float64(n) - share) / share
			}
			row.Cells = append(row.Cells, cell)
		}
		sq.Loads.Rows = append(sq.Loads.Rows, row)
	}
	return sq
}

// stepTransfers lists each rule's largest transfers at step i; rules
// that moved nothing are left out. They come from the step's largest
// pairs (sim.Transfers.Top, at least MaxTransferPairs of them), which the
// same rule ranks: by keys, ties to the earlier pair in node-table order.
func stepTransfers(res *sim.Result, i int) []StepTransfers {
	var out []StepTransfers
	for _, rr := range res.Rules {
		tr := &rr.Steps[i].Transfers
		if len(tr.Top) == 0 {
			continue
		}
		ts := slices.Clone(tr.Top)
		slices.SortStableFunc(ts, func(a, b sim.Transfer) int { return cmp.Compare(b.Keys, a.Keys) })
		st := StepTransfers{Label: rr.Spec.Label, More: tr.Rest.Pairs, MoreKeys: tr.Rest.Keys}
		for j, t := range ts {
			if j >= MaxTransferPairs {
				st.More++
				st.MoreKeys += t.Keys
				continue
			}
			st.Pairs = append(st.Pairs, TransferPair{From: res.Timeline.Nodes[t.From], To: res.Timeline.Nodes[t.To],
				Keys: t.Keys, Requests: int(t.Requests)})
		}
		out = append(out, st)
	}
	return out
}

// The report's largest pairs are among those sim keeps by name: the
// array's length is negative, and the build fails, if they are more.
var _ [sim.TopTransfers - MaxTransferPairs]struct{}

// transferTable sums every node's transfers in and out over the run.
func transferTable(res *sim.Result) TransferTable {
	t := TransferTable{Weighted: res.Keys.Weight != nil}
	n := len(res.Timeline.Nodes)
	cells := make([][]TransferCell, n)
	for id := range cells {
		cells[id] = make([]TransferCell, len(res.Rules))
	}
	for r, rr := range res.Rules {
		t.Rules = append(t.Rules, rr.Spec.Label)
		for id, nt := range rr.NodeTransfers {
			cells[id][r] = TransferCell{In: nt.In, Out: nt.Out, InReqs: int(nt.InRequests), OutReqs: int(nt.OutRequests)}
		}
	}
	for id, name := range res.Timeline.Nodes {
		t.Rows = append(t.Rows, TransferRow{Node: name, Cells: cells[id]})
	}
	return t
}
