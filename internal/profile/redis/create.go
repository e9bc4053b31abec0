package redis

import (
	"math"
	"strings"
)

// Host returns the host part of a server name as redis-cli splits a node
// address (parseClusterNodeAddress): what precedes the last ':' once an
// "@bus-port" suffix is cut off. A name without ':' is all host (redis-cli
// would reject it; ringreport names need not be addresses).
func Host(name string) string {
	if i := strings.LastIndexByte(name, '@'); i >= 0 {
		name = name[:i]
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		return name[:i]
	}
	return name
}

// interleave returns the indexes 0..len(names)-1 in the order
// clusterManagerCommandCreate assigns slot ranges: the hosts in order of
// first appearance, taking one server from each host in turn (list order
// within a host), so that consecutive ranges fall on different hosts.
func interleave(names []string) []int {
	var hosts []string
	var byHost [][]int
	for i, n := range names {
		h := Host(n)
		k := 0
		for k < len(hosts) && hosts[k] != h {
			k++
		}
		if k == len(hosts) {
			hosts = append(hosts, h)
			byHost = append(byHost, nil)
		}
		byHost[k] = append(byHost[k], i)
	}
	out := make([]int, 0, len(names))
	for len(out) < len(names) {
		for k := range byHost {
			if len(byHost[k]) > 0 {
				out = append(out, byHost[k][0])
				byHost[k] = byHost[k][1:]
			}
		}
	}
	return out
}

// CreateRanges returns the slot ranges `redis-cli --cluster create` gives
// n masters, in assignment order: master i gets first[i]..last[i]. The
// arithmetic is redis-cli's, in single precision: a float cursor advances
// by 16384/n; each range ends at lround(cursor + 16384/n − 1), the last one
// at 16383, and starts after the previous one. redis-cli refuses fewer than
// 3 masters; the same arithmetic serves 1 and 2 here. n must be 1..16384.
func CreateRanges(n int) (first, last []int) {
	per := float32(Slots) / float32(n)
	cursor := float32(0)
	lo := 0
	for i := range n {
		end := float32(float32(cursor+per) - 1)
		hi := int(math.Round(float64(end))) // lround: halves away from zero
		if hi > Slots || i == n-1 {
			hi = Slots - 1
		}
		if hi < lo {
			hi = lo
		}
		first, last = append(first, lo), append(last, hi)
		lo = hi + 1
		cursor = float32(cursor + per)
	}
	return first, last
}

// create returns the slot table (slot → index into names) of
// `redis-cli --cluster create --cluster-replicas 0` over names.
func create(names []string) []int32 {
	owner := make([]int32, Slots)
	order := interleave(names)
	first, last := CreateRanges(len(order))
	for i, m := range order {
		for s := first[i]; s <= last[i]; s++ {
			owner[s] = int32(m)
		}
	}
	return owner
}
