// Package redis reproduces Redis Cluster 7.0.15 placement together with the
// redis-cli --cluster planners that assign its hash slots, bit for bit:
// keyHashSlot (src/cluster.c) and crc16 (src/crc16.c) for a key's slot, and
// from src/redis-cli.c clusterManagerCommandCreate (the initial ranges),
// clusterManagerCommandRebalance (who gives how many slots to whom) and
// clusterManagerComputeReshardTable (which slots), as tagged 7.0.15 and
// shipped by Debian 12 (redis-server / redis-tools 5:7.0.15-1~deb12u10).
//
// A key's position (Rule.Hash) is its slot, 0..16383. The Placement is the
// slot table: each slot belongs to one master. Every server is a master;
// ringreport has no Redis replicas, so Owners returns at most one server,
// the master, whatever r asks for. Placement is history-dependent, as in a
// real cluster: Build(servers, nil) is `redis-cli --cluster create` over
// the servers in list order (replicas 0; masters interleaved by host as
// redis-cli does) followed, when some weight is not 1, by one rebalance
// with those weights. Build(servers, prev) compares the names in prev with
// the new list and, when anything changed (a server added or removed, a
// weight changed, or a change left pending), runs what an operator runs:
// `--cluster add-node` for each new server, then one
// `--cluster rebalance --cluster-use-empty-masters --cluster-weight …`
// in which each server's Weight is its --cluster-weight and each removed
// server has weight 0, then `--cluster del-node` for each removed server.
// redis-cli keeps no weights between runs, so every rebalance is given every
// weight again. The planner's node order (the entry node, then the entry
// node's CLUSTER NODES order, which Redis derives from random node ids) is
// Options.Order.
//
// Down: a Down server is a failed master without a replica. Its slots stay
// assigned to it (nothing moves them) and are unavailable; with
// cluster-require-full-coverage yes (Redis' default, Options
// RequireFullCoverage) the whole cluster refuses queries as soon as one
// master that holds slots is down, so Owners returns no server for any key;
// with "no" only the down masters' slots have no owner. Either way, when
// half or more of the masters holding slots are down the rest are a
// minority and refuse every query (clusterUpdateState). While any listed
// server is Down, redis-cli's add-node and rebalance refuse to run ("Not all
// 16384 slots are covered by nodes"), so Build keeps the slot table, new
// servers hold no slots, and the change stays pending until a later Build
// has every server up. A server that holds slots cannot be removed then
// (del-node refuses a non-empty node), so Build returns an error.
package redis
