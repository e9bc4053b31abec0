package productrules

import (
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/libmemcached"
	"github.com/ringreport/ringreport/internal/profile/twemproxy"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// The registry entries of this file's profiles.
var (
	LibmemcachedKind = Kind(libmemcachedProfile)
	TwemproxyKind    = Kind(twemproxyProfile)
)

// libmemcachedProfile is libmemcached 1.1.4's ketama continuum
// (internal/profile/libmemcached): a client rebuilt over the live servers,
// as auto-eject does.
var libmemcachedProfile = rulekind.Profile{
	Name: "libmemcached", HistoryFree: true,
	Doc: "libmemcached 1.1.4 (libmemcached-awesome) ketama: weighted (single-precision points per server, \"host-k\" at port 11211, \"host:port-k\" otherwise), unweighted ketama (100 points) or SPY naming.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "mode", Type: rulekind.ParamEnum, Values: []string{libmemcached.ModeWeighted, libmemcached.ModeKetama, libmemcached.ModeSpy}, Default: libmemcached.ModeWeighted,
			Doc: "weighted is MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, ketama is MEMCACHED_BEHAVIOR_KETAMA (100 points per server), spy is the spymemcached naming \"/host:port-k\".", Prefix: "mode "}),
		rulekind.Opt(rulekind.Param{Name: "hash", Type: rulekind.ParamEnum, Values: libmemcached.HashNames(),
			Doc: "The key hash (MEMCACHED_BEHAVIOR_HASH); default md5 in weighted and spy modes, one-at-a-time in ketama mode.", Prefix: "hash "}),
		rulekind.Opt(rulekind.Param{Name: "sort_hosts", Type: rulekind.ParamBool, Default: "false",
			Doc: "MEMCACHED_BEHAVIOR_SORT_HOSTS: sort the servers by host, then port, before building.", Prefix: "sort_hosts "}),
		rulekind.Opt(rulekind.Param{Name: "namespace", Type: rulekind.ParamString, Check: checkNamespace,
			Doc: "A namespace hashed in front of every key (MEMCACHED_BEHAVIOR_HASH_WITH_PREFIX_KEY); none by default.", Prefix: "namespace "}),
	},
	Bits: 32,
	New:  func(spec placer.RuleSpec) (profile.Rule, error) { return libmemcached.New(libmemcachedOptions(spec)) },
	Effective: func(spec placer.RuleSpec) placer.RuleSpec {
		spec.Opts = withOpt(spec.Opts, "hash", libmemcachedOptions(spec).Effective().Hash)
		return spec
	},
}

func libmemcachedOptions(spec placer.RuleSpec) libmemcached.Options {
	return libmemcached.Options{Mode: spec.Opts["mode"], Hash: spec.Opts["hash"], SortHosts: spec.Opts["sort_hosts"] == "true",
		Namespace: spec.Opts["namespace"]}
}

func checkNamespace(v string) error {
	_, err := libmemcached.New(libmemcached.Options{Namespace: v})
	return err
}

// twemproxyProfile is twemproxy (nutcracker) 0.5.0's ketama distribution
// (internal/profile/twemproxy), from its source.
var twemproxyProfile = rulekind.Profile{
	Name: "twemproxy", HistoryFree: true,
	Doc: "twemproxy (nutcracker) 0.5.0 distribution: ketama: libmemcached's weighted continuum over \"host\" or \"host:port\" (or the servers' own names), its own key hash (fnv1a_64 by default) and hash_tag.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "hash", Type: rulekind.ParamEnum, Values: twemproxy.HashNames(), Default: "fnv1a_64",
			Doc: "The pool's key hash.", Prefix: "hash "}),
		rulekind.Opt(rulekind.Param{Name: "hash_tag", Type: rulekind.ParamString, Check: checkHashTag,
			Doc: "Two characters, such as \"{}\": only the part of a key between them is hashed.", Prefix: "hash_tag "}),
		rulekind.Opt(rulekind.Param{Name: "named_servers", Type: rulekind.ParamBool, Default: "false",
			Doc: "The node names are twemproxy's server names (after the weight in servers:), hashed as written.", Prefix: "named_servers "}),
	},
	Bits: 32,
	New:  func(spec placer.RuleSpec) (profile.Rule, error) { return twemproxy.New(twemproxyOptions(spec)) },
}

func twemproxyOptions(spec placer.RuleSpec) twemproxy.Options {
	return twemproxy.Options{Hash: spec.Opts["hash"], HashTag: spec.Opts["hash_tag"], NamedServers: spec.Opts["named_servers"] == "true"}
}

func checkHashTag(v string) error {
	_, err := twemproxy.New(twemproxy.Options{HashTag: v})
	return err
}

// withOpt returns a copy of opts with name set to v.
func withOpt(opts map[string]string, name, v string) map[string]string {
	s := placer.RuleSpec{Opts: opts}
	rulekind.Opt(rulekind.Param{Name: name}).Set(&s, v)
	return s.Opts
}

func atoi(v string) int { n, _ := strconv.Atoi(v); return n }

func atof(v string) float64 { f, _ := strconv.ParseFloat(v, 64); return f }
