package ceph

import (
	"fmt"
	"strconv"
	"strings"
)

// typeNames are the names crushtool gets for the type ids this package
// uses.
var typeNames = map[int32]string{TypeOSD: "osd", TypeHost: "host", TypeRack: "rack", TypeZone: "zone", TypeRoot: "root"}

// Text returns the map in crushtool's source form (`crushtool -c` compiles
// it) with the optimal tunables and one rule, id 0:
//
//	step take <take>
//	step chooseleaf firstn 0 type <leafType>
//	step emit
//
// Bucket names are made crushtool-safe ([A-Za-z0-9_.-]) and unique;
// devices are "osd.N". Bucket items carry no weight, so crushtool sums
// their items exactly; device weights are written as exact decimals,
// which crushtool reads as float32: exact below 256.0.
func (m *Map) Text(take int32, leafType int32) string {
	var sb strings.Builder
	for _, t := range []string{"choose_local_tries 0", "choose_local_fallback_tries 0",
		"choose_total_tries 50", "chooseleaf_descend_once 1", "chooseleaf_vary_r 1",
		"chooseleaf_stable 1", "straw_calc_version 1", "allowed_bucket_algs 54"} {
		fmt.Fprintf(&sb, "tunable %s\n", t)
	}
	names := m.textNames()
	for _, d := range m.devices() {
		fmt.Fprintf(&sb, "device %d osd.%d\n", d, d)
	}
	for _, t := range []int32{TypeOSD, TypeHost, TypeRack, TypeZone, TypeRoot} {
		fmt.Fprintf(&sb, "type %d %s\n", t, typeNames[t])
	}
	done := map[int32]bool{}
	var emit func(id int32)
	emit = func(id int32) {
		b := m.bucket(id)
		if b == nil || done[id] {
			return
		}
		done[id] = true
		for _, it := range b.Items {
			emit(it)
		}
		fmt.Fprintf(&sb, "%s %s {\n\tid %d\n\talg straw2\n\thash 0\n", typeNames[b.Type], names[id], id)
		for i, it := range b.Items {
			if it >= 0 {
				fmt.Fprintf(&sb, "\titem osd.%d weight %s\n", it, weightText(b.Weights[i]))
			} else {
				fmt.Fprintf(&sb, "\titem %s\n", names[it])
			}
		}
		sb.WriteString("}\n")
	}
	for i := range m.Buckets {
		emit(int32(-1 - i))
	}
	fmt.Fprintf(&sb, "rule replicated_rule {\n\tid 0\n\ttype replicated\n\tmin_size 1\n\tmax_size 10\n"+
		"\tstep take %s\n\tstep chooseleaf firstn 0 type %s\n\tstep emit\n}\n", names[take], typeNames[leafType])
	return sb.String()
}

// devices returns the device ids the buckets hold, ascending.
func (m *Map) devices() []int32 {
	in := make([]bool, m.MaxDevices)
	for _, b := range m.Buckets {
		if b == nil {
			continue
		}
		for _, it := range b.Items {
			if it >= 0 {
				in[it] = true
			}
		}
	}
	var ds []int32
	for d, ok := range in {
		if ok {
			ds = append(ds, int32(d))
		}
	}
	return ds
}

// textNames gives every bucket a crushtool-safe name, unique among
// buckets and devices.
func (m *Map) textNames() map[int32]string {
	names, taken := map[int32]string{}, map[string]bool{}
	for _, d := range m.devices() {
		taken["osd."+strconv.Itoa(int(d))] = true
	}
	for _, b := range m.Buckets {
		if b == nil {
			continue
		}
		n := safeName(b.Name)
		if taken[n] {
			n = fmt.Sprintf("%s-b%d", n, -b.ID)
		}
		names[b.ID], taken[n] = n, true
	}
	return names
}

// safeName maps a label to crushtool's name alphabet.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c == '-' || c == '_' || c == '.' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !ok {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// weightText writes a 16.16 weight as its exact decimal value.
func weightText(w uint32) string {
	return strconv.FormatFloat(float64(w)/WeightOne, 'f', -1, 64)
}

// CrushText returns the placement's CRUSH map and rule in crushtool's
// source form (see Map.Text). Down servers are not in it: out is a state
// of the OSD map, not of CRUSH (`osdmaptool --mark-out`, or crushtool
// --test --weight N 0).
func (p *Placement) CrushText() string {
	return p.m.Text(-1, p.leafType)
}
