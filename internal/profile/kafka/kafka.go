// Package kafka reproduces how Apache Kafka places a keyed record: the
// producer client's partitioner picks the partition from the key, and the
// topic's replica assignment picks the brokers of that partition.
//
// Partitioners, one per Client (key → partition, all bit for bit):
// the Java client's BuiltInPartitioner.partitionForKey (Kafka 3.3 to 4.x;
// DefaultPartitioner before it, same arithmetic), murmur2 and toPositive
// from clients/.../common/utils/Utils.java; kafkajs 2.x DefaultPartitioner;
// franz-go v1.22 (its default UniformBytesPartitioner and
// StickyKeyPartitioner hash keys with KafkaHasher(murmur2)); librdkafka 2.x
// (src/rdkafka_msg.c: consistent_random, murmur2_random, fnv1a_random);
// IBM/sarama v1.61 partitioner.go (NewHashPartitioner, the default,
// NewReferenceHashPartitioner, NewMurmur2Partitioner,
// NewConsistentCRCHashPartitioner). A record's partition depends on the key
// and the topic's partition count only, never on which brokers are up.
//
// Replica assignment (partition → brokers) is what `kafka-topics --create`
// without an explicit assignment gets: with Assignment "kraft" (the default;
// Kafka 3.3+ KRaft and the only mode of Kafka 4) the controller's
// StripedReplicaPlacer (metadata/.../placement/StripedReplicaPlacer.java);
// with "zookeeper" (Kafka ≤ 3.x in ZooKeeper mode) AdminUtils.assignReplicasToBrokers
// (server-common/.../admin/AdminUtils.java), both
// rack-aware when any broker has a Rack label. Both draw start offsets and
// shuffles at random; ringreport fixes every draw: each start offset is 0
// and each shuffle leaves its list in order, so partition p of a
// rack-unaware topic on unfenced brokers has replicas brokers[(p+k) mod n],
// k < replication factor (kraft), and the ZooKeeper placer runs with
// fixedStartIndex 0. That is one of the assignments Kafka can produce, not
// the one a given cluster produced. Partitions added later continue the
// stripe: kraft after the last partition's leader, as KAFKA-14437's
// tryGetPrevious*Offset (Kafka trunk after October 2024; before it the
// start was drawn at random again, which this choice is one outcome of);
// zookeeper from partition 0's leader, as AdminZkClient.createNewPartitionsAssignment.
//
// Membership: the servers are the brokers, in list order; a broker's id is
// Server.ID, or its 1-based position when ID is 0 (see Build for brokers
// that join later). The first Build creates the topic over the brokers
// present: a Down broker is registered but fenced under kraft (it may get
// follower replicas, never a leader) and absent under zookeeper (its
// registration is gone). Later Builds keep every existing partition's
// replica list, because Kafka never moves a partition by itself when
// brokers join, leave or fail (only kafka-reassign-partitions does, not
// modelled); partitions added by a larger Partitions option are placed as
// CreatePartitions places them. Owners returns a partition's replica list,
// preferred leader first, without the brokers that are Down or no longer
// listed: that is the leader and followers once Kafka has elected the first
// live in-sync replica (PartitionChangeBuilder's order) and the preferred
// leader election (auto.leader.rebalance.enable, on by default) has run;
// all replicas are assumed in sync. Server weights have no meaning in Kafka
// and are ignored.
package kafka

import (
	"fmt"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// Client names a producer client whose partitioner maps keys to partitions.
type Client string

// The clients this package reproduces.
const (
	// Java is the Apache Kafka Java producer: toPositive(murmur2(key)) % n.
	Java Client = "java"
	// KafkaJS is kafkajs 2.x's DefaultPartitioner, the same as Java.
	KafkaJS Client = "kafkajs"
	// FranzGo is twmb/franz-go's default partitioner (and
	// StickyKeyPartitioner(nil)), the same as Java.
	FranzGo Client = "franz-go"
	// Librdkafka is librdkafka's default partitioner consistent_random:
	// crc32(key) % n, unsigned (also confluent-kafka-go, -python, -dotnet).
	Librdkafka Client = "librdkafka"
	// LibrdkafkaMurmur2 is librdkafka's murmur2_random, the same as Java.
	LibrdkafkaMurmur2 Client = "librdkafka-murmur2"
	// LibrdkafkaFNV1a is librdkafka's fnv1a_random: |int32(fnv1a(key))| % n
	// (src/rdfnv1a.c takes the absolute value to match sarama's default),
	// the same partitions as Sarama.
	LibrdkafkaFNV1a Client = "librdkafka-fnv1a"
	// Sarama is IBM/sarama's default NewHashPartitioner: FNV-1a 32,
	// int32(h) % n (truncated), negated when negative.
	Sarama Client = "sarama"
	// SaramaReference is sarama's NewReferenceHashPartitioner:
	// (int32(h) & 0x7fffffff) % n over FNV-1a 32.
	SaramaReference Client = "sarama-reference"
	// SaramaMurmur2 is sarama's NewMurmur2Partitioner, the same as Java.
	SaramaMurmur2 Client = "sarama-murmur2"
	// SaramaCRC32 is sarama's NewConsistentCRCHashPartitioner, the same as
	// librdkafka's default.
	SaramaCRC32 Client = "sarama-crc32"
)

// Clients lists every Client in the order error messages name them.
var Clients = []Client{Java, KafkaJS, FranzGo, Librdkafka, LibrdkafkaMurmur2,
	LibrdkafkaFNV1a, Sarama, SaramaReference, SaramaMurmur2, SaramaCRC32}

// Assigner names the broker-side algorithm that assigns replicas to
// partitions when a topic is created or grows.
type Assigner string

// The assigners this package reproduces.
const (
	// KRaft is the KRaft controller's StripedReplicaPlacer (Kafka 3.3+, 4.x).
	KRaft Assigner = "kraft"
	// ZooKeeper is AdminUtils.assignReplicasToBrokers (ZooKeeper mode).
	ZooKeeper Assigner = "zookeeper"
)

// Options are the topic and client settings that change placement.
type Options struct {
	// Partitions is the topic's partition count, 1 to 1,000,000. Required:
	// Kafka's broker default num.partitions is 1, which no keyed topic
	// worth replaying uses, so ringreport asks for the number.
	Partitions int `yaml:"partitions"`
	// ReplicationFactor is the topic's replica count per partition, at
	// least 1 and at most the number of brokers at creation. Default 1,
	// Kafka's default.replication.factor.
	ReplicationFactor int `yaml:"replication_factor"`
	// Client is the producer client whose partitioner is replayed, one of
	// Clients. Default "java".
	Client Client `yaml:"client"`
	// Assignment is the replica assigner, "kraft" (default) or "zookeeper".
	Assignment Assigner `yaml:"assignment"`
}

// maxPartitions bounds Partitions to keep the assignment table small; real
// clusters stay far below it.
const maxPartitions = 1_000_000

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.ReplicationFactor == 0 {
		o.ReplicationFactor = 1
	}
	if o.Client == "" {
		o.Client = Java
	}
	if o.Assignment == "" {
		o.Assignment = KRaft
	}
	return o
}

// Rule is the Kafka placement rule for one set of options. New returns it
// as a profile.Rule; callers that need partitions type-assert to *Rule.
type Rule struct {
	o Options
}

// New validates o and returns its rule.
func New(o Options) (profile.Rule, error) {
	o = o.Effective()
	switch {
	case o.Partitions == 0:
		return nil, fmt.Errorf("kafka: partitions is required (the topic's partition count, e.g. partitions: 12; Kafka's broker default num.partitions is 1)")
	case o.Partitions < 0 || o.Partitions > maxPartitions:
		return nil, fmt.Errorf("kafka: partitions %d is out of range: use 1 to %d", o.Partitions, maxPartitions)
	case o.ReplicationFactor < 1 || o.ReplicationFactor > 32767:
		return nil, fmt.Errorf("kafka: replication_factor %d is out of range: use 1 to 32767 (at most the number of brokers)", o.ReplicationFactor)
	}
	if !knownClient(o.Client) {
		names := make([]string, len(Clients))
		for i, c := range Clients {
			names[i] = string(c)
		}
		return nil, fmt.Errorf("kafka: client %q is not one of %s", o.Client, strings.Join(names, ", "))
	}
	if o.Assignment != KRaft && o.Assignment != ZooKeeper {
		return nil, fmt.Errorf("kafka: assignment %q is not one of kraft, zookeeper", o.Assignment)
	}
	return &Rule{o: o}, nil
}

func knownClient(c Client) bool {
	for _, k := range Clients {
		if k == c {
			return true
		}
	}
	return false
}

// Options returns the rule's effective options.
func (r *Rule) Options() Options { return r.o }

// Hash returns the client's raw 32-bit key hash (murmur2, CRC-32 or
// FNV-1a 32), which does not depend on the partition count.
//
// librdkafka's consistent_random sends an empty key to a random (sticky)
// partition; ringreport hashes it like any key (CRC-32 of nothing is 0, so
// partition 0), as the plain consistent partitioner does.
func (r *Rule) Hash(key []byte) uint64 {
	switch r.o.Client {
	case Librdkafka, SaramaCRC32:
		return uint64(CRC32(key))
	case LibrdkafkaFNV1a, Sarama, SaramaReference:
		return uint64(FNV1a32(key))
	default:
		return uint64(Murmur2(key))
	}
}

// Partition returns the partition the rule's client picks for a key of
// hash h (from Hash) in a topic of the given partition count (≥ 1).
func (r *Rule) Partition(h uint64, partitions int) int {
	return PartitionFor(r.o.Client, h, partitions)
}

// PartitionFor is Partition for a named client; h is that client's Hash.
func PartitionFor(c Client, h uint64, partitions int) int {
	u := uint32(h)
	switch c {
	case Librdkafka, SaramaCRC32:
		return int(u % uint32(partitions))
	case Sarama, LibrdkafkaFNV1a:
		// |int32(u)| % n; for MinInt32 both clients give 2^31 mod n.
		p := int32(u) % int32(partitions)
		if p < 0 {
			p = -p
		}
		return int(p)
	default: // Java-compatible and sarama-reference: sign bit cleared.
		return int(ToPositive(int32(u)) % int32(partitions))
	}
}
