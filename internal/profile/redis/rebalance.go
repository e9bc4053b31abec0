package redis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A Move is one step of a rebalance plan, as redis-cli prints it:
// "Moving <Slots> slots from <From> to <To>".
type Move struct {
	From, To string
	Slots    int
}

// member is one master as clusterManagerCommandRebalance sees it.
type member struct {
	name    string
	weight  float32 // --cluster-weight; redis-cli keeps it in a float
	count   int     // slots held when redis-cli loaded the cluster
	balance int     // slots to give (> 0) or take (< 0)
}

// rebalance runs `redis-cli --cluster rebalance --cluster-use-empty-masters`
// with the members' weights over owner (slot → member index), the members
// in redis-cli's node order. It moves slots in owner and returns the plan.
func rebalance(owner []int32, ms []member, threshold float32) ([]Move, error) {
	for i := range ms {
		ms[i].count = 0
	}
	for _, o := range owner {
		ms[o].count++
	}
	if !expect(ms, threshold) {
		return nil, nil // "No rebalancing needed!"
	}
	if err := spreadLeftover(ms); err != nil {
		return nil, err
	}
	// qsort by balance. glibc 2.36 qsort is a merge sort (msort.c) unless
	// the array exceeds a quarter of physical memory, so ties keep the node
	// order: a stable sort is glibc's result.
	w := make([]int, len(ms))
	for i := range w {
		w[i] = i
	}
	slices.SortStableFunc(w, func(a, b int) int { return cmp.Compare(ms[a].balance, ms[b].balance) })
	return pairUp(owner, ms, w)
}

// expect sets each member's balance (slots held minus expected, expected
// computed in single precision and truncated as redis-cli does) and reports
// whether any member is past the threshold.
func expect(ms []member, threshold float32) bool {
	var total float32
	for _, m := range ms {
		total = float32(total + m.weight)
	}
	reached := false
	for i := range ms {
		m := &ms[i]
		expected := int(float32(float32(Slots)/total) * m.weight)
		m.balance = m.count - expected
		if m.count > 0 {
			// 100.0*expected/slots is double; the result is stored in a float.
			perc := float32(math.Abs(100 - 100.0*float64(expected)/float64(m.count)))
			if perc > threshold {
				reached = true
			}
		} else if expected > 1 {
			reached = true
		}
	}
	return reached
}

// spreadLeftover makes the balances sum to at most zero the way redis-cli
// does: while they sum above zero, visit the members in node order and take
// one slot off the balance of each one whose balance is ≤ 0 (a receiver, or
// a member already even), so rounding leftovers go to receivers.
func spreadLeftover(ms []member) error {
	total := 0
	for _, m := range ms {
		total += m.balance
	}
	for total > 0 {
		before := total
		for i := range ms {
			if ms[i].balance <= 0 && total > 0 {
				ms[i].balance--
				total--
			}
		}
		if total == before {
			return fmt.Errorf("redis-cli's rebalance would loop forever: %d slots of rounding leftover and no member at or below its share (redis#4941)", total)
		}
	}
	return nil
}

// pairUp is the two-pointer walk over w (member indexes sorted by balance):
// the member at the front takes min(|its balance|, |the back one's|) slots
// from the member at the back, each pointer advancing when its member's
// balance reaches zero.
func pairUp(owner []int32, ms []member, w []int) ([]Move, error) {
	count := make([]int, len(ms)) // redis-cli does not refresh slots_count while moving
	for i, m := range ms {
		count[i] = m.count
	}
	var plan []Move
	for d, s := 0, len(w)-1; d < s; {
		dst, src := &ms[w[d]], &ms[w[s]]
		n := min(abs(dst.balance), abs(src.balance))
		if n > 0 {
			slots := reshardTable(owner, count, []int{w[s]}, n)
			if len(slots) != n {
				return plan, fmt.Errorf("redis-cli's rebalance fails: %s holds %d slots, not the %d it should give %s (Reshard table != number of slots)",
					src.name, len(slots), n, dst.name)
			}
			for _, x := range slots {
				owner[x] = int32(w[d])
			}
			plan = append(plan, Move{From: src.name, To: dst.name, Slots: n})
		}
		dst.balance += n
		src.balance -= n
		if dst.balance == 0 {
			d++
		}
		if src.balance == 0 {
			s--
		}
	}
	return plan, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// reshardTable is clusterManagerComputeReshardTable: the slots that move
// when numslots slots are taken from sources (member indexes, in list
// order). Sources are sorted by slot count, most first (qsort, stable as
// above); each gives its share numslots/total·count in single precision,
// rounded up for the first source and down for the others, taking its
// lowest-numbered slots first, until numslots slots are listed. count is
// each member's slot count as redis-cli loaded it.
func reshardTable(owner []int32, count []int, sources []int, numslots int) []int {
	tot := 0
	for _, s := range sources {
		tot += count[s]
	}
	sorted := slices.Clone(sources)
	slices.SortStableFunc(sorted, func(a, b int) int { return cmp.Compare(count[b], count[a]) })
	var moved []int
	for i, src := range sorted {
		n := float32(float32(float32(numslots)/float32(tot)) * float32(count[src]))
		if i == 0 {
			n = float32(math.Ceil(float64(n)))
		} else {
			n = float32(math.Floor(float64(n)))
		}
		limit, c := int(n), 0
		for x, o := range owner {
			if int(o) != src {
				continue
			}
			if c >= limit || len(moved) >= numslots {
				break
			}
			moved = append(moved, x)
			c++
		}
	}
	return moved
}
