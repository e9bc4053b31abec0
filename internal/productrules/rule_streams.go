package productrules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/elasticsearch"
	"github.com/ringreport/ringreport/internal/profile/kafka"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// The registry entries of this file's profiles.
var (
	KafkaKind         = Kind(kafkaProfile)
	ElasticsearchKind = Kind(elasticsearchProfile)
)

// kafkaProfile is a Kafka topic's keyed producer partitioner and its
// replica assignment (internal/profile/kafka): nodes are brokers, a key's
// owners are its partition's live replicas, leader first.
var kafkaProfile = rulekind.Profile{
	Name: "kafka",
	Doc:  "Kafka keyed producer: partition = the client's hash of the key mod partitions (Java: murmur2 & 0x7fffffff), partitions on brokers by the replica assignment of kafka-topics --create (random draws fixed); existing partitions never move when brokers change.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "partitions", Type: rulekind.ParamInt, Min: 1, Max: 1_000_000, Required: true,
			Doc: "The topic's partition count; required, since Kafka's default of 1 is no keyed topic's.", One: "partition", Many: "partitions"}),
		rulekind.Opt(rulekind.Param{Name: "replication_factor", Type: rulekind.ParamInt, Min: 1, Max: 64, Default: "1",
			Doc: "Replicas per partition, at most the brokers at creation.", Prefix: "replication factor "}),
		rulekind.Opt(rulekind.Param{Name: "client", Type: rulekind.ParamEnum, Values: kafkaClients(), Default: string(kafka.Java),
			Doc: "The producer client whose partitioner runs.", Prefix: "client "}),
		rulekind.Opt(rulekind.Param{Name: "assignment", Type: rulekind.ParamEnum, Values: []string{string(kafka.KRaft), string(kafka.ZooKeeper)}, Default: string(kafka.KRaft),
			Doc: "The replica assigner: kraft (StripedReplicaPlacer) or zookeeper (AdminUtils).", Prefix: "assignment "}),
	},
	Bits: 32, Mosaic: true,
	Table: func(spec placer.RuleSpec, _ int64) int64 { // at creation: partitions steps are not counted
		return int64(atoi(spec.Opts["partitions"])) * int64(atoi(spec.Opts["replication_factor"]))
	},
	PositionText: func(r profile.Rule, pl profile.Placement, h uint64) string {
		return "partition " + strconv.Itoa(kafkaPartition(r, pl, h))
	},
	Unit:   kafkaPartition,
	Resize: timeline.OpPartitions,
	Resized: func(spec placer.RuleSpec, to int) (placer.RuleSpec, error) {
		if from := atoi(spec.Opts["partitions"]); to < from {
			return spec, fmt.Errorf("a topic's partitions can only grow (Kafka refuses to go from %d to %d)", from, to)
		}
		spec.Opts = withOpt(spec.Opts, "partitions", strconv.Itoa(to))
		return spec, nil
	},
	New: func(spec placer.RuleSpec) (profile.Rule, error) {
		return kafka.New(kafka.Options{Partitions: atoi(spec.Opts["partitions"]), ReplicationFactor: atoi(spec.Opts["replication_factor"]),
			Client: kafka.Client(spec.Opts["client"]), Assignment: kafka.Assigner(spec.Opts["assignment"])})
	},
}

// kafkaPartition is the partition a key of position h writes to.
func kafkaPartition(r profile.Rule, _ profile.Placement, h uint64) int {
	kr := r.(*kafka.Rule)
	return kr.Partition(h, kr.Options().Partitions)
}

func kafkaClients() []string {
	out := make([]string, len(kafka.Clients))
	for i, c := range kafka.Clients {
		out[i] = string(c)
	}
	return out
}

// elasticsearchProfile is Elasticsearch's document routing to shards
// (internal/profile/elasticsearch); shards go to nodes by ringreport's own
// documented allocation, not Elasticsearch's balancer.
var elasticsearchProfile = rulekind.Profile{
	Name: "elasticsearch",
	Doc:  "Elasticsearch 7+ routing: shard = floorMod(murmur3_x86_32(UTF-16 of _routing), routing_num_shards) / (routing_num_shards / shards); shard copies on nodes by ringreport's own balanced allocation (not Elasticsearch's allocator).",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "shards", Type: rulekind.ParamInt, Min: 1, Max: elasticsearch.MaxShards, Default: "1",
			Doc: "index.number_of_shards.", One: "shard", Many: "shards"}),
		rulekind.Opt(rulekind.Param{Name: "routing_num_shards", Type: rulekind.ParamInt, Min: 1, Max: 1 << 20,
			Doc: "index.number_of_routing_shards, a multiple of shards; default as Elasticsearch 7.0+ computes it (640 for 5 shards).", Prefix: "routing_num_shards "}),
		rulekind.Opt(rulekind.Param{Name: "number_of_replicas", Type: rulekind.ParamInt, Min: 0, Max: 63, Default: "1",
			Doc: "index.number_of_replicas: copies of each shard beside its primary.", Prefix: "number_of_replicas "}),
	},
	Bits: 32, Mosaic: true,
	PositionText: func(r profile.Rule, _ profile.Placement, h uint64) string {
		return "shard " + strconv.Itoa(r.(*elasticsearch.Rule).Shard(h))
	},
	Unit:   func(r profile.Rule, _ profile.Placement, h uint64) int { return r.(*elasticsearch.Rule).Shard(h) },
	Resize: timeline.OpShards,
	Resized: func(spec placer.RuleSpec, to int) (placer.RuleSpec, error) {
		o, err := elasticsearch.Resize(elasticsearchOptions(spec), to)
		if err != nil {
			return spec, errors.New(strings.TrimPrefix(err.Error(), "elasticsearch: "))
		}
		spec.Opts = withOpt(spec.Opts, "shards", strconv.Itoa(o.Shards))
		spec.Opts = withOpt(spec.Opts, "routing_num_shards", strconv.Itoa(o.RoutingNumShards))
		return spec, nil
	},
	New: func(spec placer.RuleSpec) (profile.Rule, error) { return elasticsearch.New(elasticsearchOptions(spec)) },
	Effective: func(spec placer.RuleSpec) placer.RuleSpec {
		spec.Opts = withOpt(spec.Opts, "routing_num_shards", strconv.Itoa(elasticsearchOptions(spec).Effective().RoutingNumShards))
		return spec
	},
}

func elasticsearchOptions(spec placer.RuleSpec) elasticsearch.Options {
	reps := atoi(spec.Opts["number_of_replicas"])
	return elasticsearch.Options{Shards: atoi(spec.Opts["shards"]), RoutingNumShards: atoi(spec.Opts["routing_num_shards"]), Replicas: &reps}
}
