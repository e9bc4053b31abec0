// Package cassandra reproduces Apache Cassandra's data placement: the
// Murmur3Partitioner token of a partition key and the replicas
// SimpleStrategy or NetworkTopologyStrategy choose for it over a ring of
// vnode tokens. It follows Cassandra 4.0, 4.1 and 5.0, whose placement is
// the same in all three (4.1 only adds guardrail warnings on replication
// factors; the post-5.0 trunk moves the same walk onto cluster metadata):
// dht/Murmur3Partitioner.java and utils/MurmurHash.java (the token),
// locator/TokenMetadata.java (firstToken, ringIterator: a key belongs to the
// first token ≥ its own, wrapping, so the node holding token t owns
// (previous token, t]), locator/SimpleStrategy.java and
// locator/NetworkTopologyStrategy.java (calculateNaturalReplicas and
// DatacenterEndpoints.addEndpointAndCheckIfDone), and dht/BootStrapper.java
// (random tokens, skipping taken ones; explicit tokens must be free).
//
// Membership: each profile.Server is a node, named by Name; Zone is its
// datacenter and Rack its rack, as a rack-aware snitch reports them
// (servers without labels are datacenter "dc1", rack "rack1"). A node's
// tokens are its Options.Tokens entry (initial_token), else
// NumTokens × Weight tokens from a PCG seeded with (Options.Seed, FNV-1a of
// the node's name), drawn in list order. Cassandra has no weights — a
// node's own num_tokens is its knob, which is what Weight scales — and it
// draws tokens from a non-reproducible generator, which is why the draw is
// ringreport's own and a node's tokens stay put when others join or leave.
// Not modelled: tokens chosen by allocate_tokens_for_local_replication_factor
// (ReplicationAwareTokenAllocator; New refuses the option, so the default
// is a cassandra.yaml without it, not the stock 4.0+ file that sets it to
// 3), transient replicas ("3/1"), NTS's replication_factor auto-expansion,
// and key serialisation other than the raw bytes given (a text key is its
// UTF-8; composite keys are not built here).
//
// A Down server is a node that is down but still a ring member: it keeps its
// tokens, still counts in its datacenter's node and rack counts, and keeps
// its place in every replica list (Cassandra does not hand its ranges to
// other nodes; reads and writes to it fail). Owners therefore computes
// Cassandra's natural replicas and leaves the down ones out, returning
// fewer than r. Owners' order is calculateNaturalReplicas' order: for
// simple, the first r distinct nodes clockwise from the key's token (r plays
// replication_factor); for nts, the order in which the single clockwise
// walk accepts nodes across all datacenters (factors from Options.RF),
// truncated to r when r is smaller than the sum of the datacenters'
// effective factors min(rf, nodes).
//
// Hash carries the signed token in uint64 bits (uint64(Token(key)), so
// int64(h) is the token again); the empty key is the minimum token, which
// lands on the lowest token (CQL itself refuses empty partition keys).
package cassandra
