package tablerules

import (
	"fmt"
	"math"
	"slices"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/profile/redis"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// SlotsKind is Redis Cluster's slots' registry entry.
var SlotsKind = rulekind.Kind{Name: "slots", Doc: "Redis Cluster's slots: CRC16 of the key (or of its {hash tag}) mod 16384, slots spread evenly over the nodes and moved minimally; not redis-cli's own planner.",
	Fixed: []rulekind.Param{rulekind.HashParam.WithDefault("crc16")},
	Footprint: rulekind.Footprint{Table: func(placer.RuleSpec, int64, int64) int64 { return numSlots },
		KeyBytes: func(placer.RuleSpec, int64, bool) int64 { return 12 }},
	Position: func(placer.RuleSpec) func([]byte) uint32 {
		return func(b []byte) uint32 { return uint32(keySlot(b)) << 18 }
	},
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newSlots(s, e)) }}

// numSlots is the number of Redis Cluster hash slots.
const numSlots = redis.Slots

// slots is Redis Cluster's key space (Redis Cluster specification, "Key
// distribution model" and "Hash tags"): a key's slot is
// CRC16-XMODEM(key) mod 16384, hashed over the key's hash tag when it has
// one (redis.HashTag); each slot belongs to one master. A key's position is
// its slot.
//
// The slot table starts from contiguous ranges in join order, as
// redis-cli --cluster create makes them (see evenRanges). When membership or weights change, the table is rebalanced like
// redis-cli --cluster rebalance (weights as its --weight): each member's
// target is ⌊S·w_i/W⌋, the S − Σ⌊⌋ leftover slots going to the members
// now holding the most above their floor (ties in join order), so the
// fewest slots move. The slots that move are those of departed members,
// in ascending order, then from each member above its target, most
// loaded first (ties in join order), its highest slots; members below
// their target take them in join order, each filling its deficit.
//
// Failure: Redis promotes a replica of the failed master, which this
// simulator does not have. The model: the failed node's slots are served
// by the live masters, dealt in ascending runs to the one with the lowest
// load per weight (ties in join order); recovery moves them back. The
// configured table (including the failed node) is what rebalancing sees.
//
// Weights follow redis-cli's rebalance weights. Replicas: a Redis replica
// is a separate node, not another master, so preference lists beyond the
// owner are not modelled and stay empty (update says so).
type slots struct {
	env   *placer.Env
	slot  []uint32 // each key's slot, computed once
	perm  []uint32
	rank  []uint32
	Home  []timeline.NodeID // slot → configured master
	Serve []timeline.NodeID // slot → serving master after failovers
	cfg   []timeline.Member // the members (and weights) home was balanced for
	start []uint32          // the keys of slot x are perm[start[x]:start[x+1]]
	last  []timeline.NodeID // serve as of the last assign or delta
}

func newSlots(spec placer.RuleSpec, e *placer.Env) (*slots, error) {
	if spec.Hash != "" {
		return nil, fmt.Errorf("rule slots: the hash is CRC16 (XMODEM), as in Redis Cluster; hash %q does not apply", spec.Hash)
	}
	s := &slots{env: e}
	kc := keys.NewKeyCache(e.Keys, keys.HashFNV)
	s.slot = kc.Each32(func(b []byte) uint32 { return uint32(keySlot(b)) })
	var sorted []uint32
	sorted, s.perm, s.rank = keys.RankBy(s.slot)
	s.start = make([]uint32, numSlots+1)
	for x := range s.start {
		j, _ := slices.BinarySearch(sorted, uint32(x))
		s.start[x] = uint32(j)
	}
	return s, nil
}

// keySlot returns the Redis Cluster slot of a key: CRC16-XMODEM of its
// hash tag, as Redis computes it (internal/profile/redis, checked
// against CLUSTER KEYSLOT).
func keySlot(key []byte) uint16 { return uint16(redis.KeySlot(key)) }

func (s *slots) Update(st *timeline.State) []string {
	var notes []string
	switch {
	case s.Home == nil:
		s.Home = evenRanges(st.Members)
	case !sameConfig(s.cfg, st.Members):
		s.rebalance(st.Members)
	}
	s.cfg = slices.Clone(st.Members)
	s.Serve = failover(s.Home, st.Members, len(s.env.Nodes))
	if st.Op == timeline.OpFail || st.Op == timeline.OpRecover {
		notes = append(notes, "slots: a failed master's slots are served by the live masters, dealt evenly "+
			"(a model of Redis promoting a replica); recovery moves them back")
	}
	if st.Replicas > 1 && (st.Op == timeline.OpStart || st.Op == timeline.OpReplicas) {
		notes = append(notes, "slots: Redis replicas are separate nodes, not other masters: replicas beyond the owner are not modelled")
	}
	return notes
}

// sameConfig reports whether two member lists have the same names and
// weights (failure does not count).
func sameConfig(a, b []timeline.Member) bool {
	return slices.EqualFunc(a, b, func(x, y timeline.Member) bool { return x.ID == y.ID && x.Weight == y.Weight })
}

// evenRanges splits the slots into contiguous ranges in join order as
// redis-cli's clusterManagerCommandCreate does: a single-precision cursor
// advances by S/n per master and master i ends at lround(cursor + S/n − 1)
// (0-5460, 5461-10922, 10923-16383 for three). With weights the step is
// S·w_i/Σw, which is redis-cli's S/n when weights are equal.
func evenRanges(ms []timeline.Member) []timeline.NodeID {
	home := make([]timeline.NodeID, numSlots)
	W := 0
	for _, m := range ms {
		W += m.Weight
	}
	first, cursor := 0, float32(0)
	for i, m := range ms {
		step := float32(numSlots*m.Weight) / float32(W)
		last := int(math.Round(float64(float32(cursor + step - 1))))
		if last > numSlots || i == len(ms)-1 {
			last = numSlots - 1
		}
		last = max(last, first)
		for x := first; x <= last && x < numSlots; x++ {
			home[x] = m.ID
		}
		first, cursor = last+1, float32(cursor+step)
	}
	return home
}

// rebalance moves the fewest slots that bring every member to its target.
func (s *slots) rebalance(ms []timeline.Member) {
	have := make([]int, len(s.env.Nodes))
	for _, id := range s.Home {
		have[id]++
	}
	target := slotTargets(ms, have)
	isMember := make([]bool, len(s.env.Nodes))
	for _, m := range ms {
		isMember[m.ID] = true
	}
	var pool []int
	for x, id := range s.Home {
		if !isMember[id] {
			pool = append(pool, x)
		}
	}
	donors := slices.Clone(ms)
	slices.SortStableFunc(donors, func(a, b timeline.Member) int { return have[b.ID] - have[a.ID] })
	for _, d := range donors {
		for x, n := numSlots-1, have[d.ID]-target[d.ID]; x >= 0 && n > 0; x-- {
			if s.Home[x] == d.ID {
				pool = append(pool, x)
				n--
			}
		}
	}
	for _, m := range ms {
		for n := target[m.ID] - have[m.ID]; n > 0; n-- {
			s.Home[pool[0]], pool = m.ID, pool[1:]
		}
	}
}

// slotTargets returns each member's slot target: ⌊S·w/W⌋, plus one for
// the members holding the most above it, until all S slots are placed.
func slotTargets(ms []timeline.Member, have []int) []int {
	target := make([]int, len(have))
	W := 0
	for _, m := range ms {
		W += m.Weight
	}
	left := numSlots
	for _, m := range ms {
		target[m.ID] = numSlots * m.Weight / W
		left -= target[m.ID]
	}
	byExcess := slices.Clone(ms)
	slices.SortStableFunc(byExcess, func(a, b timeline.Member) int {
		return (have[b.ID] - target[b.ID]) - (have[a.ID] - target[a.ID])
	})
	for _, m := range byExcess[:left] {
		target[m.ID]++
	}
	return target
}

// failover returns the serving table: home, with every failed member's
// slots dealt in ascending runs to the live members, each slot to the one
// with the lowest load per weight (ties in join order). n bounds NodeIDs.
func failover(home []timeline.NodeID, ms []timeline.Member, n int) []timeline.NodeID {
	serve := slices.Clone(home)
	failed := make([]bool, n)
	load, quota := make([]int, n), make([]int, n)
	for _, id := range home {
		load[id]++
	}
	for _, m := range ms {
		failed[m.ID] = m.Failed
	}
	var orphans []int
	for x, id := range home {
		if failed[id] {
			orphans = append(orphans, x)
		}
	}
	for range orphans {
		best := -1
		for i, m := range ms {
			if !m.Failed && (best < 0 || (load[m.ID]+1)*ms[best].Weight < (load[ms[best].ID]+1)*m.Weight) {
				best = i
			}
		}
		load[ms[best].ID]++
		quota[ms[best].ID]++
	}
	for _, m := range ms {
		for q := quota[m.ID]; q > 0; q-- {
			serve[orphans[0]], orphans = m.ID, orphans[1:]
		}
	}
	return serve
}

func (s *slots) Assign(lists [][]timeline.NodeID) {
	for i, x := range s.slot {
		lists[0][i] = s.Serve[x]
	}
	for _, l := range lists[1:] {
		fill(l, timeline.NoNode)
	}
	s.last = s.Serve
}

// Delta reports the keys of every slot whose serving master changed.
func (s *slots) Delta(d *placer.Delta) bool {
	if s.last == nil {
		return false
	}
	list := make([]timeline.NodeID, len(d.Lists))
	fill(list, timeline.NoNode)
	for x, id := range s.Serve {
		if id == s.last[x] {
			continue
		}
		list[0] = id
		for _, k := range s.perm[s.start[x]:s.start[x+1]] {
			d.Add(int(k), list)
		}
	}
	s.last = s.Serve
	return true
}

func (s *slots) Probe(key string, R int) (uint64, []timeline.NodeID) {
	x := keySlot([]byte(key))
	return uint64(x), []timeline.NodeID{s.Serve[x]}
}

// Geometry maps slot x to the circle at x·2³²/16384: exact arcs.
func (s *slots) Geometry() ([]placer.Arc, []placer.Point) {
	var arcs []placer.Arc
	for x, id := range s.Serve {
		arcs = placer.MergeArcs(arcs, placer.Arc{Start: uint32(x) << 18, Node: id})
	}
	return arcs, nil
}

func (s *slots) Order() []uint32 { return s.rank }
