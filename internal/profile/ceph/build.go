package ceph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ringreport/ringreport/internal/profile"
)

// How servers become a CRUSH map (see the package doc for the contract):
//
//   - Each server is one OSD. Its name is "osd.N", "HOST/osd.N", or any
//     other name, optionally "HOST/NAME". The part before the last '/'
//     names its host; without one, the OSD is alone in a host of its own.
//   - "osd.N" fixes the OSD id N. Other names get the lowest id no other
//     OSD holds, in server order, as `ceph osd new` hands out ids, and keep
//     it in later builds of the same rule.
//   - The hierarchy is root "default" → zone → rack → host → osd, with a
//     level left out where a server has no such label (a host with no rack
//     hangs from its zone, or from the root).
//   - Bucket ids: the root is -1; a new bucket takes the lowest free id,
//     host before rack before zone (as `ceph osd crush create-or-move`
//     creates missing ancestors bottom-up), and keeps it in later builds
//     while it holds any OSD. A bucket lists its children in the order
//     they first appear in the server list.

// layout is what one build remembers for the next: the ids it gave.
type layout struct {
	osd    map[string]int32 // server name → OSD id
	bucket map[string]int32 // bucket key → bucket id
}

// node is a bucket under construction.
type node struct {
	key, name string
	typ       int32
	id        int32
	parent    *node
	kids      []int32  // item ids, in order of first appearance
	weights   []uint32 // their weights, accumulated
	kidNodes  []*node  // bucket kids, for weight propagation
}

// osdName splits a server name into host label and OSD name.
func osdName(s string) (host, osd string) {
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// explicitID returns N for an OSD name "osd.N".
func explicitID(osd string) (int32, bool) {
	d, ok := strings.CutPrefix(osd, "osd.")
	if !ok || d == "" || (len(d) > 1 && d[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseInt(d, 10, 32)
	if err != nil || n < 0 || n >= maxOSDs {
		return 0, false
	}
	return int32(n), true
}

// maxOSDs bounds OSD ids, so the reweight vector stays small.
const maxOSDs = 1 << 20

// assignOSDs gives every server its OSD id: explicit ones first, then
// those remembered from the previous build, then the lowest free ones.
func assignOSDs(servers []profile.Server, prev *layout) ([]int32, error) {
	ids := make([]int32, len(servers))
	used := map[int32]int{}
	pending := []int{}
	for i, s := range servers {
		_, osd := osdName(s.Name)
		if n, ok := explicitID(osd); ok {
			if j, dup := used[n]; dup {
				return nil, fmt.Errorf("servers %q and %q are both osd.%d", servers[j].Name, s.Name, n)
			}
			ids[i], used[n] = n, i
			continue
		}
		pending = append(pending, i)
	}
	var rest []int
	for _, i := range pending {
		n, ok := prev.osd[servers[i].Name]
		if _, taken := used[n]; ok && !taken {
			ids[i], used[n] = n, i
			continue
		}
		rest = append(rest, i)
	}
	next := int32(0)
	for _, i := range rest {
		for {
			if _, taken := used[next]; !taken {
				break
			}
			next++
		}
		ids[i], used[next] = next, i
	}
	return ids, nil
}

// hierarchy builds the buckets above the OSDs.
type hierarchy struct {
	o       Options
	prev    *layout
	nodes   map[string]*node
	order   []*node // in creation order: host, rack, zone per server
	root    *node
	hostOf  map[string]string // host label → its parent key, for consistency
	hostWho map[string]string // host label → first server naming it
}

// bucketKeys returns the keys and names of a server's zone, rack and host
// buckets ("" where the level is absent).
func bucketKeys(s profile.Server) (zone, rack, host [2]string) {
	h, osd := osdName(s.Name)
	if s.Zone != "" {
		zone = [2]string{"zone\x00" + s.Zone, s.Zone}
	}
	if s.Rack != "" {
		rack = [2]string{"rack\x00" + s.Zone + "\x00" + s.Rack, s.Rack}
	}
	if h != "" {
		host = [2]string{"host\x00" + h, h}
	} else {
		host = [2]string{"osdhost\x00" + s.Name, "host-" + osd}
	}
	return zone, rack, host
}

// build returns the map, the root id and the layout to remember.
func (h *hierarchy) build(servers []profile.Server, ids []int32) (*Map, *layout, error) {
	h.nodes = map[string]*node{}
	h.hostOf, h.hostWho = map[string]string{}, map[string]string{}
	h.root = &node{key: "root", name: "default", typ: TypeRoot, id: -1}
	for i, s := range servers {
		if err := h.place(s, ids[i]); err != nil {
			return nil, nil, err
		}
	}
	h.assignIDs()
	return h.emit(ids)
}

// place adds one server's OSD and any missing ancestors.
func (h *hierarchy) place(s profile.Server, id int32) error {
	zone, rack, host := bucketKeys(s)
	switch {
	case h.o.FailureDomain == "rack" && rack[0] == "":
		return fmt.Errorf("failure_domain rack, but server %q has no rack label", s.Name)
	case h.o.FailureDomain == "zone" && zone[0] == "":
		return fmt.Errorf("failure_domain zone, but server %q has no zone label", s.Name)
	}
	parentKey := "root"
	for _, k := range [][2]string{zone, rack} {
		if k[0] != "" {
			parentKey = k[0]
		}
	}
	if prevParent, seen := h.hostOf[host[0]]; seen && prevParent != parentKey {
		return fmt.Errorf("host %q of server %q is also under another zone or rack (server %q); a host has one place", host[1], s.Name, h.hostWho[host[0]])
	}
	h.hostOf[host[0]], h.hostWho[host[0]] = parentKey, s.Name
	w := uint64(s.Weight) * uint64(h.o.WeightUnit)
	if s.Weight < 1 || w > maxWeight {
		return fmt.Errorf("server %q has weight %d: want 1 to %d with weight_unit %d (CRUSH weights are 16.16 fixed point below 2^31)", s.Name, s.Weight, maxWeight/uint64(h.o.WeightUnit), h.o.WeightUnit)
	}
	hn := h.node(host, TypeHost)
	hn.kids = append(hn.kids, id)
	hn.weights = append(hn.weights, uint32(w))
	h.link(hn, rack, zone)
	return nil
}

// node returns the bucket of a key, creating it on first use.
func (h *hierarchy) node(k [2]string, typ int32) *node {
	if n, ok := h.nodes[k[0]]; ok {
		return n
	}
	n := &node{key: k[0], name: k[1], typ: typ}
	h.nodes[k[0]] = n
	h.order = append(h.order, n)
	return n
}

// link hangs a host under its rack, the rack under its zone, the zone
// under the root, creating what is missing bottom-up.
func (h *hierarchy) link(hn *node, rack, zone [2]string) {
	child := hn
	for _, lv := range []struct {
		k   [2]string
		typ int32
	}{{rack, TypeRack}, {zone, TypeZone}} {
		if lv.k[0] == "" {
			continue
		}
		p := h.node(lv.k, lv.typ)
		adopt(p, child)
		child = p
	}
	adopt(h.root, child)
}

// adopt makes c a child of p, once.
func adopt(p, c *node) {
	if c.parent != nil {
		return
	}
	c.parent = p
	p.kidNodes = append(p.kidNodes, c)
}

// assignIDs gives every bucket its id: remembered ones first, then the
// lowest free ids in creation order.
func (h *hierarchy) assignIDs() {
	used := map[int32]bool{-1: true}
	var fresh []*node
	for _, n := range h.order {
		if id, ok := h.prev.bucket[n.key]; ok && !used[id] {
			n.id, used[id] = id, true
			continue
		}
		fresh = append(fresh, n)
	}
	next := int32(-1)
	for _, n := range fresh {
		for used[next] {
			next--
		}
		n.id, used[next] = next, true
	}
}

// emit turns the nodes into a Map: bucket children in order of first
// appearance, bucket weights as the sums of their items'.
func (h *hierarchy) emit(ids []int32) (*Map, *layout, error) {
	all := append([]*node{h.root}, h.order...)
	var weigh func(n *node) (uint64, error)
	weigh = func(n *node) (uint64, error) {
		for _, c := range n.kidNodes {
			w, err := weigh(c)
			if err != nil {
				return 0, err
			}
			n.kids = append(n.kids, c.id)
			n.weights = append(n.weights, uint32(w))
		}
		var s uint64
		for _, w := range n.weights {
			s += uint64(w)
		}
		if s > maxWeight {
			return 0, fmt.Errorf("bucket %q weighs %d/65536 in CRUSH's 16.16 units, above the %d CRUSH can divide by; lower weights or weight_unit", n.name, s, maxWeight)
		}
		return s, nil
	}
	if _, err := weigh(h.root); err != nil {
		return nil, nil, err
	}
	m := &Map{}
	for _, id := range ids {
		m.MaxDevices = max(m.MaxDevices, id+1)
	}
	lay := &layout{osd: map[string]int32{}, bucket: map[string]int32{}}
	for _, n := range all {
		i := int(-1 - n.id)
		for len(m.Buckets) <= i {
			m.Buckets = append(m.Buckets, nil)
		}
		m.Buckets[i] = &Bucket{ID: n.id, Name: n.name, Type: n.typ, Items: n.kids, Weights: n.weights}
		lay.bucket[n.key] = n.id
	}
	return m, lay, m.Check()
}

// maxWeight is the largest weight a straw2 draw can divide by: CRUSH
// passes the 32-bit weight as a signed int.
const maxWeight = 1<<31 - 1
