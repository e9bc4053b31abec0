// Package haproxy reproduces HAProxy's "hash-type consistent" server choice
// (src/lb_chash.c, the request hashes of src/backend.c and src/hash.c,
// full_hash of include/haproxy/intops.h, the "hash-type" parser of
// src/cfgparse-listen.c, the automatic server ids of src/cfgparse.c), bit
// for bit, for HAProxy 2.x — checked against Debian's 2.6.12 — and for the
// 3.x releases from their source. Only the default "hash-key id" differs
// between versions: commit faa8c3e02 (3.0-dev7) hashed the id twice, so a
// node key became full_hash(full_hash(id) + i) instead of
// full_hash(id × 4096 + i), and commit 03e9a5a1 ("BUG/MAJOR: lb-chash: fix
// key calculation when using default hash-key id", 2025-10-16) restored
// the 2.x keys. Its first tag is v3.3-dev10, so 3.3.0 and every later
// release have it. The stable branches got it as a backport: 3.0.12 and
// 3.2.6 lack it (their upstream change lists, as packaged, end without
// it), 3.1.9 came out with them on 2025-10-03, before the fix, and
// haproxy.org's 3.0 snapshot change log of 2025-10-17 lists it as queued
// after 3.0.12, so 3.0.13 (2025-12-17) is the first fixed 3.0 release. 3.1.10 (2025-11-07) and 3.2.7 (2025-10-23) are the
// first releases of their branches after the fix; that they carry it is
// inferred from HAProxy backporting to newer branches before older ones,
// not read from their tags, which the haproxy/haproxy repository lacks.
// Version "3.0", "3.1" or "3.2" names a branch as released, with the
// doubled key; a point release such as "3.2.7" picks the side of the fix.
//
// Membership maps onto HAProxy as a backend's "server" lines in order.
// Each server's numeric id is its ID, or HAProxy's automatic one (PUIDs),
// and its node inputs start from a key made of that id (hash-key id), of
// its IP address (addr) or of address and port (addr-port), read from its
// Name. A server of weight w has 16·w nodes (BE_WEIGHT_SCALE); weight 0 has
// none. A Down server is one HAProxy does not consider usable — "disabled"
// in the configuration, in maintenance, or failing its health checks —
// whose nodes HAProxy takes out of the tree (chash_dequeue_srv): it keeps
// its id, so the other servers' nodes stay where they are, and its keys
// spread to the neighbouring nodes. The tree is the one a started HAProxy
// builds from its configuration; a running HAProxy whose weights changed
// at runtime has the same keys, and differs only in the order of exactly
// equal node keys. Those need two servers' node inputs to coincide: ids
// equal modulo 2²⁰ (id × 4096 wraps at 32 bits), or, for 3.0–3.2 ids and
// for addresses, server keys closer together than their node counts.
//
// A key's owner is the server of the node nearest its hash: the first node
// at or above it or the one before it, the one before on a tie — not the
// first node at or above, as in ketama. Owners for r > 1 continues the way
// HAProxy looks for another server when it must avoid one (redispatch, or
// hash-balance-factor and hash-preserve-affinity refusing a server): up
// the tree from the chosen node, wrapping, each server the first time it is
// met.
//
// Hash takes the bytes HAProxy hashes for the request: for "balance
// hdr(name)" the first comma-separated value of the first such header,
// blanks around it removed; for "balance url_param p" the value as written
// in the query string, up to the next '&', percent-encoding not decoded;
// for "balance uri" the path up to '?'. HAProxy does not hash a missing or
// empty value (it balances such a request round robin), which no Owners
// call can express.
//
// Not modelled: backup servers, hash-balance-factor and
// hash-preserve-affinity (they depend on live load; Owners gives the order
// they walk), slowstart, "use_domain_only", the "none" hash function
// (2.9 on), hash-key guid (3.4 on), port ranges and offsets in addresses,
// and big-endian hosts, on which hash-key addr reads an IPv4 address as a
// different integer.
package haproxy
