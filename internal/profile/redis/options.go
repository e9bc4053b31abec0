package redis

import (
	"fmt"
	"math"

	"github.com/ringreport/ringreport/internal/profile"
)

// DefaultThreshold is redis-cli's CLUSTER_MANAGER_REBALANCE_THRESHOLD, in
// percent.
const DefaultThreshold = 2

// Options are the knobs of Redis Cluster and redis-cli that change which
// master holds a slot or whether a slot can be served. The zero value is
// Redis' and redis-cli's defaults.
type Options struct {
	// Threshold is rebalance's --cluster-threshold, in percent: a rebalance
	// runs only if some master's slot count is more than Threshold percent
	// away from its expected count (or an empty master expects more than
	// one slot). redis-cli keeps it in single precision. It must be a
	// finite number > 0 (redis-cli's 0, "never rebalance", is not offered:
	// it would leave new servers empty and make removal impossible);
	// 0 means the default, 2.
	Threshold float64 `yaml:"threshold" json:"threshold,omitempty"`

	// Order is the node order redis-cli's planner sees at each rebalance:
	// the entry node (the address given on the command line) first, then
	// the other nodes in the order the entry node's CLUSTER NODES lists
	// them (servers being removed included: they are still masters during
	// their weight-0 rebalance). It decides ties: the rounding leftovers go
	// round robin, in this order, to the receivers, and nodes of equal
	// balance keep this order when redis-cli sorts them (glibc 2.36's qsort
	// is a stable merge sort), so it says which of two equally short
	// receivers is served first and which donor gives first, hence which
	// slots move where. Redis lists nodes in the iteration order of its node table, a
	// hash table keyed by random 40-hex node ids with a random seed, so the
	// real order is not reproducible from names and can even change between
	// steps as that table grows; replay a real cluster by building each
	// step with the order it showed. Names are server names; the servers
	// named come first, in this order, then the others in the default
	// order. Names that are not servers of a step are ignored. Default (nil):
	// the new list's order (its first server is the entry node), then the
	// servers being removed in their previous order. Create does not use
	// Order: it always takes the servers in list order.
	Order []string `yaml:"order" json:"order,omitempty"`

	// RequireFullCoverage is cluster-require-full-coverage: "yes" (Redis'
	// default) stops the whole cluster from serving any key while a master
	// that holds slots is down; "no" leaves only the down masters' slots
	// without an owner. "" means "yes".
	RequireFullCoverage string `yaml:"require_full_coverage" json:"require_full_coverage,omitempty"`
}

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.RequireFullCoverage == "" {
		o.RequireFullCoverage = "yes"
	}
	if o.Order != nil {
		o.Order = append([]string(nil), o.Order...)
	}
	return o
}

// validate reports the first option that redis-cli or Redis would not
// accept, or that this package does not offer.
func (o Options) validate() error {
	if math.IsNaN(o.Threshold) || math.IsInf(o.Threshold, 0) || o.Threshold <= 0 ||
		o.Threshold > math.MaxFloat32 {
		return fmt.Errorf("threshold %v is not a percentage > 0 (redis-cli --cluster-threshold; default %d)",
			o.Threshold, DefaultThreshold)
	}
	switch o.RequireFullCoverage {
	case "yes", "no":
	default:
		return fmt.Errorf("require_full_coverage %q is not one of yes, no (default yes)", o.RequireFullCoverage)
	}
	seen := make(map[string]bool, len(o.Order))
	for i, n := range o.Order {
		if n == "" {
			return fmt.Errorf("order[%d] is empty; order lists server names", i)
		}
		if seen[n] {
			return fmt.Errorf("order names %q twice; each server appears at most once", n)
		}
		seen[n] = true
	}
	return nil
}

// New returns the Redis Cluster rule for o.
func New(o Options) (profile.Rule, error) {
	e := o.Effective()
	if err := e.validate(); err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	r := &rule{
		threshold: float32(e.Threshold),
		full:      e.RequireFullCoverage == "yes",
		rank:      make(map[string]int, len(e.Order)),
	}
	for i, n := range e.Order {
		r.rank[n] = i
	}
	return r, nil
}

// rule is a Redis Cluster rule with its options resolved.
type rule struct {
	threshold float32        // --cluster-threshold, single precision
	full      bool           // cluster-require-full-coverage yes
	rank      map[string]int // Options.Order: name → position
}

// Hash returns the key's slot.
func (r *rule) Hash(key []byte) uint64 { return uint64(KeySlot(key)) }
