package libmemcached

import (
	"cmp"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/ringreport/ringreport/internal/profile"
)

// member is one configured server as libmemcached holds it.
type member struct {
	host   string
	port   int
	weight uint64
	down   bool
	index  int // position in the servers given to Build
}

// Build returns libmemcached's continuum over servers, as a client that
// added them in order (with auto-eject having taken out the Down ones)
// holds it. prev is not read: libmemcached keeps no history.
func (r *rule) Build(servers []profile.Server, _ profile.Placement) (profile.Placement, error) {
	list, err := r.members(servers)
	if err != nil {
		return nil, err
	}
	p := &placement{order: make([]int32, len(list)), pos: make([]int32, len(list)), down: make([]bool, len(list))}
	for at, m := range list {
		p.order[at], p.pos[m.index], p.down[m.index] = int32(m.index), int32(at), m.down
	}
	r.fill(p, list)
	return p, nil
}

// members checks servers and returns them in libmemcached's list order:
// configuration order, or sorted by hostname then port with sort_hosts.
func (r *rule) members(servers []profile.Server) ([]member, error) {
	if len(servers) > MaxServers {
		return nil, fmt.Errorf("libmemcached: %d servers; Debian's libmemcached 1.1.4 aborts in update_continuum "+
			"past %d (hosts.cc asserts servers × %d ≤ MEMCACHED_CONTINUUM_SIZE)", len(servers), MaxServers, PointsPerServer)
	}
	list := make([]member, len(servers))
	for i, s := range servers {
		host, port, err := ParseName(s.Name)
		if err != nil {
			return nil, err
		}
		if s.Weight < 1 {
			return nil, fmt.Errorf("libmemcached: server %q has weight %d; weights are ≥ 1", s.Name, s.Weight)
		}
		list[i] = member{host: host, port: port, weight: uint64(s.Weight), down: s.Down, index: i}
	}
	if !r.opt.SortHosts {
		return list, nil
	}
	byHost := func(a, b member) int {
		return cmp.Or(cmp.Compare(a.host, b.host), cmp.Compare(a.port, b.port))
	}
	slices.SortStableFunc(list, byHost)
	for i := 1; i < len(list); i++ {
		if byHost(list[i-1], list[i]) == 0 {
			return nil, fmt.Errorf("libmemcached: servers %q and %q are the same host and port; with sort_hosts "+
				"libmemcached's qsort leaves their order undefined", servers[list[i-1].index].Name, servers[list[i].index].Name)
		}
	}
	return list, nil
}

// weighted tells whether the continuum is the weighted one: always in the
// weighted and spy modes, and in ketama mode once a server of weight above
// 1 has been added (server_add turns weighted ketama on).
func (r *rule) weighted(list []member) bool {
	if r.opt.Mode != ModeKetama {
		return true
	}
	return slices.ContainsFunc(list, func(m member) bool { return m.weight > 1 })
}

// fill computes update_continuum's points over the live servers of list
// and sorts them by value, ties by list position (continuum_item_cmp).
func (r *rule) fill(p *placement, list []member) {
	live, total := 0, uint64(0)
	for _, m := range list {
		if !m.down {
			live++
			total += m.weight
		}
	}
	if live == 0 {
		return
	}
	weighted, spy := r.weighted(list), r.opt.Mode == ModeSpy
	var keyed []uint64 // value<<32 | list position, sorted as continuum_item_cmp orders
	buf := make([]byte, 0, 64)
	for at, m := range list {
		if m.down {
			continue
		}
		if !weighted {
			for k := range PointsPerServer {
				buf = AppendPointString(buf[:0], m.host, m.port, spy, k)
				keyed = append(keyed, uint64(r.hash(buf))<<32|uint64(at))
			}
			continue
		}
		for k := range WeightedHashes(m.weight, total, live) {
			buf = AppendPointString(buf[:0], m.host, m.port, spy, k)
			d := md5.Sum(buf)
			for a := range 4 {
				keyed = append(keyed, uint64(binary.LittleEndian.Uint32(d[4*a:]))<<32|uint64(at))
			}
		}
	}
	slices.Sort(keyed)
	p.vals = make([]uint32, len(keyed))
	p.idx = make([]int32, len(keyed))
	for i, kv := range keyed {
		p.vals[i] = uint32(kv >> 32)
		p.idx[i] = p.order[uint32(kv)]
	}
}

// placement is one libmemcached continuum.
type placement struct {
	vals  []uint32 // point values, ascending
	idx   []int32  // server (index into Build's servers) of each point
	order []int32  // list position → server index
	pos   []int32  // server index → list position
	down  []bool   // by server index
}

// Owners is dispatch_host for r = 1: the first point ≥ h, wrapping to the
// first point. For r > 1 it adds the r−1 servers after the primary in list
// order, where MEMCACHED_BEHAVIOR_NUMBER_OF_REPLICAS = r−1 writes a key's
// copies (storage.cc) and reads fall back (get.cc); a Down one among them
// holds no copy and is left out, so fewer than r come back.
func (p *placement) Owners(h uint64, r int, dst []int) []int {
	if r <= 0 || len(p.vals) == 0 {
		return dst
	}
	lo, hi := 0, len(p.vals)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if uint64(p.vals[m]) < h {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(p.vals) {
		lo = 0
	}
	first := p.idx[lo]
	dst = append(dst, int(first))
	n := len(p.order)
	for step := 1; step < min(r, n); step++ {
		if s := p.order[(int(p.pos[first])+step)%n]; !p.down[s] {
			dst = append(dst, int(s))
		}
	}
	return dst
}

// Points returns the continuum's points in order; positions are 32-bit.
func (p *placement) Points() ([]profile.Point, int) {
	pts := make([]profile.Point, len(p.vals))
	for i, v := range p.vals {
		pts[i] = profile.Point{Pos: uint64(v), Server: int(p.idx[i])}
	}
	return pts, 32
}
