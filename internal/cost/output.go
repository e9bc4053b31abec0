package cost

import (
	"github.com/ringreport/ringreport/internal/figdata"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/sim"
)

// The output terms, in bytes written. Each was fitted on builds of the
// shape that stresses it and rounded up.
const (
	// FixedBytes is what every scenario writes whatever its size: the
	// whole-run figures, the page's frame and style, the tables of the
	// Summary.
	FixedBytes = 1 << 20
	// StepFigureBytes is one step's figures of one rule beside its
	// wheel's arcs, for each step the report shows in full
	// (figdata.ShownSteps: every step up to figdata.DetailedSteps, then
	// that many): its strip, the wheel's frame, legend and labels, the
	// page's copies and the step's section of the page and report.md.
	// 1,001 states of ring (1,600 points) and modulo over 10 nodes wrote
	// 182 MB, 91 KB a state and rule; a ring drawn per pixel over 100
	// nodes, 70 KB a state (29 KB of figure, the rest the page's copy and
	// section).
	//
	// ArcBytes is one arc of a wheel, with its tick for a rule with points
	// (a ring), in the figure and the page's copy: 62 nodes of 160 ring
	// points (9,982 arcs and ticks) drew a wheel of 130 KB, 13 bytes an
	// arc, and modulo, jump, rendezvous and maglev over 1,440 nodes
	// (placer.WheelSamples arcs) wheels of 17 KB, 12 bytes an arc; the page
	// holds them again. A rule with points draws at most MaxArcs of them,
	// past which its arcs and ticks are drawn per pixel, in at most
	// PixelArcs runs (the cells of its two rings, 654 and 748 pixels
	// round); another rule's wheel is sampled, as many arcs as nodes or
	// samples.
	StepFigureBytes, ArcBytes, MaxArcs, PixelArcs = 64 << 10, 32, 10_000, 2_000
	// StateRuleBytes is one rule at any state, shown in full or not:
	// its metrics in data.json, its row of steps.csv, its cells in the
	// table of keys moved at each step (report.md and the page), and its
	// share of the whole-run figures drawn step by step (history,
	// deviation), inlined in the page too. 10⁴ states of ring over 11
	// nodes wrote 54.6 MB, of which 31.6 MB data.json (1.1 KB a state
	// beside its transfers), 4.3 MB history.svg and 5.7 MB the page.
	StateRuleBytes = 2 << 10
	// JSONPairs is report.MaxJSONTransfers, the most transfer pairs
	// data.json keeps per state and rule, and PairJSONBytes one of them
	// beside its two names (about 110 bytes indented, 140 with
	// requests). (cost cannot import report, whose tests parse
	// scenarios; report's TestCostMirrors keeps the two equal.)
	JSONPairs, PairJSONBytes = 100, 160
	// TransfersCSVBytes is report.TransfersCSVLimit: a build writes
	// transfers.csv only while it stays under it; PairBytes is one of
	// its rows beside the two names.
	TransfersCSVBytes, PairBytes = 5 << 20, 48
	// NodeStateBytes is one node at one state, beside its name: data.json's
	// member and live lists and one load per rule (loadEntries of them),
	// the wheel's legend. 10⁴ nodes over three states of two rules wrote
	// 3.9 MB of data.json, about 65 bytes a node and state beside its name.
	NodeStateBytes = 24
	// NodeRuleBytes is one node under one rule over the whole run: its
	// keys received and sent in data.json and the report, and its bars in
	// transfers.svg (2.1 MB for 10⁴ nodes and two rules) and on the page.
	NodeRuleBytes = 320
	// ProbeBytes is one probe under one rule at one state, beside its
	// owners: its position and the table row (data.json, report.md, the
	// page), and OwnerBytes one owner in its preference list beside the
	// node's name, in each of those three files.
	ProbeBytes, OwnerBytes = 3 * 64, 3 * 8
	// HotKeys is how many keys data.json writes whole, when keys have
	// request counts (its hot keys; the report and the page cut every key
	// at 200 bytes, and a build writes no owners.csv).
	HotKeys = 10
)

// outputBytes is the output of one scenario, by what builds it.
type outputBytes struct {
	// figures are the step figures, rendered one at a time; text is
	// everything else, which the page, report.md and data.json hold in
	// memory.
	figures, text int64
}

func (o outputBytes) total() int64 { return addSat(o.figures, o.text) }

// output estimates what the build of s writes.
func output(s *sim.Scenario, sh shape) outputBytes {
	rules := int64(len(s.Rules))
	loads := 2 + rules // nodes, live, and one load map per rule
	perState := mulSat(addSat(mulSat(sh.names, NodeStateBytes), sh.nameBytes), loads)
	var probes int64
	for _, p := range s.Probes {
		probes = addSat(probes, int64(len(p))+ProbeBytes)
	}
	// every probe's owners: replicas names each (at most the longest
	// list), in three files
	maxName := sh.nameBytes / max(sh.names, 1) * 2 // long names are common; err high
	owners := mulSat(int64(len(s.Probes)), sh.replicas, addSat(OwnerBytes, 3*maxName))
	perState = addSat(perState, mulSat(rules, addSat(probes, owners, StateRuleBytes, jsonPairs(sh))))
	text := addSat(FixedBytes, mulSat(perState, sh.states),
		mulSat(rules, addSat(mulSat(sh.names, NodeRuleBytes), mulSat(sh.nameBytes, 3))),
		hotKeys(s, sh), transfersCSV(s, sh))
	var figures int64
	for _, r := range s.Rules {
		figures = addSat(figures, mulSat(shownStates(sh), addSat(StepFigureBytes, wheelBytes(r, sh))))
	}
	return outputBytes{figures: figures, text: text}
}

// wheelBytes bounds one rule's wheel at one state beside its frame: its
// arcs (wheelArcs).
func wheelBytes(r placer.RuleSpec, sh shape) int64 {
	return mulSat(wheelArcs(r, sh), ArcBytes)
}

// wheelArcs bounds the arcs of one rule's wheel at one state: a point
// rule's points and arcs, or PixelArcs once past MaxArcs, where the wheel
// is drawn per pixel; another rule's sampled arcs, one per node at most,
// and no more than its samples.
func wheelArcs(r placer.RuleSpec, sh shape) int64 {
	rc, table := ruleCost(r, sh)
	if !rc.Points {
		return min(sh.names, placer.WheelSamples)
	}
	if arcs := addSat(table, sh.names); arcs <= MaxArcs {
		return arcs
	}
	return PixelArcs
}

// wheelWork is the work of drawing one rule's wheel at one state: its
// arcs (ArcWork), or, drawn per pixel, a pass over its points
// (PointDrawWork); a ring that may have MaxArcs points or fewer at some
// state (its members' least weight) and more at another counts both.
func wheelWork(r placer.RuleSpec, sh shape) int64 {
	rc, table := ruleCost(r, sh)
	arcs := addSat(table, sh.names)
	if !rc.Points || arcs <= MaxArcs {
		return mulSat(wheelArcs(r, sh), ArcWork)
	}
	w := mulSat(arcs, PointDrawWork)
	if fewest := mulSat(table, max(sh.steps.members, 0)) / max(sh.weight, 1); fewest <= MaxArcs {
		w = addSat(w, mulSat(MaxArcs, ArcWork))
	}
	return w
}

// shownStates is how many states the report shows in full, with their
// figures: every state up to figdata.DetailedSteps steps after the start,
// and the start and that many beyond (figdata.ShownSteps).
func shownStates(sh shape) int64 { return min(sh.states, figdata.DetailedSteps+1) }

// jsonPairs bounds the transfer pairs data.json writes for one rule at
// one state: at most JSONPairs, and no more than there are pairs of
// nodes or keys to move.
func jsonPairs(sh shape) int64 {
	pairs := min(mulSat(sh.names, sh.names), sh.keys, JSONPairs)
	return mulSat(pairs, addSat(PairJSONBytes, 2*sh.nameBytes/max(sh.names, 1)*2)) // long names are common; err high
}

// hotKeys bounds the keys data.json writes whole.
func hotKeys(s *sim.Scenario, sh shape) int64 {
	if !s.Keys.Weighted() {
		return 0
	}
	return mulSat(sh.keyBytes, HotKeys)
}

// transfersCSV bounds transfers.csv: a row per (step, rule, from, to)
// pair of moved keys (statePairs), while it stays under
// TransfersCSVBytes.
func transfersCSV(s *sim.Scenario, sh shape) int64 {
	var pairs int64
	for _, spec := range s.Rules {
		rc, _ := ruleCost(spec, sh)
		pairs = addSat(pairs, statePairs(sh, rc))
	}
	row := PairBytes + 2*sh.nameBytes/max(sh.names, 1)*2 // long names are common; err high
	return min(TransfersCSVBytes, mulSat(sh.states, pairs, row))
}

// The rendering terms.
const (
	// FigureWork is what the figures and tables of one step of one rule
	// cost to render beside their arcs and the bytes they write, in
	// key-steps (2.5 ms), for each step shown in full (shownStates);
	// ArcWork one arc of its wheel drawn as an arc (wheelArcs: its span,
	// its dashes, its group), and PointDrawWork one point of a ring drawn
	// per pixel (its cell, its arc's geometry). Builds of 101 states: a
	// ring of 9,900 points (9,910 arcs a wheel) took 1.45 s of CPU, 14
	// ms a state; a ring of 90,100 points over 1,000 keys 1.23 s, of which
	// 0.29 s of replay (90 ns a point drawn per pixel); a ring drawn per
	// pixel over 100 nodes 0.42 s; five rules over 100 nodes 1.04 s, 2 ms
	// a state and rule; over 1,000 nodes 2.38 s.
	FigureWork, ArcWork, PointDrawWork = 500_000, 500, 24
	// ScenarioWork is a scenario's fixed work whatever its size: the
	// command's start, the templates, the whole-run figures and the page's
	// frame, counted for every scenario. A build of 100 keys over two
	// states took 20 ms of CPU.
	ScenarioWork = 4_000_000
	// NodeWork is one node at one state under one rule, and NodePairWork
	// one transfer pair of one rule at one state (statePairs), in
	// key-steps: the loads sorted for the balance figure and the legends,
	// the tracker's per-node counts, a pair's run of the pair counter,
	// its rank among the largest (sim.Transfers.Top) and its nodes' keys
	// received. A build of 10⁵ keys over 10⁴ nodes and three states of
	// two rules took 2.75 s, of which 1.85 s beside the other terms: 30
	// µs a node, state and rule, or 3 ns a pair.
	NodeWork, NodePairWork = 64, 1
	// MoveWork is one moved key in the sorted pair counter of more than
	// sim.DenseTransferNodes nodes (its entry and two radix passes, 13–17
	// ns a key in BenchmarkPairCount at 10³ and 10⁴ nodes), at most every
	// key at every state of a rule that moves keys between any nodes. A
	// Local rule's step touches only the keys it moves, far below the 15
	// ns a key and state its replay term already counts (a ring's step
	// takes 0.4 ns a key), which covers them even if every key moved.
	MoveWork = 4
	// ByteWork is the work of writing one byte of any file (formatting,
	// inlining a figure in the page), beside FigureWork and ArcWork: 10⁴
	// states of ring and modulo wrote 165 MB of data.json and CSV in 0.38
	// s of CPU, 2.3 ns a byte.
	ByteWork = 1
	// SectionMemory is the rendering's peak memory per state shown in
	// full and rule: the step's model, its figures and tables (1,001
	// states of two rules, all in full, peaked at 348 MB, 170 KB a state
	// and rule).
	SectionMemory = 300 << 10
	// TextCopies is how many copies of the text files (data.json,
	// report.md, the page, the CSV files) the build holds at its peak:
	// each is built in a buffer that grows by doubling and then kept
	// until its scenario is written, and the page is rendered from
	// report.md. 10⁴ states of modulo over 11 nodes wrote 152 MB of text
	// (data.json 136 MB) and peaked at 597 MB, 425 MB of it live heap.
	TextCopies = 3
	// NodeStateMemory is one node at one state in the result (its member
	// entry, its load under each rule), beside its name.
	NodeStateMemory = 64
)

// renderWork is the time of drawing the figures of a scenario s of shape
// sh, writing its output o, and counting its transfers: every rule's pairs and,
// over more than sim.DenseTransferNodes nodes, the moved keys of a rule
// that is not Local at every state.
func renderWork(s *sim.Scenario, sh shape, o outputBytes) int64 {
	rules := int64(len(s.Rules))
	var pairs int64
	for _, spec := range s.Rules {
		rc, _ := ruleCost(spec, sh)
		pairs = addSat(pairs, mulSat(statePairs(sh, rc), NodePairWork))
		if sh.names > sim.DenseTransferNodes && !rc.Local {
			pairs = addSat(pairs, mulSat(sh.keys, MoveWork))
		}
	}
	nodes := addSat(mulSat(sh.names, NodeWork, rules), pairs)
	var figures int64
	for _, r := range s.Rules {
		figures = addSat(figures, FigureWork, wheelWork(r, sh))
	}
	return addSat(ScenarioWork, mulSat(shownStates(sh), figures), mulSat(nodes, sh.states), mulSat(o.total(), ByteWork))
}

// renderMemory is the peak memory the result and the rendering add to
// the replay: the member lists and loads of every state, the sections
// of the states shown in full, and the text files, held whole while
// they are built (TextCopies).
func renderMemory(sh shape, rules int64, o outputBytes) int64 {
	result := mulSat(sh.states, 2+rules, addSat(mulSat(sh.names, NodeStateMemory), sh.nameBytes))
	return addSat(result, mulSat(shownStates(sh), rules, SectionMemory), mulSat(o.text, TextCopies))
}
