// Package cassandra reproduces Apache Cassandra's data placement: the
// Murmur3Partitioner token of a partition key and the replicas
// SimpleStrategy or NetworkTopologyStrategy choose for it over a ring of
// vnode tokens. It follows Cassandra 4.0, 4.1 and 5.0, whose placement code
// is the same in all three: dht/Murmur3Partitioner.java and
// utils/MurmurHash.java (the token), locator/TokenMetadata.java
// (firstToken, ringIterator: a key belongs to the first token ≥ its own,
// wrapping, so the node holding token t owns (previous token, t]),
// locator/SimpleStrategy.java and locator/NetworkTopologyStrategy.java
// (calculateNaturalReplicas and DatacenterEndpoints), and
// dht/BootStrapper.java (random tokens, skipping taken ones).
//
// Membership: each profile.Server is a node, named by Name; Zone is its
// datacenter and Rack its rack, as a rack-aware snitch reports them
// (servers without labels are datacenter "dc1", rack "rack1"). A node's
// tokens are its explicit Options.Tokens entry, else NumTokens × Weight
// tokens from a PCG seeded with (Options.Seed, the node's name), drawn in
// list order; Cassandra itself has no weights (per-node num_tokens is its
// knob) and draws from a non-reproducible generator, which is why the draw
// is ringreport's own. Tokens allocated by
// allocate_tokens_for_local_replication_factor (ReplicationAwareTokenAllocator)
// are not modelled: New refuses that option.
//
// A Down server is a node that is down but still a ring member: it keeps its
// tokens, still counts in its datacenter's node and rack counts, and still
// occupies its place in every replica list (Cassandra does not re-replicate
// to other nodes; reads and writes to it fail). Owners therefore computes
// Cassandra's natural replicas and leaves the down ones out, returning
// fewer than r. Owners' order is calculateNaturalReplicas' order: for
// simple, the first r distinct nodes clockwise from the key's token; for
// nts, the order the single clockwise walk accepts nodes across all
// datacenters, truncated to r when r is smaller than the sum of the
// datacenters' effective factors (r plays SimpleStrategy's
// replication_factor; NTS's factors come from Options.RF).
//
// Hash carries the signed token in uint64 bits (uint64(Token(key))); the
// empty key is the minimum token, which Cassandra's CQL never stores (it
// refuses empty partition keys) and which lands on the lowest token.
package cassandra
