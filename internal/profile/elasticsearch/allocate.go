package elasticsearch

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Placement is an index's shard copies over one membership, as
// ringreport's allocation rule (see the package doc) places them.
type Placement struct {
	rule *Rule
	// copies holds each shard's nodes by name, primary first.
	copies [][]string
	// start and flat hold each shard's copies as indexes into the servers
	// of Build: flat[start[s]:start[s+1]].
	start []int32
	flat  []int32
}

// Build places the index's shard copies on the live servers. With prev a
// *Placement of this package the copies stay where they were as far as the
// rule allows; when the shard count differs from prev's, the change must be
// a valid split or shrink of prev's index (CheckResize, with the options
// Resize gives) and each new shard starts on the nodes of its source shard.
// Build fails if two servers share a name.
func (r *Rule) Build(servers []profile.Server, prev profile.Placement) (profile.Placement, error) {
	pos := make(map[string]int, len(servers))
	var live []string
	for i, s := range servers {
		if _, dup := pos[s.Name]; dup {
			return nil, fmt.Errorf("elasticsearch: server %q is listed twice", s.Name)
		}
		pos[s.Name] = i
		if !s.Down {
			live = append(live, s.Name)
		}
	}
	want := min(1+*r.o.Replicas, len(live))
	var copies [][]string
	if old, ok := prev.(*Placement); ok && old != nil {
		var err error
		if copies, err = r.inherit(old); err != nil {
			return nil, err
		}
		copies = keepLive(copies, pos, servers, want)
	} else {
		copies = initial(r.o.Shards, live, want)
	}
	counts := make(map[string]int, len(live))
	for _, cs := range copies {
		for _, n := range cs {
			counts[n]++
		}
	}
	fill(copies, live, counts, want)
	rebalance(copies, live, counts)
	pl := &Placement{rule: r, copies: copies}
	pl.index(pos)
	return pl, nil
}

// inherit returns prev's copies, mapped through a split or shrink when the
// shard count changed.
func (r *Rule) inherit(prev *Placement) ([][]string, error) {
	from, to := len(prev.copies), r.o.Shards
	if from == to {
		if prev.rule.o.RoutingNumShards != r.o.RoutingNumShards {
			return nil, fmt.Errorf("elasticsearch: routing_num_shards changed from %d to %d: an index keeps it for life", prev.rule.o.RoutingNumShards, r.o.RoutingNumShards)
		}
		return cloneCopies(prev.copies), nil
	}
	next, err := Resize(prev.rule.o, to)
	if err != nil {
		return nil, err
	}
	if next.RoutingNumShards != r.o.RoutingNumShards {
		return nil, fmt.Errorf("elasticsearch: resizing %d shards to %d gives routing_num_shards %d, not %d (use Resize for the new options)", from, to, next.RoutingNumShards, r.o.RoutingNumShards)
	}
	out := make([][]string, to)
	for t := range out {
		src := t / max(1, to/from) // split: the source is t / factor
		if to < from {
			src = t * (from / to) // shrink: the first of the merged shards
		}
		out[t] = slices.Clone(prev.copies[src])
	}
	return out, nil
}

func cloneCopies(c [][]string) [][]string {
	out := make([][]string, len(c))
	for i, cs := range c {
		out[i] = slices.Clone(cs)
	}
	return out
}

// initial places copy c of shard s on live node (s+c) mod n.
func initial(shards int, live []string, want int) [][]string {
	out := make([][]string, shards)
	for s := range out {
		for c := range want {
			out[s] = append(out[s], live[(s+c)%len(live)])
		}
	}
	return out
}

// keepLive drops copies on nodes that are Down or gone (the next copy of a
// lost primary becomes primary) and copies beyond want.
func keepLive(copies [][]string, pos map[string]int, servers []profile.Server, want int) [][]string {
	for s, cs := range copies {
		kept := cs[:0]
		for _, n := range cs {
			if i, ok := pos[n]; ok && !servers[i].Down && len(kept) < want {
				kept = append(kept, n)
			}
		}
		copies[s] = kept
	}
	return copies
}

// fill gives every shard want copies, each on the live node holding the
// fewest copies that has none of that shard (earliest in the list on ties).
func fill(copies [][]string, live []string, counts map[string]int, want int) {
	for s := range copies {
		for len(copies[s]) < want {
			best := ""
			for _, n := range live {
				if !slices.Contains(copies[s], n) && (best == "" || counts[n] < counts[best]) {
					best = n
				}
			}
			copies[s] = append(copies[s], best)
			counts[best]++
		}
	}
}

// rebalance moves one copy at a time from the most loaded live node (the
// latest in the list on ties) to the least loaded (the earliest), taking
// the highest-numbered shard that the target does not hold, until the
// counts differ by at most one or no such move is left.
func rebalance(copies [][]string, live []string, counts map[string]int) {
	if len(live) < 2 {
		return
	}
	for {
		hi, lo := live[0], live[0]
		for _, n := range live {
			if counts[n] >= counts[hi] {
				hi = n
			}
			if counts[n] < counts[lo] {
				lo = n
			}
		}
		if counts[hi]-counts[lo] <= 1 || !move(copies, hi, lo) {
			return
		}
		counts[hi]--
		counts[lo]++
	}
}

// move relocates hi's copy of the highest shard that lo lacks onto lo,
// keeping the copy's role.
func move(copies [][]string, hi, lo string) bool {
	for s := len(copies) - 1; s >= 0; s-- {
		i := slices.Index(copies[s], hi)
		if i >= 0 && !slices.Contains(copies[s], lo) {
			copies[s][i] = lo
			return true
		}
	}
	return false
}

// index fills start and flat from copies.
func (pl *Placement) index(pos map[string]int) {
	pl.start = make([]int32, len(pl.copies)+1)
	pl.flat = make([]int32, 0, len(pl.copies)*(1+*pl.rule.o.Replicas))
	for s, cs := range pl.copies {
		for _, n := range cs {
			pl.flat = append(pl.flat, int32(pos[n]))
		}
		pl.start[s+1] = int32(len(pl.flat))
	}
}

// Owners appends the nodes of the key's shard, primary first.
func (pl *Placement) Owners(h uint64, r int, dst []int) []int {
	s := pl.rule.Shard(h)
	cs := pl.flat[pl.start[s]:pl.start[s+1]]
	for i := 0; i < len(cs) && i < r; i++ {
		dst = append(dst, int(cs[i]))
	}
	return dst
}

// Shards returns the index's shard count.
func (pl *Placement) Shards() int { return len(pl.copies) }

// Copies returns shard s's nodes by name, primary first.
func (pl *Placement) Copies(s int) []string { return slices.Clone(pl.copies[s]) }
