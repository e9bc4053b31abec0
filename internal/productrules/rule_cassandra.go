package productrules

import (
	"encoding/json"
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/cassandra"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// CassandraKind is the registry entry of cassandraProfile.
var CassandraKind = Kind(cassandraProfile)

// cassandraProfile is Apache Cassandra's Murmur3Partitioner with random
// tokens and SimpleStrategy (internal/profile/cassandra). The scenario's
// replicas are the replication factor.
var cassandraProfile = rulekind.Profile{
	Name: "cassandra",
	Doc:  "Apache Cassandra 4.0–5.0: Murmur3Partitioner tokens (MurmurHash3 x64 with Java's sign-extended tail), num_tokens seeded random tokens per node, SimpleStrategy replicas.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "num_tokens", Type: rulekind.ParamInt, Min: 1, Max: 1 << 16, Default: strconv.Itoa(cassandra.DefaultNumTokens),
			Doc: "Tokens per node of weight 1 (cassandra.yaml num_tokens); a node of weight w draws w × num_tokens.", One: "token per node", Many: "tokens per node"}),
		rulekind.Opt(rulekind.Param{Name: "token_seed", Type: rulekind.ParamInt, Min: 0, Max: 1<<31 - 1, Default: "0",
			Doc: "Seeds each node's token draw (Cassandra's own draw cannot be reproduced); a node's tokens do not change when others join.", Prefix: "token seed "}),
		rulekind.Opt(rulekind.Param{Name: "strategy", Type: rulekind.ParamEnum, Values: []string{cassandra.Simple, cassandra.NTS}, Default: cassandra.Simple,
			Doc: "The keyspace's replication: simple (SimpleStrategy, the scenario's replicas as RF) or nts (NetworkTopologyStrategy over the nodes' zones as datacenters and racks, with rf).", Prefix: "strategy "}),
		rulekind.Opt(rulekind.Param{Name: "rf", Type: rulekind.ParamCounts, Min: 0, Max: 64,
			Doc: "NetworkTopologyStrategy's replication factor per datacenter (zone), such as {z1: 3, z2: 3}; nodes without a zone are in dc1.", Prefix: "rf "}),
	},
	Bits:  64,
	Table: func(spec placer.RuleSpec, weight int64) int64 { return int64(atoi(spec.Opts["num_tokens"])) * weight },
	PositionText: func(_ profile.Rule, _ profile.Placement, h uint64) string {
		return "token " + strconv.FormatInt(int64(h), 10)
	},
	New: func(spec placer.RuleSpec) (profile.Rule, error) {
		n, _ := strconv.Atoi(spec.Opts["num_tokens"])
		seed, _ := strconv.ParseUint(spec.Opts["token_seed"], 10, 64)
		var rf map[string]int
		if js := spec.Opts["rf"]; js != "" {
			if err := json.Unmarshal([]byte(js), &rf); err != nil {
				return nil, err
			}
		}
		return cassandra.New(cassandra.Options{NumTokens: n, Seed: seed, Strategy: spec.Opts["strategy"], RF: rf})
	},
}
