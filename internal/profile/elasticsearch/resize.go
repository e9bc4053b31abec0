package elasticsearch

import (
	"fmt"
	"strconv"
	"strings"
)

// CheckResize reports whether an index of from shards and routing_num_shards
// routingNumShards can be resized to to shards, with the rules of
// IndexMetadata.getRoutingFactor and selectSplitShard (split: to is a
// multiple of from and, unless from is 1, a factor of routingNumShards) and
// selectShrinkShards (shrink: to is a factor of from). Equal counts are a
// clone, always allowed. Errors quote Elasticsearch's message and list the
// shard counts that would be accepted.
func CheckResize(from, to, routingNumShards int) error {
	switch {
	case from < 1 || from > MaxShards || to < 1 || to > MaxShards:
		return fmt.Errorf("elasticsearch: cannot resize %d shards to %d: shard counts are 1 to %d", from, to, MaxShards)
	case routingNumShards < from || routingNumShards%from != 0:
		return fmt.Errorf("elasticsearch: routing_num_shards %d is not a multiple of the %d shards", routingNumShards, from)
	case to == from:
		return nil
	case to > from && to%from != 0:
		return fmt.Errorf("elasticsearch: cannot split %d shards into %d: the number of source shards [%d] must be a factor of [%d]; allowed: %s",
			from, to, from, to, splitTargets(from, routingNumShards))
	case to > from && from != 1 && routingNumShards%to != 0:
		return fmt.Errorf("elasticsearch: cannot split %d shards into %d: the number of routing shards [%d] must be a multiple of the target shards [%d]; allowed: %s",
			from, to, routingNumShards, to, splitTargets(from, routingNumShards))
	case to < from && from%to != 0:
		return fmt.Errorf("elasticsearch: cannot shrink %d shards to %d: the number of source shards [%d] must be a multiple of [%d]; allowed: %s",
			from, to, from, to, shrinkTargets(from))
	}
	return nil
}

// splitTargets lists the shard counts an index can split into.
func splitTargets(from, routingNumShards int) string {
	if from == 1 {
		return fmt.Sprintf("any number of shards from 2 to %d", MaxShards)
	}
	var out []string
	for m := 2 * from; m <= routingNumShards && m <= MaxShards; m += from {
		if routingNumShards%m == 0 {
			out = append(out, strconv.Itoa(m))
		}
	}
	if len(out) == 0 {
		return fmt.Sprintf("none (routing_num_shards %d allows no split of %d shards)", routingNumShards, from)
	}
	return strings.Join(out, ", ")
}

// shrinkTargets lists the shard counts an index can shrink to.
func shrinkTargets(from int) string {
	var out []string
	for t := 1; t < from; t++ {
		if from%t == 0 {
			out = append(out, strconv.Itoa(t))
		}
	}
	if len(out) == 0 {
		return "none (an index of 1 shard cannot shrink)"
	}
	return strings.Join(out, ", ")
}

// Resize returns the options of the index that a _split or _shrink of an
// index with options o to to shards creates, after CheckResize: the target
// keeps the source's routing_num_shards, except that a source of one shard
// gets the default for to shards (MetadataCreateIndexService.getIndexNumberOfRoutingShards).
func Resize(o Options, to int) (Options, error) {
	o = o.Effective()
	if err := CheckResize(o.Shards, to, o.RoutingNumShards); err != nil {
		return Options{}, err
	}
	if o.Shards == 1 && to != 1 {
		o.RoutingNumShards = CalculateNumRoutingShards(to)
	}
	o.Shards = to
	return o, nil
}
