// Package elasticsearch reproduces how Elasticsearch 7.0 to 9.x routes a
// document to a shard, and models, as ringreport's own rule, how shards sit
// on nodes.
//
// Key → shard is bit for bit: the key is the _routing value (or the _id
// when a document has no routing), Murmur3HashFunction.hash hashes its
// UTF-16 code units with murmur3_x86_32, seed 0, and IndexRouting.hashToShardId
// takes floorMod(hash, routing_num_shards) /
// (routing_num_shards / number_of_shards) (server/.../cluster/routing/
// IndexRouting.java, Murmur3HashFunction.java; the legacy routing of every
// released version: the modulo RoutingFunction of the main branch's
// resharding work is not modelled). routing_num_shards defaults as
// MetadataCreateIndexService.calculateNumRoutingShards does for indices
// created on 7.0 or later; split and shrink follow IndexMetadata.getRoutingFactor,
// selectSplitShard and selectShrinkShards.
//
// Shard → nodes is NOT Elasticsearch's: its BalancedShardsAllocator
// weighs shard counts, disk, write load and allocation deciders, and is no
// function of the key. ringreport places the copies (primary, then
// number_of_replicas replicas, never two on one node, as ES's
// SameShardAllocationDecider requires) with a documented deterministic
// rule: at index creation copy c of shard s goes to live node (s+c) mod n;
// afterwards copies stay where they are, a node that is Down or removed
// loses its copies (a replica of each lost primary is promoted, the first
// in copy order), lost copies are rebuilt on the live node holding the
// fewest copies (earliest in the list on ties), and copies then move one at
// a time from the most loaded node to the least loaded until the counts
// differ by at most one. Owners returns primary first, then replicas.
// Server weights, zones and racks (allocation awareness) are ignored.
package elasticsearch

import (
	"fmt"
	"math/bits"

	"github.com/ringreport/ringreport/internal/profile"
)

// MaxShards is the largest number_of_shards Elasticsearch accepts
// (es.index.max_number_of_shards, 1024 by default).
const MaxShards = 1024

// Options are the index settings that change placement.
type Options struct {
	// Shards is index.number_of_shards, 1 to 1024. Default 1 (ES 7.0+).
	Shards int `yaml:"shards"`
	// RoutingNumShards is index.number_of_routing_shards: a multiple of
	// Shards that bounds later splits. Default calculateNumRoutingShards
	// for indices created on 7.0+: Shards·2^max(1, 10 − ⌈log2 Shards⌉)
	// (1024 for 1 shard, 640 for 5). Indices created before 7.0 had
	// routing_num_shards = number_of_shards: set it to Shards for them.
	RoutingNumShards int `yaml:"routing_num_shards"`
	// RoutingPartitionSize is index.routing_partition_size. Only 1 (the
	// default) is modelled: with p > 1 the shard also depends on
	// floorMod(hash(_id), p), and ringreport's keys carry only the routing.
	RoutingPartitionSize int `yaml:"routing_partition_size"`
	// Replicas is index.number_of_replicas, 0 or more. Default 1. A nil
	// pointer means the default, so 0 can be given explicitly.
	Replicas *int `yaml:"replicas"`
}

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.RoutingNumShards == 0 && o.Shards > 0 && o.Shards <= MaxShards {
		o.RoutingNumShards = CalculateNumRoutingShards(o.Shards)
	}
	if o.RoutingPartitionSize == 0 {
		o.RoutingPartitionSize = 1
	}
	if o.Replicas == nil {
		one := 1
		o.Replicas = &one
	}
	return o
}

// CalculateNumRoutingShards is MetadataCreateIndexService.calculateNumRoutingShards
// for indices created on 7.0 or later: the
// largest Shards·2^k ≤ 1024 with k ≥ 1, so every index can split at least
// once. shards must be 1 to 1024.
func CalculateNumRoutingShards(shards int) int {
	log2 := 32 - bits.LeadingZeros32(uint32(shards-1)) // ⌈log2 shards⌉
	return shards << max(1, 10-log2)
}

// Rule is the Elasticsearch routing rule for one index. New returns it as
// a profile.Rule; callers that need shard numbers type-assert to *Rule.
type Rule struct {
	o Options
}

// New validates o and returns its rule.
func New(o Options) (profile.Rule, error) {
	o = o.Effective()
	switch {
	case o.Shards < 1 || o.Shards > MaxShards:
		return nil, fmt.Errorf("elasticsearch: shards %d is out of range: number_of_shards is 1 to %d", o.Shards, MaxShards)
	case o.RoutingNumShards < o.Shards:
		return nil, fmt.Errorf("elasticsearch: index.number_of_routing_shards [%d] must be >= index.number_of_shards [%d]", o.RoutingNumShards, o.Shards)
	case o.RoutingNumShards%o.Shards != 0:
		return nil, fmt.Errorf("elasticsearch: the number of source shards [%d] must be a factor of [%d]: routing_num_shards must be a multiple of shards, e.g. %d or %d",
			o.Shards, o.RoutingNumShards, o.RoutingNumShards/o.Shards*o.Shards, (o.RoutingNumShards/o.Shards+1)*o.Shards)
	case o.RoutingPartitionSize < 1:
		return nil, fmt.Errorf("elasticsearch: routing_partition_size %d is out of range: it is at least 1", o.RoutingPartitionSize)
	case o.RoutingPartitionSize > 1:
		return nil, fmt.Errorf("elasticsearch: routing_partition_size %d is not modelled: the shard then depends on each document's _id as well as its routing, and ringreport keys carry only the routing; use 1", o.RoutingPartitionSize)
	case *o.Replicas < 0:
		return nil, fmt.Errorf("elasticsearch: replicas %d is out of range: number_of_replicas is 0 or more", *o.Replicas)
	}
	replicas := *o.Replicas // the rule keeps its own copy
	o.Replicas = &replicas
	return &Rule{o: o}, nil
}

// Options returns the rule's effective options.
func (r *Rule) Options() Options { return r.o }

// Hash returns RoutingHash(key) (as uint32), which does not depend on the
// shard count.
func (r *Rule) Hash(key []byte) uint64 { return uint64(RoutingHash(key)) }

// Shard returns the index's shard for a key of hash h.
func (r *Rule) Shard(h uint64) int { return Shard(h, r.o.Shards, r.o.RoutingNumShards) }

// Shard is IndexRouting.hashToShardId: floorMod(int32(h), routingNumShards)
// / (routingNumShards / shards). routingNumShards must be a multiple of
// shards.
func Shard(h uint64, shards, routingNumShards int) int {
	m := int(int32(uint32(h))) % routingNumShards
	if m < 0 {
		m += routingNumShards
	}
	return m / (routingNumShards / shards)
}
