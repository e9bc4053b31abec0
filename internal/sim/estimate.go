package sim

import (
	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/registry"
	"github.com/ringreport/ringreport/internal/timeline"
)

// EstimateMemory returns the approximate peak memory, in bytes, that
// replaying s takes: the key set, every rule's working state (its share
// of per-key arrays, the tracker's assignment, delta and undo logs) and
// the result's per-step figures data, with the headroom Go's garbage
// collector takes at its default setting. It is calibrated against the
// maximum resident set of replays of 10⁶ and 10⁷ keys and errs high; a
// command can compare it with a limit and refuse a scenario up front,
// before allocating anything. s need not be validated; missing values
// count as their defaults.
func EstimateMemory(s *Scenario) int64 {
	k := int64(s.Keys.Count)
	if s.Keys.List != nil {
		k = int64(len(s.Keys.List))
		for _, key := range s.Keys.List {
			k += int64(len(key)) / 8 // the strings themselves, amortized
		}
	}
	r := int64(maxReplicas(s))
	steps := int64(len(s.Steps) + 1)
	points := int64(maxPoints(s))
	live := 18 * k // key positions, generation order and strip cells, plus sorting space
	if s.Keys.Weighted() {
		live += 8 * k // weights by generation and by canonical index
	}
	uniform := uniformWeights(s)
	for _, spec := range s.Rules {
		live += k*perKeyBytes(spec, r, uniform) + steps*perStepBytes(spec, points, k)
	}
	return live * 3 / 2
}

// perKeyBytes is one rule's working memory per key with lists of length
// r: the tracker's assignment and scratch (2r + 2r bytes), its delta
// (4 + 2r) and undo logs (historyBytesPerKey, plus as much for the log
// being written), and the rule's own arrays. uniform says that every
// node weighs the same at every step.
func perKeyBytes(spec placer.RuleSpec, r int64, uniform bool) int64 {
	n := 6*r + 4 + 2*historyBytesPerKey
	k := registry.KindOf(spec.Kind)
	if k == nil {
		return n
	}
	if k.Footprint.KeyBytes != nil {
		n += k.Footprint.KeyBytes(spec, r, uniform)
	}
	switch h, _ := keys.ParseHash(spec.Kind, registry.Effective(spec).Hash); h {
	case keys.HashCRC32, keys.HashMD5:
		n += 16 // positions under the rule's hash, their order and ranks
	case keys.HashXX:
		n += 24 // the 64-bit hashes too
	}
	return n
}

// perStepBytes is what one rule's StepResult keeps: the strips' shades,
// and the arcs and points of point-based rules.
func perStepBytes(spec placer.RuleSpec, points, k int64) int64 {
	n := 2 * int64(stripCells(int(k)))
	if kind := registry.KindOf(spec.Kind); kind != nil && kind.Footprint.StepPoints {
		if spec.VNodes > 0 {
			points = points / placer.DefaultVNodes * int64(spec.VNodes)
		}
		return n + 2*8*points
	}
	return n + 8*placer.WheelSamples
}

// uniformWeights reports whether every node the scenario names weighs the
// same and no step reweighs one.
func uniformWeights(s *Scenario) bool {
	w := 0
	same := func(v int) bool {
		v = max(v, 1)
		if w == 0 {
			w = v
		}
		return v == w
	}
	for _, n := range s.Nodes {
		if !same(n.Weight) {
			return false
		}
	}
	for _, st := range s.Steps {
		if st.Op == timeline.OpWeight {
			return false
		}
		for _, n := range st.Nodes {
			if st.Op == timeline.OpAdd && !same(n.Weight) {
				return false
			}
		}
	}
	return true
}

// maxReplicas is the longest preference list any step asks for.
func maxReplicas(s *Scenario) int {
	r := max(s.Replicas, 1)
	for _, st := range s.Steps {
		if st.Op == timeline.OpReplicas {
			r = max(r, st.Value)
		}
	}
	return r
}

// maxPoints bounds the ring points at any step: every node the scenario
// names, at its largest weight, with DefaultVNodes or the largest vnodes
// step.
func maxPoints(s *Scenario) int {
	v, w := placer.DefaultVNodes, 0
	for _, n := range s.Nodes {
		w += max(n.Weight, 1)
	}
	for _, st := range s.Steps {
		switch st.Op {
		case timeline.OpVNodes:
			v = max(v, st.Value)
		case timeline.OpAdd, timeline.OpWeight:
			for _, n := range st.Nodes {
				w += max(n.Weight, 1)
			}
		}
	}
	return v * w
}
