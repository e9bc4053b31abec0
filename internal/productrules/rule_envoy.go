package productrules

import (
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/envoy"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// The registry entries of this file's profiles.
var (
	EnvoyRingKind   = Kind(envoyRingProfile)
	EnvoyMaglevKind = Kind(envoyMaglevProfile)
)

// envoyPanic declares the two health parameters Envoy's ring and maglev
// share: with fewer healthy hosts than the threshold Envoy builds from
// every host, failed ones included, and routes to them.
var (
	envoyPanicThreshold = rulekind.Opt(rulekind.Param{Name: "healthy_panic_threshold", Type: rulekind.ParamInt, Min: 0, Max: 100, Default: strconv.Itoa(envoy.DefaultHealthyPanicThreshold),
		Doc: "Percent of healthy hosts below which Envoy enters panic mode and routes to every host, failed ones too; 0 never.", Prefix: "panic threshold "})
	envoyOverprovisioning = rulekind.Opt(rulekind.Param{Name: "overprovisioning_factor", Type: rulekind.ParamInt, Min: 1, Max: 100000, Default: strconv.Itoa(envoy.DefaultOverprovisioningFactor),
		Doc: "Envoy's overprovisioning factor, which decides when panic starts.", Prefix: "overprovisioning "})
)

// envoyRingProfile is Envoy's RING_HASH (and gRPC's xDS ring_hash), and
// envoyMaglevProfile Envoy's MAGLEV (internal/profile/envoy).
var (
	envoyRingProfile = rulekind.Profile{
		Name: "envoy-ring", HistoryFree: true,
		Doc: "Envoy RING_HASH (and gRPC xDS ring_hash with client: grpc): xxHash64 of \"host_i\", ring size from minimum_ring_size and the normalised weights by running sums, first point ≥ the key's xxHash64; failed hosts are left out of the rebuilt ring (all hosts in panic mode).",
		Params: []rulekind.Param{
			rulekind.Opt(rulekind.Param{Name: "client", Type: rulekind.ParamEnum, Values: []string{envoy.ClientEnvoy, envoy.ClientGRPC}, Default: envoy.ClientEnvoy,
				Doc: "envoy, or grpc for gRPC C-core's ring_hash (ring size capped at ring_size_cap, failed endpoints walked past).", Prefix: "client "}),
			rulekind.Opt(rulekind.Param{Name: "minimum_ring_size", Type: rulekind.ParamInt, Min: 1, Max: 8 << 20, Default: "1024",
				Doc: "The ring's minimum size.", Prefix: "minimum ring size "}),
			rulekind.Opt(rulekind.Param{Name: "maximum_ring_size", Type: rulekind.ParamInt, Min: 1, Max: 8 << 20,
				Doc: "The cap on the ring's scale; default 8388608 (Envoy), 4096 (gRPC).", Prefix: "maximum ring size "}),
			rulekind.Opt(rulekind.Param{Name: "hash_function", Type: rulekind.ParamEnum, Values: []string{envoy.HashXX, envoy.HashMurmur}, Default: envoy.HashXX,
				Doc: "The points' hash: xx_hash or murmur_hash_2 (libstdc++'s std::_Hash_bytes; Envoy only).", Prefix: "hash "}),
			envoyPanicThreshold, envoyOverprovisioning,
		},
		Bits: 64,
		New:  func(spec placer.RuleSpec) (profile.Rule, error) { return envoy.NewRing(envoyRingOptions(spec)) },
		Table: func(spec placer.RuleSpec, weight int64) int64 { // at most the cap, at least the minimum per unit of weight
			o := envoyRingOptions(spec).Effective()
			return min(int64(o.MaximumRingSize), int64(o.MinimumRingSize)*weight)
		},
		Effective: func(spec placer.RuleSpec) placer.RuleSpec {
			spec.Opts = withOpt(spec.Opts, "maximum_ring_size", strconv.FormatUint(envoyRingOptions(spec).Effective().MaximumRingSize, 10))
			return spec
		},
	}
	envoyMaglevProfile = rulekind.Profile{
		Name: "envoy-maglev", HistoryFree: true,
		Doc: "Envoy MAGLEV: hosts sorted by key (Envoy 1.27+; sorted: false before), offset and skip from xxHash64 seeds 0 and 1, weighted fill of a prime table (65537), entry = the key's xxHash64 mod the table size; failed hosts are left out (all hosts in panic mode).",
		Params: []rulekind.Param{
			rulekind.Opt(rulekind.Param{Name: "table_size", Type: rulekind.ParamPrime, Min: 2, Max: envoy.MaxTableSize, Default: strconv.Itoa(envoy.DefaultTableSize),
				Doc: "The lookup table's size, a prime.", Prefix: "table size "}),
			rulekind.Opt(rulekind.Param{Name: "sorted", Type: rulekind.ParamBool, Default: "true",
				Doc: "Hosts sorted by key before the fill, as Envoy 1.27.0 and later do; false for 1.26 and earlier (host-set order).", Prefix: "sorted "}),
			envoyPanicThreshold, envoyOverprovisioning,
		},
		Bits: 64, Mosaic: true,
		New:   func(spec placer.RuleSpec) (profile.Rule, error) { return envoy.NewMaglev(envoyMaglevOptions(spec)) },
		Table: func(spec placer.RuleSpec, _ int64) int64 { return int64(atoi(spec.Opts["table_size"])) },
	}
)

func envoyPanicOptions(spec placer.RuleSpec) (*int, int) {
	t := atoi(spec.Opts["healthy_panic_threshold"])
	return &t, atoi(spec.Opts["overprovisioning_factor"])
}

func envoyRingOptions(spec placer.RuleSpec) envoy.RingOptions {
	o := envoy.RingOptions{Client: spec.Opts["client"], MinimumRingSize: uint64(atoi(spec.Opts["minimum_ring_size"])),
		MaximumRingSize: uint64(atoi(spec.Opts["maximum_ring_size"])), HashFunction: spec.Opts["hash_function"]}
	if o.Client != envoy.ClientGRPC {
		o.HealthyPanicThreshold, o.OverprovisioningFactor = envoyPanicOptions(spec)
	}
	return o
}

func envoyMaglevOptions(spec placer.RuleSpec) envoy.MaglevOptions {
	sorted := spec.Opts["sorted"] != "false"
	o := envoy.MaglevOptions{TableSize: uint64(atoi(spec.Opts["table_size"])), Sorted: &sorted}
	o.HealthyPanicThreshold, o.OverprovisioningFactor = envoyPanicOptions(spec)
	return o
}
