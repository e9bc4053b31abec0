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
// crush_ln's tables are Ceph's own, as data (crush_ln_table.txt, under
// Ceph's LGPL 2.1 as its header says; cephln.go reads it).
//
// Membership: each server is one OSD ("osd.N" fixes its id N; other names
// get the lowest free id; Server.ID is not used), in a host named by the
// part of its name before a '/', or in a host of its own; Zone and Rack labels place the host in a
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
//
// Bit-exactness and crush_ln's tables. The hashes, PG arithmetic, straw2
// and the rule are Ceph's, and so are the tables New uses (CephLn): every
// mapping the conformance test compares agrees with crushtool and
// osdmaptool. The tables cannot be generated instead (GeneratedLn computes
// them from their definitions, for comparison): RH equals ⌈2^48/(1+k/128)⌉
// throughout and LH equals ⌊2^48·log2(1+k/128)⌋ but for LH[128] (Ceph:
// 2^48 − 2^32), while of LL's 256 entries only 21 equal
// ⌊2^48·log2(1+j/2^15)⌋, 212 exceed it by 5493489663.5 ± 0.5 and 23 differ
// irregularly. Over the generated tables crush_ln differs from Ceph's for
// 63,501 of its 65,536 inputs, by less than 2^29 in 2^48: with unequal
// weights about 1 in 10,000 CRUSH inputs would map differently (9 of
// 100,000 in the conformance test).
package ceph
