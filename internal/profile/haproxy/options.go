package haproxy

import (
	"fmt"
	"strconv"
	"strings"
)

// Options are the HAProxy settings that change where a key goes under
// "hash-type consistent". The zero value is a backend that says only
// "hash-type consistent" on HAProxy 2.x: sdbm, avalanche, hash-key id.
type Options struct {
	// Version is the HAProxy release whose node keys to reproduce: "2"
	// (any 2.x up to 2.9, the default; "2.6", "2.6.12" … say the same),
	// "3.0", "3.1" or "3.2" (those branches as released, with the doubled
	// hash-key id key), "3.3", "3.4", "3.5" (fixed), or a point release
	// such as "3.2.7": 3.0.13, 3.1.10 and 3.2.7 are the first point
	// releases of their branches with the fix (see the package doc). Only
	// hash-key id differs between versions, and hash-key id32 needs 3.4.
	Version string `yaml:"version,omitempty" json:"version,omitempty"`
	// HashKey is the servers' "hash-key": "id" (the default: the server's
	// numeric id), "addr" (its IP address), "addr-port" (address and
	// port), all three from 3.0 on, or "id32" (the full 32-bit id, 3.4 on).
	HashKey string `yaml:"hash_key,omitempty" json:"hash_key,omitempty"`
	// HashFunction is the function of "hash-type consistent <function>"
	// applied to the balanced bytes: "sdbm" (the default), "djb2", "wt6" or
	// "crc32".
	HashFunction string `yaml:"hash_function,omitempty" json:"hash_function,omitempty"`
	// Avalanche is the "avalanche" modifier: the request hash goes through
	// FullHash before the lookup. Unset means HAProxy's default, which
	// depends on HashFunction: plain "hash-type consistent" (HashFunction
	// unset) implies sdbm with avalanche, but naming a function turns the
	// avalanche off unless "avalanche" follows it, so "hash-type consistent
	// sdbm" hashes differently from "hash-type consistent".
	Avalanche *bool `yaml:"avalanche,omitempty" json:"avalanche,omitempty"`
}

// Effective returns o with every default filled in.
func (o Options) Effective() Options {
	if o.Version == "" {
		o.Version = "2"
	}
	if o.HashKey == "" {
		o.HashKey = "id"
	}
	aval := o.HashFunction == ""
	if o.Avalanche != nil {
		aval = *o.Avalanche
	}
	o.Avalanche = &aval // a copy: the result shares nothing with o
	if o.HashFunction == "" {
		o.HashFunction = "sdbm"
	}
	return o
}

// Directive returns the backend's "hash-type" line for o, e.g. "hash-type
// consistent djb2 avalanche" (HashKey goes on each "server" line as
// "hash-key", from 3.0 on).
func (o Options) Directive() string {
	e := o.Effective()
	if o.HashFunction == "" && *e.Avalanche {
		return "hash-type consistent"
	}
	s := "hash-type consistent " + e.HashFunction
	if *e.Avalanche {
		s += " avalanche"
	}
	return s
}

// branch is what a Version selects.
type branch int

const (
	branch2     branch = iota // 2.x: id key puid × 4096, no addr keys
	branchBug                 // 3.0–3.2 as released: id key full_hash(puid)
	branchFixed               // 3.3, and 3.0–3.2 from their fixed point releases: puid × 4096 again
	branchID32                // 3.4 on: adds hash-key id32
)

// versionList is the accepted spelling of Version, for error messages.
const versionList = "2, 3.0, 3.1, 3.2, 3.3, 3.4, 3.5, or a point release such as 2.6.12 or 3.2.7"

// firstFixed is, for each branch released with the doubled hash-key id
// key, its first point release carrying 03e9a5a1 (see the package doc).
var firstFixed = map[int]int{0: 13, 1: 10, 2: 7}

// parseVersion maps a Version onto its branch: "2", "2.N" or "2.N.P" for
// N ≤ 9, "3.N" for N ≤ 5, or "3.N.P".
func parseVersion(v string) (branch, error) {
	parts := strings.Split(v, ".")
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || p != strconv.Itoa(n) || n < 0 || len(parts) > 3 {
			return 0, fmt.Errorf("version %q is not one of %s", v, versionList)
		}
		nums[i] = n
	}
	switch {
	case nums[0] == 2 && (len(nums) == 1 || nums[1] <= 9):
		return branch2, nil
	case nums[0] == 3 && len(nums) >= 2 && nums[1] <= 5:
		minor := nums[1]
		if fixed, ok := firstFixed[minor]; ok {
			if len(nums) == 3 && nums[2] >= fixed {
				return branchFixed, nil
			}
			return branchBug, nil
		}
		if minor == 3 {
			return branchFixed, nil
		}
		return branchID32, nil
	}
	return 0, fmt.Errorf("version %q is not one of %s", v, versionList)
}

// hashFunctions are the accepted HashFunction values.
var hashFunctions = map[string]func([]byte) uint32{
	"sdbm": SDBM, "djb2": DJB2, "wt6": WT6, "crc32": CRC32,
}

// hashKeys are the accepted HashKey values and the first branch with each.
var hashKeys = []struct {
	name  string
	since branch
	what  string
}{
	{"id", branch2, "2.x"},
	{"addr", branchBug, "3.0"},
	{"addr-port", branchBug, "3.0"},
	{"id32", branchID32, "3.4"},
}

// validate checks the effective options and returns the version's branch.
func (e Options) validate() (branch, error) {
	b, err := parseVersion(e.Version)
	if err != nil {
		return 0, err
	}
	if hashFunctions[e.HashFunction] == nil {
		return 0, fmt.Errorf("hash_function %q is not one of sdbm, djb2, wt6, crc32", e.HashFunction)
	}
	for _, k := range hashKeys {
		if k.name != e.HashKey {
			continue
		}
		if b < k.since {
			return 0, fmt.Errorf("hash_key %q needs version %s or later; version %q has no hash-key %s", e.HashKey, k.what, e.Version, e.HashKey)
		}
		return b, nil
	}
	return 0, fmt.Errorf("hash_key %q is not one of id, addr, addr-port, id32", e.HashKey)
}
