package cost

import (
	"math"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/sim"
	"github.com/ringreport/ringreport/internal/sweep"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Estimate is what building one scenario takes, erring high.
type Estimate struct {
	// Keys, States and Rules are the scenario's shape, for messages.
	Keys, States, Rules int64
	// Replay is the work of replaying the scenario as written, in
	// key-steps: building every rule's key set and tables and placing the
	// keys at every state.
	Replay int64
	// Render is the work of drawing its figures and writing its files.
	Render int64
	// Study is the work of the replays of the sweep: and seeds: variants
	// (zero without them; see Study).
	Study int64
	// Memory is the peak memory of the build of the scenario, in bytes:
	// the replay, the result it keeps, the rendering and the text files
	// built in memory (scenarios build -j at a time, each within it).
	Memory int64
	// Output is the bytes the build writes for the scenario: its folder
	// of data files, report, page and figures.
	Output int64
}

// Work is the whole build's time in key-steps: Replay + Render + Study.
func (e Estimate) Work() int64 { return addSat(addSat(e.Replay, e.Render), e.Study) }

// Base is the memory of the process before any scenario: the runtime,
// the templates, the worker pool (20 MiB of RSS measured for a build of
// 100 keys, rounded up).
const Base = 64 << 20

// Of estimates the build of s as written, without its sweep and seeds
// (see Study). s need not be validated: missing values count as their
// defaults, and every count is bounded from the scenario's text alone
// (every node the scenario names may be a member at every step, at its
// largest weight), so Of runs in time linear in the scenario.
func Of(s *sim.Scenario) Estimate {
	sh := shapeOf(s)
	out := output(s, sh)
	e := Estimate{Keys: sh.keys, States: sh.states, Rules: int64(len(s.Rules)),
		Replay: replayWork(s, sh), Output: out.total()}
	e.Render = renderWork(s, sh, out)
	e.Memory = addSat(Base, replayMemory(s, sh), renderMemory(sh, e.Rules, out))
	return e
}

// Study returns e with the work of the replays that p asks for beside
// the scenario as written: every sweep value's variant of s, once per
// seed. Variants keep their metrics only, so they add no memory beyond
// one replay at a time per worker, and no output but a table.
func Study(e Estimate, s *sim.Scenario, p sweep.Plan) Estimate {
	if !p.Active() {
		return e
	}
	var w int64
	for i := range p.Points() {
		v := p.Scenario(s, i, 0)
		w = addSat(w, replayWork(v, shapeOf(v)))
	}
	e.Study = mulSat(w, int64(p.SeedCount()))
	return e
}

// shape is what the terms read of a scenario: its counts, bounded from
// its text alone.
type shape struct {
	keys, states int64
	// names are the distinct node names, nameBytes their summed lengths
	// and weight their summed largest weights: every node at its
	// heaviest, the most weight any state can put on a ring.
	names, nameBytes, weight int64
	// vnodeSteps is the largest vnodes step, weightSteps the number of
	// weight steps, replicas the longest preference list.
	vnodeSteps, weightSteps, replicas int64
	// keyBytes is the longest key of a keys file and keyTotal their
	// summed lengths (0 for generated keys).
	keyBytes, keyTotal int64
	// named is the most nodes one add, remove, fail or recover step
	// names (every name for one that selects by label; for a recover-all,
	// the most that may have failed before it: sharesOf), and anyPairs says a step of another kind (vnodes, weight, …) may
	// move keys between any two nodes (see statePairs).
	named    int64
	anyPairs bool
	// steps bounds what each step moves (sharesOf).
	steps stepShares
}

// shapeOf counts s.
func shapeOf(s *sim.Scenario) shape {
	sh := shape{keys: int64(keyCount(s.Keys)), states: int64(len(s.Steps) + 1), replicas: int64(max(s.Replicas, 1))}
	heaviest := map[string]int64{}
	note := func(n timeline.NodeSpec) {
		w, seen := heaviest[n.Name]
		if !seen {
			sh.names++
			sh.nameBytes += int64(len(n.Name))
		}
		heaviest[n.Name] = max(w, int64(max(n.Weight, 1)))
	}
	for _, n := range s.Nodes {
		note(n)
	}
	for _, st := range s.Steps {
		switch st.Op {
		case timeline.OpAdd, timeline.OpWeight:
			for _, n := range st.Nodes {
				note(n)
			}
		case timeline.OpVNodes:
			sh.vnodeSteps = max(sh.vnodeSteps, int64(st.Value))
		case timeline.OpReplicas:
			sh.replicas = max(sh.replicas, int64(st.Value))
		}
		if st.Op == timeline.OpWeight {
			sh.weightSteps++
		}
		sh.anyPairs = sh.anyPairs || !membership(st.Op)
	}
	for _, w := range heaviest {
		sh.weight += w // a sum: the order of the map does not matter
	}
	for _, k := range s.Keys.List {
		sh.keyBytes = max(sh.keyBytes, int64(len(k)))
		sh.keyTotal += int64(len(k))
	}
	sh.steps = sharesOf(s, sh, heaviest)
	sh.named = 0
	for _, n := range sh.steps.named {
		sh.named = max(sh.named, n) // a recover-all names only what may have failed
	}
	return sh
}

// membership reports whether op adds, removes, fails or recovers nodes.
func membership(op timeline.Op) bool {
	return op == timeline.OpAdd || op == timeline.OpRemove || op == timeline.OpFail || op == timeline.OpRecover
}

// keyCount is the number of keys a KeySpec describes.
func keyCount(k keys.KeySpec) int {
	if k.List != nil {
		return len(k.List)
	}
	return k.Count
}

// mulSat multiplies non-negative numbers, saturating at MaxInt64.
func mulSat(xs ...int64) int64 {
	r := int64(1)
	for _, x := range xs {
		if x != 0 && r > math.MaxInt64/x {
			return math.MaxInt64
		}
		r *= x
	}
	return r
}

// addSat adds non-negative numbers, saturating at MaxInt64.
func addSat(xs ...int64) int64 {
	var r int64
	for _, x := range xs {
		if r > math.MaxInt64-x {
			return math.MaxInt64
		}
		r += x
	}
	return r
}
