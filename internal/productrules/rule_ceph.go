package productrules

import (
	"strconv"

	"github.com/ringreport/ringreport/internal/placer"

	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/ceph"
	"github.com/ringreport/ringreport/internal/rulekind"
)

// CephKind is the registry entry of cephProfile.
var CephKind = Kind(cephProfile)

// cephProfile is Ceph's object → PG → OSD placement by CRUSH straw2
// (internal/profile/ceph): each node is an OSD, the scenario's replicas
// are the pool's size, a failed node is an OSD marked out.
var cephProfile = rulekind.Profile{
	Name: "ceph",
	Doc:  "Ceph 16.2 (Pacific): object → PG by ceph_str_hash_rjenkins and ceph_stable_mod, PG → OSDs by CRUSH straw2 chooseleaf firstn over root → zone → rack → host → OSD, with the optimal tunables; a failed node is an OSD marked out.",
	Params: []rulekind.Param{
		rulekind.Opt(rulekind.Param{Name: "pg_num", Type: rulekind.ParamInt, Min: 1, Max: 65536, Default: "128",
			Doc: "The pool's placement groups (Ceph creates pools with 32 and lets the autoscaler grow them).", Prefix: "pg_num "}),
		rulekind.Opt(rulekind.Param{Name: "pgp_num", Type: rulekind.ParamInt, Min: 1, Max: 65536,
			Doc: "The distinct placements the PGs fold into, at most pg_num; default pg_num.", Prefix: "pgp_num "}),
		rulekind.Opt(rulekind.Param{Name: "pool", Type: rulekind.ParamInt, Min: 1, Max: 1<<31 - 1, Default: "1",
			Doc: "The pool id, hashed into every PG's placement seed.", Prefix: "pool "}),
		rulekind.Opt(rulekind.Param{Name: "failure_domain", Type: rulekind.ParamEnum, Values: []string{"host", "rack", "zone"}, Default: "host",
			Doc: "The bucket type replicas are kept apart on (chooseleaf firstn 0 type …); rack and zone need those labels on every node.", Prefix: "failure domain "}),
		rulekind.Opt(rulekind.Param{Name: "hashpspool", Type: rulekind.ParamBool, Default: "true",
			Doc: "The pool flag hashpspool, set on every pool Ceph creates since 0.64.", Prefix: "hashpspool "}),
		rulekind.Opt(rulekind.Param{Name: "weight_unit", Type: rulekind.ParamInt, Min: 1, Max: 1<<31 - 1, Default: strconv.Itoa(ceph.WeightOne),
			Doc: "The CRUSH weight (16.16 fixed point) of one unit of a node's weight; 65536 is 1.0.", Prefix: "weight unit "}),
	},
	Bits: 32, Mosaic: true,
	PositionText: func(_ profile.Rule, pl profile.Placement, h uint64) string {
		return "PG " + ceph.FormatPG(pl.(*ceph.Placement).PG(h))
	},
	New: func(spec placer.RuleSpec) (profile.Rule, error) { return ceph.New(cephOptions(spec)) },
	Effective: func(spec placer.RuleSpec) placer.RuleSpec {
		spec.Opts = withOpt(spec.Opts, "pgp_num", strconv.Itoa(cephOptions(spec).Effective().PGPNum))
		return spec
	},
}

func cephOptions(spec placer.RuleSpec) ceph.Options {
	o := ceph.Options{PGNum: atoi(spec.Opts["pg_num"]), PGPNum: atoi(spec.Opts["pgp_num"]), Pool: atoi(spec.Opts["pool"]),
		FailureDomain: spec.Opts["failure_domain"], WeightUnit: atoi(spec.Opts["weight_unit"])}
	if v, ok := spec.Opts["hashpspool"]; ok {
		b := v == "true"
		o.HashPSPool = &b
	}
	return o
}
