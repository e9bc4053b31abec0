package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/text"
)

// registerLimits adds the -max-* flags, which raise (or lower) the limits
// of scenario.Limits, to fs; they start at scenario.DefaultLimits.
func registerLimits(fs *flag.FlagSet, l *scenario.Limits) {
	*l = scenario.DefaultLimits
	fs.Var(sizeFlag{&l.FileBytes}, "max-file-size", "refuse scenario files larger than `size` (bytes, or with KiB, MiB, GiB)")
	fs.Var(sizeFlag{&l.KeysFileBytes}, "max-keys-file-size", "refuse keys files larger than `size`")
	fs.Var(countFlag[int]{&l.Keys}, "max-keys", "refuse scenarios with more than `n` keys")
	fs.Var(countFlag[int]{&l.Nodes}, "max-nodes", "refuse scenarios that start with more than `n` nodes")
	fs.Var(countFlag[int]{&l.Points}, "max-points", "refuse more than `n` ring points on one node (vnodes × weight)")
	fs.Var(countFlag[int]{&l.Steps}, "max-steps", "refuse scenarios with more than `n` steps")
	fs.Var(countFlag[int]{&l.NodeSteps}, "max-node-steps", "refuse scenarios with more than `n` node-steps (distinct node names × (steps + 1))")
	fs.Var(countFlag[int64]{&l.Work}, "max-work", "refuse scenarios whose build is estimated at more than `n` key-steps (about 5 ns each: keys × steps × rules, tables, nodes, output)")
	fs.Var(sizeFlag{&l.Memory}, "max-memory", "refuse scenarios estimated to need more than `size` of memory each")
	fs.Var(sizeFlag{&l.Output}, "max-output", "refuse scenarios estimated to write more than `size` each")
	fs.Var(sizeFlag{&l.AboutBytes}, "max-about-size", "refuse an about: text larger than `size`")
}

// countFlag is a positive whole number: 50000000, 50_000_000,
// 50,000,000 or 5e7.
type countFlag[T int | int64] struct{ p *T }

func (c countFlag[T]) String() string {
	if c.p == nil {
		return ""
	}
	return strings.ReplaceAll(text.Count(int(*c.p)), ",", "_")
}

func (c countFlag[T]) Set(s string) error {
	v, err := parseCount(s)
	if err != nil || v < 1 || int64(T(v)) != v {
		return fmt.Errorf("want a whole number of at least 1, such as 50_000_000 or 5e7")
	}
	*c.p = T(v)
	return nil
}

func parseCount(s string) (int64, error) {
	s = strings.NewReplacer("_", "", ",", "").Replace(s)
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f >= math.MaxInt64 || f < 0 {
		return 0, fmt.Errorf("bad count %q", s)
	}
	return int64(f), nil
}

// sizeFlag is a size in bytes, with an optional binary unit: 4194304,
// 4MiB, 4 MiB, 1.5GiB; KB, MB and GB (and K, M, G) are read as KiB, MiB
// and GiB.
type sizeFlag struct{ p *int64 }

func (f sizeFlag) String() string {
	if f.p == nil {
		return ""
	}
	return strings.ReplaceAll(scenario.Bytes(*f.p), " ", "")
}

func (f sizeFlag) Set(s string) error {
	v, err := parseSize(s)
	if err != nil {
		return err
	}
	*f.p = v
	return nil
}

// sizeUnits are the units a size may end with, longest first within
// each power.
var sizeUnits = []struct {
	suffix string
	shift  int
}{
	{"TiB", 40}, {"TB", 40}, {"T", 40}, {"GiB", 30}, {"GB", 30}, {"G", 30},
	{"MiB", 20}, {"MB", 20}, {"M", 20}, {"KiB", 10}, {"KB", 10}, {"K", 10}, {"k", 10}, {"B", 0},
}

func parseSize(s string) (int64, error) {
	num, shift := strings.TrimSpace(s), 0
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, shift = strings.TrimSpace(n), u.shift
			break
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(num, "_", ""), 64)
	v := f * float64(int64(1)<<shift)
	if err != nil || !(v >= 1) || v >= math.MaxInt64 {
		return 0, fmt.Errorf("want a size of at least 1 byte, such as 4194304, 512KiB or 4GiB")
	}
	return int64(v), nil
}
