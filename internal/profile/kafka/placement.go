package kafka

import (
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// Placement is a topic's replica assignment over one membership.
type Placement struct {
	rule *Rule
	// assign holds each partition's replica list as broker ids, preferred
	// leader first; Kafka keeps it across membership changes.
	assign [][]int
	// ids maps every broker name ever seen to its broker id, so a broker
	// keeps its id when others leave the list.
	ids map[string]int
	// start and flat hold, per partition, the indexes into the servers of
	// Build of its live replicas in replica order: flat[start[p]:start[p+1]].
	start []int32
	flat  []int32
	// servers is the servers' broker id, by index.
	servers []int
}

// Build returns the topic's assignment over servers. With prev nil (or
// from another product) the topic is created; with prev a *Placement of
// this package every existing partition keeps its replicas, and partitions
// beyond prev's count are added as CreatePartitions adds them. Build fails
// if the partition count shrinks or the replication factor changes (Kafka
// allows neither without kafka-reassign-partitions), if two servers share a
// name or a broker id, or if Kafka itself would refuse the placement.
func (r *Rule) Build(servers []profile.Server, prev profile.Placement) (profile.Placement, error) {
	var old *Placement
	if p, ok := prev.(*Placement); ok && p != nil {
		old = p
	}
	ids, byIndex, err := brokerIDs(servers, old)
	if err != nil {
		return nil, err
	}
	pl := &Placement{rule: r, ids: ids, servers: byIndex}
	var existing [][]int
	if old != nil {
		existing = old.assign
	}
	if err := r.extend(pl, servers, byIndex, existing); err != nil {
		return nil, err
	}
	pl.index(servers)
	return pl, nil
}

// extend sets pl.assign to existing plus the partitions the rule adds.
func (r *Rule) extend(pl *Placement, servers []profile.Server, byIndex []int, existing [][]int) error {
	n := r.o.Partitions
	switch {
	case len(existing) > n:
		return fmt.Errorf("kafka: partitions %d is fewer than the topic's %d: Kafka can only increase a topic's partition count", n, len(existing))
	case len(existing) > 0 && len(existing[0]) != r.o.ReplicationFactor:
		return fmt.Errorf("kafka: replication_factor %d differs from the topic's %d: Kafka keeps it (only kafka-reassign-partitions changes it)", r.o.ReplicationFactor, len(existing[0]))
	}
	pl.assign = slices.Clip(existing)
	if len(existing) == n {
		return nil
	}
	var brokers []broker
	for i, s := range servers {
		if s.Down && r.o.Assignment == ZooKeeper {
			continue // a failed broker has no registration in ZooKeeper
		}
		brokers = append(brokers, broker{id: byIndex[i], rack: s.Rack, hasRack: s.Rack != "", fenced: s.Down})
	}
	var added [][]int
	var err error
	if r.o.Assignment == ZooKeeper {
		added, err = placeAdminUtils(brokers, existing, n-len(existing), r.o.ReplicationFactor)
	} else {
		added, err = placeStriped(brokers, existing, n-len(existing), r.o.ReplicationFactor)
	}
	if err != nil {
		return err
	}
	pl.assign = append(pl.assign, added...)
	return nil
}

// brokerIDs gives every server its broker id: Server.ID when set, else the
// id the broker had in prev, else its 1-based position unless another
// broker holds that id, in which case one more than the highest id known.
func brokerIDs(servers []profile.Server, prev *Placement) (map[string]int, []int, error) {
	ids := map[string]int{}
	taken := map[int]string{}
	maxID := 0
	if prev != nil {
		for name, id := range prev.ids {
			ids[name] = id
			taken[id] = name
			maxID = max(maxID, id)
		}
	}
	byIndex := make([]int, len(servers))
	seen := map[string]bool{}
	for i, s := range servers {
		if seen[s.Name] {
			return nil, nil, fmt.Errorf("kafka: server %q is listed twice", s.Name)
		}
		seen[s.Name] = true
		if s.ID < 0 {
			return nil, nil, fmt.Errorf("kafka: server %q has broker id %d: ids are ≥ 0 (0 means its position)", s.Name, s.ID)
		}
		if s.ID > 0 {
			if other, ok := taken[s.ID]; ok && other != s.Name {
				return nil, nil, fmt.Errorf("kafka: servers %q and %q both have broker id %d", other, s.Name, s.ID)
			}
			ids[s.Name], taken[s.ID], byIndex[i] = s.ID, s.Name, s.ID
			maxID = max(maxID, s.ID)
		}
	}
	for i, s := range servers {
		if s.ID > 0 {
			continue
		}
		id, ok := ids[s.Name]
		if !ok {
			id = i + 1
			if _, busy := taken[id]; busy {
				id = maxID + 1
			}
			ids[s.Name], taken[id] = id, s.Name
			maxID = max(maxID, id)
		}
		byIndex[i] = id
	}
	return ids, byIndex, nil
}

// index fills start and flat from assign for the live servers.
func (pl *Placement) index(servers []profile.Server) {
	live := make(map[int]int32, len(servers))
	for i, s := range servers {
		if !s.Down {
			live[pl.servers[i]] = int32(i)
		}
	}
	pl.start = make([]int32, len(pl.assign)+1)
	pl.flat = make([]int32, 0, len(pl.assign)*max(1, pl.rule.o.ReplicationFactor))
	for p, reps := range pl.assign {
		for _, id := range reps {
			if i, ok := live[id]; ok {
				pl.flat = append(pl.flat, i)
			}
		}
		pl.start[p+1] = int32(len(pl.flat))
	}
}

// Owners appends the live replicas of the key's partition, leader first.
func (pl *Placement) Owners(h uint64, r int, dst []int) []int {
	p := pl.rule.Partition(h, len(pl.assign))
	reps := pl.flat[pl.start[p]:pl.start[p+1]]
	for i := 0; i < len(reps) && i < r; i++ {
		dst = append(dst, int(reps[i]))
	}
	return dst
}

// Partitions returns the topic's partition count.
func (pl *Placement) Partitions() int { return len(pl.assign) }

// Replicas returns partition p's replica list as broker ids, preferred
// leader first, including brokers that are Down or gone.
func (pl *Placement) Replicas(p int) []int { return slices.Clone(pl.assign[p]) }

// BrokerID returns the broker id of server i of Build.
func (pl *Placement) BrokerID(i int) int { return pl.servers[i] }
