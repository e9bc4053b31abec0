package redis

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Placement is a Redis Cluster slot table over one membership: each slot's
// master, as the redis-cli planners left it.
type Placement struct {
	servers []profile.Server
	owner   []int32 // slot → index into servers
	serve   []int32 // slot → owner if it can serve, else -1
	count   []int   // slots held, per server
	pending bool    // a change waits for every master to be up
	plan    []Move
}

// Owners appends the master of slot h (h's low 14 bits) to dst, or nothing
// when that slot cannot be served (its master is down, or the cluster as a
// whole refuses queries; see the package doc). ringreport has no Redis
// replicas, so r > 1 still yields at most the master.
func (p *Placement) Owners(h uint64, r int, dst []int) []int {
	if r < 1 {
		return dst
	}
	if o := p.serve[h&(Slots-1)]; o >= 0 {
		dst = append(dst, int(o))
	}
	return dst
}

// Owner returns the index of the server the slot (0..16383) is assigned
// to, whether or not it can serve it now.
func (p *Placement) Owner(slot int) int { return int(p.owner[slot]) }

// Counts returns how many slots each server holds, in server order.
func (p *Placement) Counts() []int { return slices.Clone(p.count) }

// Plan returns the moves of the rebalance this Build ran, in redis-cli's
// order; nil when none ran or none was needed.
func (p *Placement) Plan() []Move { return slices.Clone(p.plan) }

// Pending reports that a membership or weight change could not be planned
// because a master was down; the next Build with every server up plans it.
func (p *Placement) Pending() bool { return p.pending }

// weightOf is a server's --cluster-weight: its Weight, 0 meaning 1.
func weightOf(s profile.Server) float32 {
	if s.Weight == 0 {
		return 1
	}
	return float32(s.Weight)
}

// checkServers rejects lists redis-cli could not form a cluster from.
func checkServers(servers []profile.Server) error {
	if len(servers) == 0 {
		return errors.New("redis: no servers; a cluster needs at least one master")
	}
	if len(servers) > Slots {
		return fmt.Errorf("redis: %d servers; a cluster has at most %d masters with a slot each", len(servers), Slots)
	}
	seen := make(map[string]bool, len(servers))
	for i, s := range servers {
		switch {
		case s.Name == "":
			return fmt.Errorf("redis: server %d has no name", i)
		case seen[s.Name]:
			return fmt.Errorf("redis: server %q is listed twice", s.Name)
		case s.Weight < 0:
			return fmt.Errorf("redis: server %q has weight %d; weights are ≥ 1 (remove a server by leaving it out)", s.Name, s.Weight)
		}
		seen[s.Name] = true
	}
	return nil
}

// Build returns the slot table after the membership change from prev to
// servers (see the package doc for the redis-cli commands it stands for).
func (r *rule) Build(servers []profile.Server, prev profile.Placement) (profile.Placement, error) {
	if err := checkServers(servers); err != nil {
		return nil, err
	}
	p := &Placement{servers: slices.Clone(servers)}
	var d delta
	if prev == nil {
		names := make([]string, len(servers))
		for i, s := range servers {
			names[i] = s.Name
			d.reweighted = d.reweighted || weightOf(s) != 1
		}
		p.owner = create(names)
	} else {
		q, ok := prev.(*Placement)
		if !ok {
			return nil, fmt.Errorf("redis: prev is a %T, not a redis placement", prev)
		}
		p.owner, d = carry(q, servers)
	}
	if err := r.plan(p, d); err != nil {
		return nil, err
	}
	p.finish(r.full)
	return p, nil
}

// delta is what changed between two memberships.
type delta struct {
	removed    []profile.Server // in their previous order
	added      bool
	reweighted bool // a kept server's weight changed (or, at create, a weight is not 1)
	pending    bool // the previous Build left a change pending
}

// carry maps q's slot table onto servers by name. Slots of servers no
// longer listed are marked -(1 + i) for d.removed[i].
func carry(q *Placement, servers []profile.Server) (owner []int32, d delta) {
	at := make(map[string]int, len(servers))
	for i, s := range servers {
		at[s.Name] = i
	}
	remap := make([]int32, len(q.servers))
	kept := 0
	for i, s := range q.servers {
		j, ok := at[s.Name]
		if !ok {
			remap[i] = int32(-1 - len(d.removed))
			d.removed = append(d.removed, s)
			continue
		}
		remap[i] = int32(j)
		kept++
		d.reweighted = d.reweighted || weightOf(s) != weightOf(servers[j])
	}
	d.added = kept < len(servers)
	d.pending = q.pending
	owner = make([]int32, Slots)
	for x, o := range q.owner {
		owner[x] = remap[o]
	}
	return owner, d
}

// plan runs the rebalance d calls for when every server, listed or being
// removed, is up. While one is down redis-cli refuses to add or rebalance:
// the table stays, the change stays pending, and removing a server that
// holds slots fails (a down one included: its slots cannot be migrated, and
// --cluster fix would hand them to randomly chosen masters).
func (r *rule) plan(p *Placement, d delta) error {
	wait := d.added || d.reweighted || d.pending
	if !wait && len(d.removed) == 0 {
		return nil
	}
	for _, s := range append(slices.Clone(p.servers), d.removed...) {
		if s.Down {
			p.pending = wait
			return holdsNothing(p.owner, d.removed, s.Name)
		}
	}
	ms, id := r.members(p.servers, d.removed)
	for x, o := range p.owner {
		if o < 0 {
			o = int32(len(p.servers)) - 1 - o
		}
		p.owner[x] = int32(id[o])
	}
	plan, err := rebalance(p.owner, ms, r.threshold)
	if err != nil {
		return fmt.Errorf("redis: %w", err)
	}
	back := make([]int32, len(ms)) // member → server index (≥ len(servers): removed)
	for k, m := range id {
		back[m] = int32(k)
	}
	for x, m := range p.owner {
		k := back[m]
		if int(k) >= len(p.servers) {
			return fmt.Errorf("redis: %q keeps slot %d after its weight-0 rebalance; del-node refuses a non-empty node", ms[m].name, x)
		}
		p.owner[x] = k
	}
	p.plan = plan
	return nil
}

// holdsNothing fails when a removed server still holds a slot while master
// down is down.
func holdsNothing(owner []int32, removed []profile.Server, down string) error {
	for x, o := range owner {
		if o < 0 {
			return fmt.Errorf("redis: cannot remove %q: it holds slot %d and master %q is down (redis-cli refuses to rebalance a cluster whose slots are not all covered)",
				removed[-1-o].Name, x, down)
		}
	}
	return nil
}

// members lists the rebalance's masters in redis-cli's node order: the
// listed servers with their weights, then the removed ones with weight 0,
// reordered by Options.Order. id maps that default position (servers
// first, then removed) to the member index.
func (r *rule) members(servers, removed []profile.Server) (ms []member, id []int) {
	all := append(slices.Clone(servers), removed...)
	key := func(i int) int {
		if k, ok := r.rank[all[i].Name]; ok {
			return k
		}
		return len(r.rank) + i
	}
	pos := make([]int, len(all))
	for i := range pos {
		pos[i] = i
	}
	slices.SortFunc(pos, func(a, b int) int { return key(a) - key(b) })
	id = make([]int, len(all))
	ms = make([]member, len(all))
	for m, i := range pos {
		id[i] = m
		ms[m] = member{name: all[i].Name, weight: weightOf(all[i])}
		if i >= len(servers) {
			ms[m].weight = 0
		}
	}
	return ms, id
}

// finish counts each server's slots and decides which slots can be served:
// none when the masters up are a minority of those holding slots, none
// when full coverage is required and a master holding slots is down, and
// otherwise those of the masters up.
func (p *Placement) finish(full bool) {
	p.count = make([]int, len(p.servers))
	for _, o := range p.owner {
		p.count[o]++
	}
	size, up := 0, 0
	for i, s := range p.servers {
		if p.count[i] > 0 {
			size++
			if !s.Down {
				up++
			}
		}
	}
	dark := up < size/2+1 || (full && up < size)
	p.serve = make([]int32, Slots)
	for x, o := range p.owner {
		p.serve[x] = o
		if dark || p.servers[o].Down {
			p.serve[x] = -1
		}
	}
}
