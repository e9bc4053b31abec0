package ceph_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile/ceph"
)

// The product: Debian ceph-base 16.2.15+ds-0+deb12u2 (crushtool,
// osdmaptool, and the libceph-common.so.2 they link, from librados2).
const cephPkg = "ceph-base"

// tools returns the paths of crushtool and osdmaptool.
func tools(t *testing.T) (crushtool, osdmaptool string) {
	t.Helper()
	return lab.Need(t, "crushtool", cephPkg), lab.Need(t, "osdmaptool", cephPkg)
}

// dumpJSON is the part of `crushtool --dump` this test reads.
type dumpJSON struct {
	Devices []struct {
		ID int32 `json:"id"`
	} `json:"devices"`
	Buckets []struct {
		ID     int32  `json:"id"`
		Name   string `json:"name"`
		TypeID int32  `json:"type_id"`
		Alg    string `json:"alg"`
		Hash   string `json:"hash"`
		Items  []struct {
			ID     int32  `json:"id"`
			Weight uint32 `json:"weight"`
		} `json:"items"`
	} `json:"buckets"`
	Tunables map[string]any `json:"tunables"`
}

// optimal are the tunables the package implements, as crushtool dumps
// them.
var optimal = map[string]float64{
	"choose_local_tries": 0, "choose_local_fallback_tries": 0, "choose_total_tries": 50,
	"chooseleaf_descend_once": 1, "chooseleaf_vary_r": 1, "chooseleaf_stable": 1,
}

// loadMap reads a compiled CRUSH map through `crushtool --dump`; see
// crushMap.
func loadMap(t *testing.T, crushtool, bin string) *ceph.Map {
	t.Helper()
	return crushMap(t, crushtool, "-i", bin)
}

// crushMap runs crushtool with args and --dump, whose weights are the
// exact 16.16 integers, and reads the map it dumps into a ceph.Map; it
// fails the test on tunables or buckets the package does not implement.
// args that make a map (-c, --build, --reweight-item, with -o) dump the
// map they made: one crushtool process instead of two.
func crushMap(t *testing.T, crushtool string, args ...string) *ceph.Map {
	t.Helper()
	var d dumpJSON
	what := strings.Join(args, " ")
	out := lab.Run(t, crushtool, append(args, "--dump")...)
	// --reweight-item says what it does on standard output before the dump
	if i := strings.Index(out, "\n{"); i >= 0 && !strings.HasPrefix(out, "{") {
		out = out[i+1:]
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("crushtool %s --dump: %v", what, err)
	}
	for k, v := range optimal {
		if got, _ := d.Tunables[k].(float64); got != v {
			t.Fatalf("map of %s has tunable %s %v, want %v", what, k, d.Tunables[k], v)
		}
	}
	m := &ceph.Map{}
	for _, dev := range d.Devices {
		m.MaxDevices = max(m.MaxDevices, dev.ID+1)
	}
	for _, b := range d.Buckets {
		if b.Alg != "straw2" || b.Hash != "rjenkins1" {
			t.Fatalf("bucket %s is %s/%s; the package implements straw2/rjenkins1", b.Name, b.Alg, b.Hash)
		}
		i := int(-1 - b.ID)
		for len(m.Buckets) <= i {
			m.Buckets = append(m.Buckets, nil)
		}
		nb := &ceph.Bucket{ID: b.ID, Name: b.Name, Type: b.TypeID}
		for _, it := range b.Items {
			nb.Items = append(nb.Items, it.ID)
			nb.Weights = append(nb.Weights, it.Weight)
		}
		m.Buckets[i] = nb
	}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	return m
}

// buildMap makes the map of `crushtool --build --num_osds 6 host straw2 2
// root straw2 0` (3 hosts × 2 OSDs, weight 1.0) at bin and returns it.
func buildMap(t *testing.T, crushtool, bin string) *ceph.Map {
	t.Helper()
	return crushMap(t, crushtool, "-o", bin, "--build", "--num_osds", "6", "host", "straw2", "2", "root", "straw2", "0")
}

// mappings runs crushtool --test over x in [0, n) and returns each x's
// devices. The lines, "CRUSH rule R x X [A,B,C]", are read without a
// regular expression: at 100,000 lines the expression cost a fifth of the
// test's own CPU.
func mappings(t *testing.T, crushtool, bin string, numRep, n int, extra ...string) [][]int32 {
	t.Helper()
	args := append([]string{"-i", bin, "--test", "--show-mappings", "--rule", "0",
		"--num-rep", strconv.Itoa(numRep), "--min-x", "0", "--max-x", strconv.Itoa(n - 1)}, extra...)
	out := make([][]int32, n)
	seen := 0
	for line := range strings.Lines(lab.Run(t, crushtool, args...)) {
		x, devs, ok := mappingLine(strings.TrimSuffix(line, "\n"))
		if !ok {
			continue
		}
		if x < 0 || x >= n || out[x] != nil {
			t.Fatalf("crushtool printed x %d again or out of [0, %d): %q", x, n, line)
		}
		out[x] = parseList(t, devs)
		seen++
	}
	if seen != n {
		t.Fatalf("crushtool printed %d mappings, want %d", seen, n)
	}
	return out
}

// mappingLine splits one line of `crushtool --test --show-mappings`,
// "CRUSH rule R x X [LIST]", into X and LIST; ok is false for any other
// line.
func mappingLine(line string) (x int, list string, ok bool) {
	rest, ok := strings.CutPrefix(line, "CRUSH rule ")
	if !ok {
		return 0, "", false
	}
	rule, rest, ok := strings.Cut(rest, " x ")
	if !ok || !allDigits(rule) {
		return 0, "", false
	}
	xs, list, ok := strings.Cut(rest, " [")
	if !ok || !allDigits(xs) || !strings.HasSuffix(list, "]") {
		return 0, "", false
	}
	x, err := strconv.Atoi(xs)
	return x, strings.TrimSuffix(list, "]"), err == nil
}

// allDigits reports whether s is a non-empty run of decimal digits.
func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// parseList parses "3,4,1" into OSD ids.
func parseList(t *testing.T, s string) []int32 {
	t.Helper()
	l := []int32{}
	if s == "" {
		return l
	}
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("bad OSD list %q", s)
		}
		l = append(l, int32(n))
	}
	return l
}

// compile writes a map's source into dir, compiles it and returns the
// compiled file with the map crushtool compiled (one process: -c, -o and
// --dump together).
func compile(t *testing.T, crushtool, dir, name, src string) (string, *ceph.Map) {
	t.Helper()
	txt := filepath.Join(dir, name+".txt")
	bin := filepath.Join(dir, name+".bin")
	if err := os.WriteFile(txt, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin, crushMap(t, crushtool, "-c", txt, "-o", bin)
}

// reweights returns an all-in reweight vector for n devices, with the
// given devices set to w.
func reweights(n int32, w uint32, set ...int32) []uint32 {
	r := make([]uint32, n)
	for i := range r {
		r[i] = ceph.WeightOne
	}
	for _, d := range set {
		r[d] = w
	}
	return r
}

// eq reports whether two OSD lists are identical.
func eq(a, b []int32) bool { return slices.Equal(a, b) }

// agreement compares the product's result for each input with the
// package's, first with the tables the package ships and then with the
// product's own ln tables, and fails the test on any mismatch. A
// mismatch under the product's tables is a defect of the package's
// CRUSH; one under the shipped tables only is the tables' (see
// TestLnTables).
func agreement(t *testing.T, label string, want [][]int32, got func(ln *ceph.LnTable, i int) []int32) {
	t.Helper()
	if s, _ := compareBoth(t, label, want, got); s > 0 {
		t.Errorf("%s: %d mismatches with the package's shipped ln tables", label, s)
	}
}

// compareBoth is agreement's comparison: it returns both mismatch counts,
// logs the first few shipped-table mismatches and fails the test on
// product-table ones.
func compareBoth(t *testing.T, label string, want [][]int32, got func(ln *ceph.LnTable, i int) []int32) (shipped, product int) {
	t.Helper()
	pl := productLn(t)
	for i, w := range want {
		g := got(nil, i)
		if !eq(g, w) {
			shipped++
			if shipped <= 5 {
				t.Logf("%s input %d: package %v, product %v", label, i, g, w)
			}
		}
		if g := got(pl, i); !eq(g, w) {
			product++
			if product <= 5 {
				t.Errorf("%s input %d: package (with the product's ln tables) %v, product %v", label, i, g, w)
			}
		}
	}
	t.Logf("%s: %d/%d agree (shipped ln tables), %d/%d (product's ln tables)",
		label, len(want)-shipped, len(want), len(want)-product, len(want))
	return shipped, product
}

// withLn returns a shallow copy of m computing with ln.
func withLn(m *ceph.Map, ln *ceph.LnTable) *ceph.Map {
	c := *m
	c.Ln = ln
	return &c
}

// productLn reads crush_ln's tables out of the libceph-common.so.2 the
// installed crushtool links, finding them by the entries the package's
// generated tables share with them (RH/LH entries 0–3 and LL entries
// 0–1). Nothing of them is stored in the project.
func productLn(t *testing.T) *ceph.LnTable {
	t.Helper()
	prodMu.Lock()
	defer prodMu.Unlock()
	if prodLn == nil {
		rhlh, ll := productTables(t)
		prodLn = ceph.NewLnTable(rhlh, ll)
	}
	return prodLn
}

// prodLn caches productLn for the test binary.
var (
	prodMu sync.Mutex
	prodLn *ceph.LnTable
)

// productTables locates and reads __RH_LH_tbl and __LL_tbl.
func productTables(t *testing.T) (rhlh [258]uint64, ll [256]uint64) {
	t.Helper()
	lib := libCephCommon(t)
	b, err := os.ReadFile(lib)
	if err != nil {
		t.Fatalf("read %s: %v", lib, err)
	}
	grh, gll := ceph.GeneratedLn().Tables()
	at := func(prefix []uint64, n int) []uint64 {
		var pat []byte
		for _, v := range prefix {
			pat = binary.LittleEndian.AppendUint64(pat, v)
		}
		i := bytes.Index(b, pat)
		if i < 0 || bytes.Index(b[i+1:], pat) >= 0 || i+8*n > len(b) {
			t.Fatalf("%s: crush_ln table starting %x not found exactly once", lib, prefix)
		}
		out := make([]uint64, n)
		for k := range out {
			out[k] = binary.LittleEndian.Uint64(b[i+8*k:])
		}
		return out
	}
	copy(rhlh[:], at(grh[:8], 258))
	copy(ll[:], at(gll[:2], 256))
	return rhlh, ll
}

// libCephCommon returns the path of the libceph-common.so.2 crushtool
// loads, from ldd, once per test binary.
func libCephCommon(t *testing.T) string {
	t.Helper()
	crushtool, _ := tools(t)
	return libPath.Get(t, func() string {
		out, err := exec.Command("ldd", crushtool).Output()
		if err != nil {
			t.Fatalf("ldd %s: %v", crushtool, err)
		}
		for _, line := range strings.Split(string(out), "\n") {
			f := strings.Fields(line)
			if len(f) >= 3 && strings.HasPrefix(f[0], "libceph-common.so") && f[1] == "=>" {
				return f[2]
			}
		}
		t.Fatalf("ldd %s names no libceph-common.so", crushtool)
		return ""
	})
}

// libPath holds libCephCommon's answer.
var libPath lab.Memo[string]

// productStrHashes returns ceph_str_hash_rjenkins of each name as the
// installed libceph-common.so.2 computes it, through testdata/strhash.c
// built once into lab.Compile's cache.
func productStrHashes(t *testing.T, names []string) []uint32 {
	t.Helper()
	gcc := lab.Need(t, "gcc", "gcc")
	lib := libCephCommon(t)
	src, err := os.ReadFile(filepath.Join("testdata", "strhash.c"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := lab.Compile(t, gcc, "strhash.c", src, "-O1", "-Wall", "-ldl")
	if err != nil {
		t.Fatal(err)
	}
	var in bytes.Buffer
	for _, n := range names {
		in.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(n))))
		in.WriteString(n)
	}
	cmd := exec.Command(bin, lib)
	cmd.Stdin = &in
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, lib, err, stderr.String())
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(names) {
		t.Fatalf("strhash printed %d hashes for %d names", len(lines), len(names))
	}
	hs := make([]uint32, len(names))
	for i, l := range lines {
		h, err := strconv.ParseUint(l, 10, 32)
		if err != nil {
			t.Fatalf("strhash printed %q", l)
		}
		hs[i] = uint32(h)
	}
	return hs
}
