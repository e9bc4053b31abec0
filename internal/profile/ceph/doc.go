// Package ceph reproduces Ceph's placement of objects, bit for bit as
// Ceph 16.2.15 (Pacific) computes it: object name → placement group → OSDs
// through CRUSH straw2 buckets and the rule
//
//	step take default
//	step chooseleaf firstn 0 type <failure_domain>
//	step emit
//
// with the optimal tunables of 16.2.15 (choose_total_tries 50,
// chooseleaf_descend_once 1, chooseleaf_vary_r 1, chooseleaf_stable 1).
// It follows src/common/ceph_hash.cc (ceph_str_hash_rjenkins),
// src/include/rados.h (ceph_stable_mod), src/osd/osd_types.cc
// (raw_pg_to_pg, raw_pg_to_pps), src/crush/hash.c (rjenkins1) and
// src/crush/mapper.c (crush_ln, bucket_straw2_choose, is_out,
// crush_choose_firstn, crush_do_rule), implemented from their behaviour;
// the crush_ln tables are generated from their definitions (ln.go).
//
// Membership: each server is one OSD ("osd.N" fixes its id N; other names
// get the lowest free id), in a host named by the part of its name before
// a '/', or in a host of its own; Zone and Rack labels place the host in a
// root "default" → zone → rack → host tree (build.go says how bucket ids
// are given). A server's Weight times weight_unit is its CRUSH weight, in
// 16.16 fixed point (weight 1 = 1.0 by default); buckets weigh the sum of
// their items. A Down server is an OSD marked out: it keeps its CRUSH
// weight but has reweight 0, so CRUSH rejects it and retries, and its PGs
// remap to other OSDs, as `ceph osd out` does. Owners(h, r) is the acting
// set of h's PG for a pool of size r, in CRUSH's order: the first OSD is
// the primary. There are no device classes, upmaps, pg_temp, primary
// affinity or choose_args (balancer weight sets) in the model: a cluster
// using them places some PGs elsewhere.
package ceph
