package cassandra

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Strategy names, as the scenario file spells them.
const (
	// Simple is SimpleStrategy: the first r distinct nodes clockwise.
	Simple = "simple"
	// NTS is NetworkTopologyStrategy: per datacenter replica counts with
	// rack diversity.
	NTS = "nts"
)

// DefaultNumTokens is num_tokens in the cassandra.yaml shipped with 4.0,
// 4.1 and 5.0 (3.x shipped 256).
const DefaultNumTokens = 16

// Default topology labels for servers that carry none: dc=dc1 and
// rack=rack1, the values in the cassandra-rackdc.properties that Cassandra
// ships for GossipingPropertyFileSnitch.
const (
	DefaultDC   = "dc1"
	DefaultRack = "rack1"
)

// Options are the Cassandra settings that change placement. The zero value
// is Cassandra's default: 16 random tokens per node, SimpleStrategy.
type Options struct {
	// NumTokens (num_tokens) is the number of tokens (vnodes) a node of
	// weight 1 draws when it bootstraps; a node of weight w draws
	// w × NumTokens, as if its own cassandra.yaml said so (Cassandra has
	// no weights; per-node num_tokens is how it skews ownership).
	// 0 means 16, the 4.0+ cassandra.yaml value. Must be ≥ 1.
	NumTokens int `yaml:"num_tokens" json:"num_tokens"`
	// Strategy (strategy) is the keyspace's replication class: "simple"
	// (SimpleStrategy, the default) or "nts" (NetworkTopologyStrategy).
	// The replica count for simple is the r that callers pass to Owners.
	Strategy string `yaml:"strategy" json:"strategy"`
	// RF (rf) is NetworkTopologyStrategy's replication factor per
	// datacenter, {dc: n} with n ≥ 0; required (at least one n ≥ 1) for
	// "nts", refused for "simple". Datacenters are the servers' Zone
	// labels ("dc1" when empty); a datacenter not listed holds no replica.
	RF map[string]int `yaml:"rf" json:"rf"`
	// Seed (seed) seeds the token draw. Cassandra draws random tokens with
	// a non-reproducible generator; ringreport draws each node's tokens
	// from its own math/rand/v2 PCG seeded with (Seed, FNV-1a 64 of the
	// node's name), so a node's tokens do not change when others join.
	// Default 0.
	Seed uint64 `yaml:"seed" json:"seed"`
	// Tokens (tokens) gives explicit tokens per server name, like each
	// node's initial_token; a server listed here uses exactly these
	// tokens instead of the draw (its weight is then ignored).
	Tokens map[string][]int64 `yaml:"tokens" json:"tokens"`
	// AllocateTokensForLocalReplicationFactor
	// (allocate_tokens_for_local_replication_factor) selects Cassandra
	// 4.0+'s ReplicationAwareTokenAllocator. It is NOT modelled: any value
	// other than 0 (unset, meaning random tokens) is refused by New.
	AllocateTokensForLocalReplicationFactor int `yaml:"allocate_tokens_for_local_replication_factor" json:"allocate_tokens_for_local_replication_factor"`
}

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.NumTokens == 0 {
		o.NumTokens = DefaultNumTokens
	}
	if o.Strategy == "" {
		o.Strategy = Simple
	}
	return o
}

// maxTokens bounds one node's token count so that a typo cannot ask for
// a ring that does not fit in memory.
const maxTokens = 1 << 16

// validate reports the first thing wrong with effective options e.
func (e Options) validate() error {
	if e.NumTokens < 1 || e.NumTokens > maxTokens {
		return fmt.Errorf("num_tokens %d is out of range: Cassandra needs num_tokens >= 1 (ringreport allows up to %d; the 4.0+ default is %d)", e.NumTokens, maxTokens, DefaultNumTokens)
	}
	if e.AllocateTokensForLocalReplicationFactor != 0 {
		return fmt.Errorf("allocate_tokens_for_local_replication_factor %d is not modelled: ringreport cannot reproduce ReplicationAwareTokenAllocator's choices; leave it unset (random tokens, drawn from seed) or give each server its tokens under tokens", e.AllocateTokensForLocalReplicationFactor)
	}
	switch e.Strategy {
	case Simple:
		if len(e.RF) > 0 {
			return fmt.Errorf("rf is for strategy nts; with strategy simple the replica count is the r the report asks for, so drop rf or set strategy: nts")
		}
	case NTS:
		if err := validateRF(e.RF); err != nil {
			return err
		}
	default:
		return fmt.Errorf("strategy %q is not one of simple, nts", e.Strategy)
	}
	return validateTokens(e.Tokens)
}

// validateRF checks NetworkTopologyStrategy's per-datacenter factors.
func validateRF(rf map[string]int) error {
	some := false
	for _, dc := range sortedKeys(rf) {
		n := rf[dc]
		if strings.EqualFold(dc, "replication_factor") {
			return fmt.Errorf("rf key %q is not modelled: Cassandra expands it to the datacenters known when the keyspace is created; list each datacenter, e.g. rf: {dc1: 3}", dc)
		}
		if n < 0 {
			return fmt.Errorf("rf for datacenter %q is %d; a replication factor must be >= 0", dc, n)
		}
		some = some || n > 0
	}
	if !some {
		return fmt.Errorf("strategy nts needs rf with at least one datacenter of replication factor >= 1, e.g. rf: {dc1: 3} (Cassandra: \"Configuration for at least one datacenter must be present\")")
	}
	return nil
}

// validateTokens checks the explicit token lists.
func validateTokens(tokens map[string][]int64) error {
	for _, name := range sortedKeys(tokens) {
		ts := tokens[name]
		if len(ts) == 0 {
			return fmt.Errorf("tokens for server %q is empty; give at least one token or leave the server out of tokens to draw num_tokens at random", name)
		}
		if len(ts) > maxTokens {
			return fmt.Errorf("tokens for server %q lists %d tokens; at most %d", name, len(ts), maxTokens)
		}
		s := slices.Clone(ts)
		slices.Sort(s)
		for i := 1; i < len(s); i++ {
			if s[i] == s[i-1] {
				return fmt.Errorf("tokens for server %q lists token %d twice", name, s[i])
			}
		}
	}
	return nil
}

// sortedKeys returns m's keys in order, so that errors are deterministic.
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// normalize is Murmur3Partitioner.normalize: Long.MIN_VALUE is reserved
// for the minimum token, so a draw of it becomes Long.MAX_VALUE.
func normalize(t int64) int64 {
	if t == math.MinInt64 {
		return math.MaxInt64
	}
	return t
}
