package ceph

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// crushLnTable is Ceph's own crush_ln tables as data (see the file's
// header: it alone is under Ceph's LGPL 2.1).
//
//go:embed crush_ln_table.txt
var crushLnTable string

// CephLn returns crush_ln over Ceph 16.2.15's own tables, which New uses:
// Ceph's LL table departs from its stated definition (GeneratedLn), and
// placement is only bit for bit with Ceph's values.
func CephLn() *LnTable { return cephLn() }

var cephLn = sync.OnceValue(func() *LnTable {
	rhlh, ll, err := parseLnTable(crushLnTable)
	if err != nil {
		panic("ceph: crush_ln_table.txt: " + err.Error()) // embedded data, checked by the tests
	}
	return NewLnTable(rhlh, ll)
})

// parseLnTable reads the RH_LH section (258 values) and the LL section
// (256 values), one hexadecimal value a line, # lines being comments.
func parseLnTable(s string) (rhlh [258]uint64, ll [256]uint64, err error) {
	var dst []uint64
	n := map[string]int{}
	section := ""
	for i, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case line == "RH_LH":
			section, dst = line, rhlh[:]
			continue
		case line == "LL":
			section, dst = line, ll[:]
			continue
		}
		v, perr := strconv.ParseUint(line, 16, 64)
		if perr != nil || dst == nil || n[section] >= len(dst) {
			return rhlh, ll, fmt.Errorf("line %d: %q is not a value of a table section", i+1, line)
		}
		dst[n[section]] = v
		n[section]++
	}
	if n["RH_LH"] != len(rhlh) || n["LL"] != len(ll) {
		return rhlh, ll, fmt.Errorf("want %d RH_LH and %d LL values, have %d and %d", len(rhlh), len(ll), n["RH_LH"], n["LL"])
	}
	return rhlh, ll, nil
}
