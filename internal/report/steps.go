package report

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/text"
	"github.com/ringreport/ringreport/internal/timeline"
)

// stepSection builds the report section of step i.
func stepSection(res *sim.Result, i int, groups columnGroups) StepSection {
	st := &res.Timeline.States[i]
	sec := StepSection{
		Step:         i,
		Change:       change(res, i),
		Note:         st.Note,
		Members:      memberSummary(res, st),
		MemberCount:  len(st.Members),
		MembersShort: len(st.Members) > maxListed,
		Live:         st.Live(),
		Keys:         res.Keys.Len(),
		Weighted:     !text.EqualWeights(st),
		Replicas:     st.Replicas,
	}
	shown := tableMembers(res, i)
	sec.Loads = loadTable(res, i, shown)
	sec.Requests = stepRequests(res, i, shown)
	if i > 0 {
		sec.Transfers = stepTransfers(res, i)
		sec.Streams = stepStreams(res, i)
	}
	sec.ShowReplicas = listsLonger(res, i)
	sec.ShowHealth = groups[sim.ShowWithHealth]
	sec.ShowUnits = groups[sim.ShowWithUnits]
	metrics := stepMetrics(res, i, groups)
	sec.Columns = stepColumns(metrics)
	for r, rr := range res.Rules {
		row := stepRow(res, r, i)
		row.Cells = stepCells(res, r, i, metrics)
		sec.NoiseCV = row.NoiseCV
		sec.Rows = append(sec.Rows, row)
		for _, n := range rr.Steps[i].Notes {
			sec.Notes = append(sec.Notes, RuleNote{Label: rr.Spec.Label, Text: n})
		}
	}
	sec.Membership = Membership(st.Op)
	sec.Story = stepStory(res, i, &sec)
	return sec
}

// stepRow is rule r's row of step i.
func stepRow(res *sim.Result, r, i int) StepRow {
	sr := &res.Rules[r].Steps[i]
	b := res.Balance(r, i)
	opt, hasOpt := res.Optimum(r, i)
	return StepRow{
		Optimum:         opt,
		HasOptimum:      hasOpt,
		Label:           res.Rules[r].Spec.Label,
		Moved:           sr.Moved,
		Needed:          sr.Needed,
		Collateral:      sr.Collateral(),
		Ideal:           sr.Ideal,
		TotalMoved:      sr.TotalMoved,
		MovedFraction:   ratio(sr.Moved, res.Keys.Len()),
		PeakToMean:      b.PeakToMean,
		WorstDeviation:  b.WorstDeviation,
		CV:              b.CV,
		NoiseCV:         b.NoiseCV,
		Recurrence:      recurrence(sr),
		RecursTo:        sr.Recurs,
		ReplicaMoved:    sr.ReplicaMoved,
		Copies:          sr.Copies,
		UnderReplicated: sr.UnderReplicated,
		BelowQuorum:     sr.BelowQuorum,
		Unavailable:     sr.Unavailable,
		ZoneCollisions:  sr.ZoneCollisions,
		Repartitioned:   sr.Repartitioned,
	}
}

// maxLoadRows is the most members a step's load table lists in full;
// a larger cluster's table keeps the members sim.Result.Notable picks,
// loadExtremes most and least loaded under each rule, so that a hundred
// steps of a hundred nodes stay readable. data.json has every load.
const (
	maxLoadRows  = figdata.MaxListed
	loadExtremes = 2
)

// tableMembers returns the members of step i that its load tables list.
func tableMembers(res *sim.Result, i int) []timeline.Member {
	st := &res.Timeline.States[i]
	if len(st.Members) <= maxLoadRows {
		return st.Members
	}
	rules := make([]int, len(res.Rules))
	for r := range rules {
		rules[r] = r
	}
	return figdata.Notable(res, i, rules, loadExtremes, maxLoadRows-1)
}

// newLoadTable starts a load table of the given members of step i.
func newLoadTable(res *sim.Result, i int, shown []timeline.Member) LoadTable {
	st := &res.Timeline.States[i]
	t := LoadTable{Members: len(st.Members), Omitted: len(st.Members) - len(shown)}
	if t.Omitted > 0 {
		t.Scope = tableScope(st)
	}
	for _, rr := range res.Rules {
		t.Rules = append(t.Rules, rr.Spec.Label)
	}
	return t
}

// tableScope says which members a shortened load table of st keeps.
func tableScope(st *timeline.State) string {
	failed, other := 0, ""
	for _, m := range st.Members {
		switch {
		case m.Failed && slices.Contains(st.Named, m.ID):
			other = "other "
		case m.Failed:
			failed++
		}
	}
	var parts []string
	switch n := len(st.Named); {
	case n == 1:
		parts = append(parts, "the node the step acts on")
	case n > 1:
		parts = append(parts, "the "+text.Count(n)+" nodes the step acts on")
	}
	switch {
	case failed == 1:
		parts = append(parts, "the "+other+"failed node")
	case failed > 1:
		parts = append(parts, "the "+text.Count(failed)+" "+other+"failed nodes")
	}
	parts = append(parts, fmt.Sprintf("the %d most and %d least loaded under each rule", loadExtremes, loadExtremes))
	return text.List(parts)
}

// loadTable shows the keys of the members shown under every rule after
// step i.
func loadTable(res *sim.Result, i int, shown []timeline.Member) LoadTable {
	t := newLoadTable(res, i, shown)
	for _, m := range shown {
		share := res.FairShare(m.ID, i)
		row := LoadRow{Node: res.Timeline.Nodes[m.ID], Failed: m.Failed, Weight: m.Weight, Share: share}
		for _, rr := range res.Rules {
			keys := rr.Steps[i].Loads[m.ID]
			cell := LoadCell{Keys: keys}
			if share > 0 {
				cell.Deviation = (float64(keys) - share) / share
			}
			row.Cells = append(row.Cells, cell)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// probeKeys returns the scenario's probe keys without repeats, with the
// index of each key's first occurrence.
func probeKeys(s *sim.Scenario) (keys []string, index []int) {
	for i, k := range s.Probes {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
			index = append(index, i)
		}
	}
	return keys, index
}

// probeTable tracks the probe keys at each of steps, or returns nil when
// the scenario has none.
func probeTable(res *sim.Result, steps []int) *ProbeTable {
	keys, index := probeKeys(res.Scenario)
	if len(keys) == 0 {
		return nil
	}
	t := &ProbeTable{}
	for _, k := range keys {
		for _, rr := range res.Rules {
			t.Columns = append(t.Columns, ProbeColumn{Key: shownKey(k), Rule: rr.Spec.Label})
		}
	}
	for _, i := range steps {
		row := ProbeRow{Step: i, Change: change(res, i)}
		for _, p := range index {
			for _, rr := range res.Rules {
				row.Cells = append(row.Cells, probeCell(res, rr.Steps, i, p))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// probeCell is probe p of one rule at step i.
func probeCell(res *sim.Result, steps []sim.StepResult, i, p int) ProbeCell {
	pr := steps[i].Probes[p]
	c := ProbeCell{Position: pr.Position, Text: pr.Text, Owners: nodeNames(res, pr.Owners)}
	if i > 0 {
		c.Changed = primary(steps[i-1].Probes[p]) != primary(pr)
	}
	return c
}

// primary returns a probe's primary owner, or sim.NoNode.
func primary(p sim.Probe) timeline.NodeID {
	if len(p.Owners) == 0 {
		return timeline.NoNode
	}
	return p.Owners[0]
}

// nodeNames maps IDs to names, skipping empty slots; never nil.
func nodeNames(res *sim.Result, ids []timeline.NodeID) []string {
	out := []string{}
	for _, id := range ids {
		if id != timeline.NoNode {
			out = append(out, res.Timeline.Nodes[id])
		}
	}
	return out
}

// maxStreamRows is the most nodes a step's streaming table lists.
const maxStreamRows = 12

// stepStreams is every rule's replica streaming at step i, for the rules
// that made copies.
func stepStreams(res *sim.Result, i int) []StepStreams {
	var out []StepStreams
	for _, rr := range res.Rules {
		sr := &rr.Steps[i]
		st := sr.Streams
		if st == nil || sr.Copies == 0 {
			continue
		}
		ss := StepStreams{Label: rr.Spec.Label, Copies: sr.Copies, Unsourced: st.Unsourced}
		var rows []StreamRow
		zones := map[string]*StreamRow{}
		var zoneOrder []string
		for id, name := range res.Timeline.Nodes {
			in, sent := st.Received[id], st.Sent[id]
			if in+sent == 0 {
				continue
			}
			rows = append(rows, StreamRow{Name: name, Received: in, Sent: sent})
			if z := res.Timeline.Labels[id].Zone; z != "" {
				if zones[z] == nil {
					zones[z] = &StreamRow{Name: z}
					zoneOrder = append(zoneOrder, z)
				}
				zones[z].Received += in
				zones[z].Sent += sent
			}
		}
		slices.SortStableFunc(rows, func(a, b StreamRow) int { return b.Received - a.Received })
		if len(rows) > 0 {
			ss.Busiest, ss.BusiestShare = rows[0].Name, ratio(rows[0].Received, sr.Copies)
		}
		if len(rows) > maxStreamRows {
			rows, ss.More = rows[:maxStreamRows], len(rows)-maxStreamRows
		}
		ss.Nodes = rows
		for _, z := range zoneOrder {
			ss.Zones = append(ss.Zones, *zones[z])
		}
		out = append(out, ss)
	}
	return out
}
