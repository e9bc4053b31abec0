package productrules

import (
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/haproxy"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// HAProxyKind is the registry entry of haproxyProfile.
var HAProxyKind = Kind(haproxyProfile)

// haproxyProfile is HAProxy's hash-type consistent
// (internal/profile/haproxy), switched by version.
var haproxyProfile = rulekind.Profile{
	Name: "haproxy", HistoryFree: true,
	Doc: "HAProxy hash-type consistent: 16 × weight nodes per server at full_hash(server key + i), the nearer neighbouring node wins; 2.x, 3.0–3.2 as released (hash-key id hashed twice) and 3.3+.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "version", Type: rulekind.ParamString, Default: "2", Check: checkHAProxyVersion,
			Doc: "The HAProxy release: 2 (any 2.x), 3.0, 3.1, 3.2 (as released), 3.3 and later, or a point release such as 3.2.7.", Prefix: "version "}),
		rulekind.Opt(rulekind.Param{Name: "hash_key", Type: rulekind.ParamEnum, Values: []string{"id", "addr", "addr-port", "id32"}, Default: "id",
			Doc: "The servers' hash-key: id (their numeric id), addr or addr-port (from 3.0), id32 (from 3.4).", Prefix: "hash-key "}),
		// No Default: naming the function, even sdbm, turns the avalanche
		// off, so an unset one must stay unset (Effective shows sdbm).
		rulekind.Opt(rulekind.Param{Name: "hash_function", Type: rulekind.ParamEnum, Values: []string{"sdbm", "djb2", "wt6", "crc32"},
			Doc: "The request hash of hash-type consistent <function>; default sdbm (with the avalanche, as plain hash-type consistent).", Prefix: "hash "}),
		rulekind.Opt(rulekind.Param{Name: "avalanche", Type: rulekind.ParamBool,
			Doc: "The avalanche modifier; by default on only when hash_function is not given, as HAProxy does.", Prefix: "avalanche "}),
	},
	Bits: 32,
	New:  func(spec placer.RuleSpec) (profile.Rule, error) { return haproxy.New(haproxyOptions(spec)) },
	Effective: func(spec placer.RuleSpec) placer.RuleSpec {
		e := haproxyOptions(spec).Effective()
		spec.Opts = withOpt(spec.Opts, "avalanche", strconv.FormatBool(*e.Avalanche))
		spec.Opts = withOpt(spec.Opts, "hash_function", e.HashFunction)
		return spec
	},
}

// haproxyOptions converts a spec to the package's options. hash_function
// is passed only when the scenario named it, since naming it changes the
// avalanche default.
func haproxyOptions(spec placer.RuleSpec) haproxy.Options {
	o := haproxy.Options{Version: spec.Opts["version"], HashKey: spec.Opts["hash_key"], HashFunction: spec.Opts["hash_function"]}
	if v, ok := spec.Opts["avalanche"]; ok {
		b := v == "true"
		o.Avalanche = &b
	}
	return o
}

func checkHAProxyVersion(v string) error {
	_, err := haproxy.New(haproxy.Options{Version: v})
	return err
}
