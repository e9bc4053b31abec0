// Package redis reproduces Redis Cluster 7.0.15 placement and the
// redis-cli 7.0.15 --cluster planners that assign its hash slots, bit for
// bit: keyHashSlot (src/cluster.c) and crc16 (src/crc16.c) for a key's
// slot; clusterManagerCommandCreate, clusterManagerCommandRebalance and
// clusterManagerComputeReshardTable (src/redis-cli.c, tag 7.0.15) for who
// holds each slot; clusterUpdateState (src/cluster.c) for what a failed
// master makes unavailable. Checked against Debian 12's redis-server and
// redis-tools 5:7.0.15-1~deb12u10.
//
// A key's position (Rule.Hash) is its slot, 0..16383. The Placement is the
// slot table, each slot held by one master. Every server is a master:
// ringreport has no Redis replicas, so Owners returns at most one server,
// the slot's master, whatever r asks for. The table depends on history, as
// in a real cluster. Build(servers, nil) is `redis-cli --cluster create
// --cluster-replicas 0` over the servers in list order (ranges dealt one
// host at a time, as redis-cli interleaves masters by IP; redis-cli
// refuses fewer than 3 masters, the same arithmetic serves 1 and 2 here),
// followed by one rebalance when some weight is not 1. Build(servers, prev)
// matches servers to prev's by Name and, when a server was added or removed
// or a weight changed (or a change was left pending), does what an
// operator does: `--cluster add-node` for each new server, then one
// `--cluster rebalance --cluster-use-empty-masters --cluster-weight …` in
// which every server's Weight is its weight (0 means 1) and every removed
// server has weight 0, then `--cluster del-node` for each removed server.
// redis-cli keeps no weights between runs, so each rebalance is given all
// of them again. Otherwise the table is carried over unchanged. Which of
// several equal receivers or donors goes first is decided by redis-cli's
// node order, which Redis derives from random node ids: see Options.Order.
//
// Down: a Down server is a failed master without a replica. Its slots stay
// assigned to it and cannot be served. With cluster-require-full-coverage
// yes (Redis' default; Options.RequireFullCoverage) the whole cluster stops
// serving while a master that holds slots is down, so Owners returns no
// server for any key; with "no" only the down masters' slots have no owner.
// Either way, when half or more of the masters holding slots are down the
// rest are a minority and serve nothing. While any server is down,
// redis-cli's add-node and rebalance refuse to run ("Not all 16384 slots
// are covered by nodes"), so Build keeps the table, new servers hold no
// slots, Pending reports the change, and the first Build with every server
// up plans it. A server that still holds slots cannot be removed then, nor
// a down server that holds slots at all: Build returns an error.
package redis
