package kafka

import (
	"fmt"
	"slices"
	"unicode/utf16"
)

// broker is one broker as the replica assigners see it.
type broker struct {
	id      int
	rack    string
	hasRack bool
	fenced  bool
}

// javaCompare orders strings as Java's String.compareTo does: by UTF-16
// code units, which differs from Go's byte order for characters above
// U+FFFF against those in U+E000–U+FFFF.
func javaCompare(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// rackKey is a broker's rack as Optional<String>: no rack sorts first
// (OptionalStringComparator), then racks in String order.
type rackKey struct {
	has  bool
	name string
}

func compareRackKey(a, b rackKey) int {
	switch {
	case !a.has && !b.has:
		return 0
	case !a.has:
		return -1
	case !b.has:
		return 1
	}
	return javaCompare(a.name, b.name)
}

// brokerList is StripedReplicaPlacer.BrokerList: brokers sorted by id, read
// round-robin from an offset that advances by one each new epoch.
type brokerList struct {
	ids                  []int
	index, offset, epoch int
}

// initialize sorts the list; the offset is the random draw, fixed at 0.
func (l *brokerList) initialize() { slices.Sort(l.ids) }

// initializeAfter sorts the list and starts after index prev, as Kafka
// does when CreatePartitions continues a topic's stripe.
func (l *brokerList) initializeAfter(prev int) {
	slices.Sort(l.ids)
	if len(l.ids) > 0 {
		l.offset = (prev + 1) % len(l.ids)
	}
}

func (l *brokerList) next(epoch int) int {
	if len(l.ids) == 0 {
		return -1
	}
	if l.epoch != epoch {
		l.epoch = epoch
		l.index = 0
		l.offset = (l.offset + 1) % len(l.ids)
	}
	if l.index >= len(l.ids) {
		return -1
	}
	b := l.ids[(l.index+l.offset)%len(l.ids)]
	l.index++
	return b
}

// rack is StripedReplicaPlacer.Rack: unfenced brokers are used first.
type rack struct{ fenced, unfenced brokerList }

func (r *rack) next(epoch int) int {
	if b := r.unfenced.next(epoch); b >= 0 {
		return b
	}
	return r.fenced.next(epoch)
}

// rackList is StripedReplicaPlacer.RackList with every random draw fixed:
// start offsets 0 and shuffles that keep the order.
type rackList struct {
	racks           map[rackKey]*rack
	names           []rackKey
	total, unfenced int
	epoch, offset   int
}

func newRackList(brokers []broker, existing [][]int) *rackList {
	rl := &rackList{racks: map[rackKey]*rack{}}
	rackOf := map[int]rackKey{}
	for _, b := range brokers {
		k := rackKey{b.hasRack, b.rack}
		rackOf[b.id] = k
		r := rl.racks[k]
		if r == nil {
			r = &rack{}
			rl.racks[k] = r
			rl.names = append(rl.names, k)
		}
		if b.fenced {
			r.fenced.ids = append(r.fenced.ids, b.id)
		} else {
			r.unfenced.ids = append(r.unfenced.ids, b.id)
			rl.unfenced++
		}
		rl.total++
	}
	for _, k := range rl.names {
		r := rl.racks[k]
		r.fenced.initialize()
		if prev, ok := previousBrokerOffset(rackOf, existing, k, r.unfenced.ids); ok {
			r.unfenced.initializeAfter(prev)
		} else {
			r.unfenced.initialize()
		}
	}
	slices.SortStableFunc(rl.names, compareRackKey)
	if prev, ok := previousRackOffset(rackOf, existing, rl.names); ok {
		rl.offset = (prev + 1) % len(rl.names)
	}
	return rl
}

// previousBrokerOffset finds, scanning the existing partitions from the
// last, the first replica that lives in rack k, and returns its index among
// k's unfenced brokers (sorted), as KAFKA-14437's tryGetPreviousBrokerOffset.
func previousBrokerOffset(rackOf map[int]rackKey, existing [][]int, k rackKey, unfenced []int) (int, bool) {
	sorted := slices.Clone(unfenced)
	slices.Sort(sorted)
	for i := len(existing) - 1; i >= 0; i-- {
		for _, id := range existing[i] {
			rk, ok := rackOf[id]
			if !ok {
				continue
			}
			if rk == k {
				j := slices.Index(sorted, id)
				return j, j >= 0
			}
		}
	}
	return 0, false
}

// previousRackOffset returns the index of the rack of the last existing
// partition's leader, as tryGetPreviousRackOffset.
func previousRackOffset(rackOf map[int]rackKey, existing [][]int, names []rackKey) (int, bool) {
	if len(existing) == 0 || len(existing[len(existing)-1]) == 0 {
		return 0, false
	}
	rk, ok := rackOf[existing[len(existing)-1][0]]
	if !ok {
		return 0, false
	}
	i := slices.Index(names, rk)
	return i, i >= 0
}

// place returns the replicas of the next partition (RackList.place).
func (rl *rackList) place(rf int) []int {
	if rl.epoch == rl.unfenced && rl.unfenced > 1 {
		rl.epoch = 0 // the shuffle that precedes it keeps the order
	}
	if rl.offset == len(rl.names) {
		rl.offset = 0
	}
	out := make([]int, 0, rf)
	first := rl.offset
	for {
		if b := rl.racks[rl.names[first]].unfenced.next(rl.epoch); b >= 0 {
			out = append(out, b)
			break
		}
		first++
		if first == len(rl.names) {
			first = 0
		}
	}
	ri := rl.offset
	for len(out) < rf {
		b := -1
		for b < 0 {
			if ri == first {
				first = -1
			} else {
				b = rl.racks[rl.names[ri]].next(rl.epoch)
			}
			ri++
			if ri == len(rl.names) {
				ri = 0
			}
		}
		out = append(out, b)
	}
	rl.epoch++
	rl.offset++
	return out
}

// placeStriped assigns count new partitions after existing ones with the
// KRaft StripedReplicaPlacer over every registered broker (fenced ones
// included).
func placeStriped(brokers []broker, existing [][]int, count, rf int) ([][]int, error) {
	unfenced := 0
	for _, b := range brokers {
		if !b.fenced {
			unfenced++
		}
	}
	switch {
	case unfenced == 0:
		return nil, fmt.Errorf("kafka: all brokers are currently fenced (Down); the controller places no partition")
	case rf > len(brokers):
		return nil, fmt.Errorf("kafka: the target replication factor of %d cannot be reached because only %d broker(s) are registered", rf, len(brokers))
	}
	rl := newRackList(brokers, existing)
	out := make([][]int, count)
	for p := range out {
		out[p] = rl.place(rf)
	}
	return out, nil
}

// placeAdminUtils assigns count new partitions after existing ones with
// AdminUtils.assignReplicasToBrokers over the live brokers, as ZooKeeper
// mode does: fixedStartIndex 0 at creation (Kafka draws it at random), and
// for added partitions the index of partition 0's leader, as
// AdminZkClient.createNewPartitionsAssignment computes it.
func placeAdminUtils(brokers []broker, existing [][]int, count, rf int) ([][]int, error) {
	bs := slices.Clone(brokers)
	slices.SortFunc(bs, func(a, b broker) int { return a.id - b.id })
	if rf > len(bs) {
		return nil, fmt.Errorf("kafka: replication factor: %d larger than available brokers: %d", rf, len(bs))
	}
	withRack := 0
	for _, b := range bs {
		if b.hasRack {
			withRack++
		}
	}
	if withRack > 0 && withRack < len(bs) {
		return nil, fmt.Errorf("kafka: not all brokers have rack information (%d of %d have a rack); ZooKeeper mode's rack-aware assignment refuses that", withRack, len(bs))
	}
	start := 0
	if len(existing) > 0 && len(existing[0]) > 0 {
		lead := existing[0][0]
		start = max(0, slices.IndexFunc(bs, func(b broker) bool { return b.id >= lead }))
	}
	if withRack == 0 {
		ids := make([]int, len(bs))
		for i, b := range bs {
			ids[i] = b.id
		}
		return adminRackUnaware(ids, count, rf, start, len(existing)), nil
	}
	return adminRackAware(bs, count, rf, start, len(existing)), nil
}

// replicaIndex is AdminUtils.replicaIndex.
func replicaIndex(first, shift, j, n int) int {
	s := 1 + (shift+j)%(n-1)
	return (first + s) % n
}

func adminRackUnaware(ids []int, count, rf, start, firstPartition int) [][]int {
	n := len(ids)
	shift := start
	out := make([][]int, count)
	for i := range out {
		p := firstPartition + i
		if p > 0 && p%n == 0 {
			shift++
		}
		first := (p + start) % n
		reps := []int{ids[first]}
		for j := 0; j < rf-1; j++ {
			reps = append(reps, ids[replicaIndex(first, shift, j, n)])
		}
		out[i] = reps
	}
	return out
}

// rackAlternated is AdminUtils.getRackAlternatedBrokerList: racks in
// String order, brokers by id within a rack, taken one rack at a time.
func rackAlternated(bs []broker) (ids []int, rackOf map[int]string, racks int) {
	byRack := map[string][]int{}
	var names []string
	rackOf = map[int]string{}
	for _, b := range bs {
		if _, ok := byRack[b.rack]; !ok {
			names = append(names, b.rack)
		}
		byRack[b.rack] = append(byRack[b.rack], b.id)
		rackOf[b.id] = b.rack
	}
	slices.SortFunc(names, javaCompare)
	for _, r := range names {
		slices.Sort(byRack[r])
	}
	pos := make([]int, len(names))
	for ri := 0; len(ids) < len(bs); ri = (ri + 1) % len(names) {
		if l := byRack[names[ri]]; pos[ri] < len(l) {
			ids = append(ids, l[pos[ri]])
			pos[ri]++
		}
	}
	return ids, rackOf, len(names)
}

func adminRackAware(bs []broker, count, rf, start, firstPartition int) [][]int {
	ids, rackOf, racks := rackAlternated(bs)
	n := len(ids)
	shift := start
	out := make([][]int, count)
	for i := range out {
		p := firstPartition + i
		if p > 0 && p%n == 0 {
			shift++
		}
		first := (p + start) % n
		leader := ids[first]
		reps := []int{leader}
		rackUsed := map[string]bool{rackOf[leader]: true}
		used := map[int]bool{leader: true}
		k := 0
		for j := 0; j < rf-1; j++ {
			for {
				b := ids[replicaIndex(first, shift*racks, k, n)]
				r := rackOf[b]
				k++
				if (!rackUsed[r] || len(rackUsed) == racks) && (!used[b] || len(used) == n) {
					reps = append(reps, b)
					rackUsed[r] = true
					used[b] = true
					break
				}
			}
		}
		out[i] = reps
	}
	return out
}
