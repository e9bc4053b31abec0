package productrules

import (
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/redis"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// RedisKind is the registry entry of redisProfile.
var RedisKind = Kind(redisProfile)

// redisProfile is Redis Cluster with the redis-cli --cluster planners
// (internal/profile/redis): create, then add-node and rebalance
// --cluster-use-empty-masters, weight 0 and del-node, --cluster-weight.
var redisProfile = rulekind.Profile{
	Name: "redis",
	Doc:  "Redis Cluster 7.0: CRC16 slots with {hash tags}; the slot table as redis-cli --cluster create makes it and as add-node + rebalance --cluster-use-empty-masters, --cluster-weight and del-node move it (single-precision targets, leftovers to receivers, each donor's lowest slots first); a failed master's slots are unavailable.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "threshold", Type: rulekind.ParamFloat, Max: 100, Default: "2",
			Doc: "rebalance's --cluster-threshold, in percent.", Prefix: "threshold ", Suffix: "%"}),
		rulekind.Opt(rulekind.Param{Name: "require_full_coverage", Type: rulekind.ParamEnum, Values: []string{"yes", "no"}, Default: "yes",
			Doc: "cluster-require-full-coverage: yes makes one failed master with slots take the whole cluster down.", Prefix: "require_full_coverage "}),
	},
	Bits: 14, Mosaic: false,
	PositionText: func(_ profile.Rule, _ profile.Placement, h uint64) string {
		return "slot " + strconv.FormatUint(h, 10)
	},
	New: func(spec placer.RuleSpec) (profile.Rule, error) {
		return redis.New(redis.Options{Threshold: atof(spec.Opts["threshold"]), RequireFullCoverage: spec.Opts["require_full_coverage"]})
	},
}
