package redis

import (
	"slices"
	"strings"
	"testing"
)

// TestReshardTableSources checks clusterManagerComputeReshardTable's
// arithmetic with several sources: sorted by slot count (most first, ties
// in list order), the first giving the ceiling of its share and the others
// the floor, each its lowest slots first.
func TestReshardTableSources(t *testing.T) {
	owner := make([]int32, Slots)
	// member 0 holds slots 0..9, member 1 slots 10..15, member 2 slots 16..25,
	// member 3 the rest.
	for x := range owner {
		switch {
		case x < 10:
			owner[x] = 0
		case x < 16:
			owner[x] = 1
		case x < 26:
			owner[x] = 2
		default:
			owner[x] = 3
		}
	}
	count := []int{10, 6, 10, Slots - 26}
	// 7 of 26: member 0 (first of the two tens) ceil(7/26·10 = 2.69) = 3,
	// member 2 floor(2.69) = 2, member 1 floor(1.61) = 1: 6 in all.
	got := reshardTable(owner, count, []int{1, 0, 2}, 7)
	if want := []int{0, 1, 2, 16, 17, 10}; !slices.Equal(got, want) {
		t.Errorf("table %v, want %v", got, want)
	}
	// One source gives exactly numslots, its lowest.
	if got := reshardTable(owner, count, []int{3}, 5); !slices.Equal(got, []int{26, 27, 28, 29, 30}) {
		t.Errorf("one source: %v", got)
	}
}

// TestLeftoverLoopGuard checks the case where redis-cli would spin forever
// (no member at or below its share while leftovers remain) becomes an
// error.
func TestLeftoverLoopGuard(t *testing.T) {
	ms := []member{{name: "a", balance: 1}, {name: "b", balance: 2}}
	if err := spreadLeftover(ms); err == nil || !strings.Contains(err.Error(), "loop forever") {
		t.Errorf("err %v", err)
	}
	ms = []member{{name: "a", balance: 3}, {name: "b", balance: 0}, {name: "c", balance: -1}}
	if err := spreadLeftover(ms); err != nil || ms[1].balance != -1 || ms[2].balance != -2 {
		t.Errorf("err %v, balances %+v; want the 2 leftovers on b and c", err, ms)
	}
}
