package envoy

import (
	"fmt"
	"math"

	"github.com/ringreport/ringreport/internal/profile"
)

// Defaults of Envoy's health handling that decide which hosts a ring or a
// maglev table is built from.
const (
	// DefaultHealthyPanicThreshold is common_lb_config.healthy_panic_threshold
	// when unset: below 50 % healthy hosts a priority is in panic.
	DefaultHealthyPanicThreshold = 50
	// DefaultOverprovisioningFactor is EDS policy.overprovisioning_factor
	// when unset (140, i.e. 1.4).
	DefaultOverprovisioningFactor = 140
)

// hostWeight is one host of the build set: its index into the servers given
// to Build, its hash key and its normalised weight.
type hostWeight struct {
	server int
	key    string
	weight float64
}

// inPanic reports whether Envoy's LoadBalancerBase puts a single-priority
// host set of total hosts, healthy of them healthy, in panic mode
// (recalculatePerPriorityState, recalculatePerPriorityPanic and
// isHostSetInPanic in load_balancer_impl.cc). The priority's health is
// min(100, overprovisioning·healthy/total) in integers; a health of 100 is
// never panic; otherwise the set panics when 100.0·healthy/total, a double,
// is below the threshold. A threshold of 0 never panics.
func inPanic(total, healthy, threshold, overprovisioning int) bool {
	if total == 0 {
		return false
	}
	health := min(uint64(100), uint64(overprovisioning)*uint64(healthy)/uint64(total))
	if threshold == 0 && health == 0 {
		return false
	}
	if health == 100 {
		return false
	}
	return 100.0*float64(healthy)/float64(total) < float64(threshold)
}

// envoyBuildSet returns the hosts Envoy's thread-aware load balancer builds a
// ring or table from, in host-set order with normalised weights, and whether
// that is panic mode: the healthy (not Down) hosts, or every host in panic
// (normalizeWeights in thread_aware_lb_impl.cc). Weights are normalised as
// Envoy does it, weight·1.0/Σweights in doubles; min and max are the
// smallest and largest normalised weight (starting from 1.0 and 0.0).
func envoyBuildSet(servers []profile.Server, threshold, overprovisioning int) (hw []hostWeight, minW, maxW float64, panicking bool, err error) {
	healthy := 0
	for _, s := range servers {
		if !s.Down {
			healthy++
		}
	}
	panicking = inPanic(len(servers), healthy, threshold, overprovisioning)
	var sum uint64
	for _, s := range servers {
		if s.Down && !panicking {
			continue
		}
		sum += uint64(s.Weight)
		if sum > math.MaxUint32 {
			return nil, 0, 0, panicking, fmt.Errorf("the sum of the weights of the hosts exceeds %d, which Envoy refuses", uint64(math.MaxUint32))
		}
	}
	minW, maxW = 1.0, 0.0
	for i, s := range servers {
		if s.Down && !panicking {
			continue
		}
		w := float64(s.Weight) * 1.0 / float64(sum)
		hw = append(hw, hostWeight{server: i, key: s.Name, weight: w})
		minW = min(minW, w)
		maxW = max(maxW, w)
	}
	return hw, minW, maxW, panicking, nil
}

// checkEnvoyServers validates servers as Envoy hosts: a non-empty hash key,
// a weight in [1, 2³²−1] (load_balancing_weight), and no two hosts with the
// same key, whose relative order Envoy's std::sort leaves unspecified.
func checkEnvoyServers(servers []profile.Server) error {
	seen := make(map[string]int, len(servers))
	for i, s := range servers {
		if s.Name == "" {
			return fmt.Errorf("server %d has an empty name; Envoy hashes the host's address, hostname or hash_key, which is never empty", i)
		}
		if s.Weight < 1 || uint64(s.Weight) > math.MaxUint32 {
			return fmt.Errorf("server %q has weight %d; Envoy's load_balancing_weight is 1 to %d", s.Name, s.Weight, uint64(math.MaxUint32))
		}
		if j, ok := seen[s.Name]; ok {
			return fmt.Errorf("servers %d and %d are both named %q; Envoy orders hosts with equal hash keys in an unspecified order, so give each a distinct name", j, i, s.Name)
		}
		seen[s.Name] = i
	}
	return nil
}

// checkHealth validates the two health knobs shared by both rules.
func checkHealth(threshold *int, overprovisioning int) error {
	if threshold != nil && (*threshold < 0 || *threshold > 100) {
		return fmt.Errorf("healthy_panic_threshold %d is not a percentage from 0 to 100 (0 disables panic mode, Envoy's default is %d)", *threshold, DefaultHealthyPanicThreshold)
	}
	if overprovisioning < 0 {
		return fmt.Errorf("overprovisioning_factor %d is negative; it is a percentage ≥ 1 (Envoy's default is %d)", overprovisioning, DefaultOverprovisioningFactor)
	}
	return nil
}

// intPtr returns a pointer to a copy of v.
func intPtr(v int) *int { return &v }
