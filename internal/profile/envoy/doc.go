// Package envoy reproduces Envoy's RING_HASH and MAGLEV load balancers and
// gRPC C-core's xDS ring_hash policy, bit for bit: NewRing builds the ring of
// envoyproxy/envoy source/extensions/load_balancing_policies/ring_hash/
// ring_hash_lb.cc (or, with client grpc, of grpc/grpc
// src/core/load_balancing/ring_hash/ring_hash.cc), NewMaglev the table of
// source/extensions/load_balancing_policies/maglev/maglev_lb.cc, both fed as
// source/common/upstream/thread_aware_lb_impl.cc feeds them; the
// murmur_hash_2 ring hash is source/common/common/hash.cc (libstdc++'s
// std::_Hash_bytes). It is checked against Envoy's own unit-test
// expectations on main at the commits internal/conformance/envoy names; the
// maglev host sort arrived in v1.27.0 (MaglevOptions.Sorted false gives the
// host-set order of v1.26 and earlier).
//
// Membership: servers are one priority's hosts in host-set order, each
// Name the string Envoy hashes (the address "127.0.0.1:90" or "[::1]:90",
// the hostname with use_hostname_for_hashing, or the envoy.lb hash_key
// metadata; gRPC likewise hashes the hash_key or the first address), Weight
// the load_balancing_weight (for gRPC, the endpoint weight it is given). A key's position is xxHash64 seed 0 of the key,
// what an Envoy header, cookie or query-parameter hash policy computes.
// Envoy rebuilds its ring or table from the healthy hosts only, so a Down
// server is left out of the rebuild and the others rescale; but when fewer
// than healthy_panic_threshold percent (default 50) are healthy, the priority
// is in panic and Envoy builds from every host, Down ones included, and
// routes to them: then Owners returns Down servers, as Envoy would. gRPC keeps
// every endpoint on its ring and skips Down ones at lookup. Weights are
// normalised to doubles w/Σw; the ring gives each host scale·w points with
// running sums that carry fractions to the next host; maglev fills its table
// in weighted rounds.
//
// Owners' order for r > 1 is Envoy's retry order with a previous_hosts retry
// predicate, each host once: for the ring, the hosts of the points after the
// chosen one in ring order (attempt a reads point (index + a) mod size), which
// is also gRPC's fallback walk; for maglev, the entries at (h ^ (2⁶⁴ − a)) mod
// m for attempts a = 1, 2, ….
//
// Not modelled: locality-weighted rings (locality_weighted_lb_config),
// priorities other than one, degraded and excluded hosts, weighted priority
// health, bounded load (hash_balance_factor, which depends on live request
// counts), the host_selection_retry_max_attempts bound on retries, and hosts
// with equal hash keys, whose order Envoy's std::sort leaves unspecified
// (Build refuses duplicate names for Envoy; gRPC merges them, as gRPC does).
// The doubles are evaluated as Envoy's x86-64 build evaluates them, each
// product rounded before it is added; a build for a CPU with fused
// multiply-add whose compiler contracts scale·weight into the running sum
// could move a ring point's carry in rare cases.
package envoy
