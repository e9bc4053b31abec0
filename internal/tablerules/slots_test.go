package tablerules

import (
	"testing"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/timeline"
)

// TestKeySlot: the Redis Cluster specification's examples (Key
// distribution model; Hash tags). CRC16 and hash tags themselves are
// tested, against Redis, in internal/profile/redis.
func TestKeySlot(t *testing.T) {
	for _, c := range []struct {
		key  string
		slot uint16
	}{
		{"somekey", 11058},
		{"{user1}.following", 8106},
		{"{user1}.followers", 8106},
		{"user1", 8106},
		{"foo", 12182},
		{"bar", 5061},
	} {
		if got := keySlot([]byte(c.key)); got != c.slot {
			t.Errorf("keySlot(%q) = %d, want %d", c.key, got, c.slot)
		}
	}
}

func slotCounts(home []timeline.NodeID, n int) []int {
	c := make([]int, n)
	for _, id := range home {
		c[id]++
	}
	return c
}

// slotsOver returns a slots placer of these states' nodes.
func slotsOver(t *testing.T, e *placer.Env) *slots {
	t.Helper()
	sl, err := newSlots(placer.RuleSpec{Kind: SlotsKind.Name}, e)
	if err != nil {
		t.Fatal(err)
	}
	return sl
}

// TestSlotsRebalance: ranges start contiguous and even; an add moves
// exactly the slots the new node needs, from the most loaded donors'
// highest slots; a removal moves only the removed node's slots.
func TestSlotsRebalance(t *testing.T) {
	e, states := statesOf(t, 1, 100, named("a", "b", "c"), 1,
		timeline.Step{Op: timeline.OpAdd, Nodes: named("d")}, timeline.Step{Op: timeline.OpRemove, Nodes: named("b")})
	sl := slotsOver(t, e)
	sl.Update(&states[0])
	// redis-cli --cluster create: 0-5460, 5461-10922, 10923-16383.
	if sl.Home[0] != 0 || sl.Home[5460] != 0 || sl.Home[5461] != 1 || sl.Home[10922] != 1 || sl.Home[10923] != 2 {
		t.Errorf("start ranges wrong: %v %v %v", sl.Home[5460], sl.Home[5461], sl.Home[10923])
	}
	before := append([]timeline.NodeID(nil), sl.Home...)
	sl.Update(&states[1])
	if got := slotCounts(sl.Home, 4); got[0] != 4096 || got[1] != 4096 || got[2] != 4096 || got[3] != 4096 {
		t.Errorf("after add: %v slots, want 4096 each", got)
	}
	moved := 0
	for x := range before {
		if before[x] != sl.Home[x] {
			moved++
			if sl.Home[x] != 3 {
				t.Fatalf("slot %d moved from %d to %d, not to the new node", x, before[x], sl.Home[x])
			}
		}
	}
	if moved != 4096 || sl.Home[4096] != 3 || sl.Home[4095] != 0 || sl.Home[16383] != 3 || sl.Home[9557] != 3 || sl.Home[9556] != 1 {
		t.Errorf("moved %d slots (want 4096, each donor's highest)", moved)
	}
	before = append(before[:0], sl.Home...)
	sl.Update(&states[2])
	for x := range before {
		if before[x] != sl.Home[x] && before[x] != 1 {
			t.Fatalf("slot %d moved off %d, which stayed", x, before[x])
		}
	}
	if got := slotCounts(sl.Home, 4); got[1] != 0 || max(got[0], got[2], got[3])-min(got[0], got[2], got[3]) > 1 {
		t.Errorf("after removal: %v slots", got)
	}
}

// TestSlotsFailoverServe: a failed master's slots are served by the live
// ones, evenly.
func TestSlotsFailoverServe(t *testing.T) {
	e, states := statesOf(t, 1, 100, named("a", "b", "c", "d", "e"), 1, timeline.Step{Op: timeline.OpFail, Nodes: named("c")})
	sl := slotsOver(t, e)
	sl.Update(&states[1])
	if got := slotCounts(sl.Serve, 5); got[2] != 0 || got[0] != 4096 || got[4] != 4096 {
		t.Errorf("serving slots %v, want 4096 for each live node", got)
	}
}

// TestSlotsWeightedRanges: weights set contiguous ranges and rebalance
// targets in proportion, as redis-cli's --weight does.
func TestSlotsWeightedRanges(t *testing.T) {
	e, states := statesOf(t, 1, 100, []timeline.NodeSpec{{Name: "a", Weight: 1}, {Name: "b", Weight: 3}}, 2,
		timeline.Step{Op: timeline.OpWeight, Nodes: []timeline.NodeSpec{{Name: "a", Weight: 3}}})
	sl := slotsOver(t, e)
	sl.Update(&states[0])
	if got := slotCounts(sl.Home, 2); got[0] != 4096 || got[1] != 12288 {
		t.Errorf("start: %v slots, want [4096 12288]", got)
	}
	sl.Update(&states[1])
	if got := slotCounts(sl.Home, 2); got[0] != 8192 {
		t.Errorf("after reweight: %v slots, want 8192 each", got)
	}
}
