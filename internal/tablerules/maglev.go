package tablerules

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// MaglevKind is maglev hashing's registry entry.
var MaglevKind = rulekind.Kind{Name: "maglev", HistoryFree: true, Doc: "Maglev hashing (Eisenbud et al., NSDI 2016): a lookup table of m entries.",
	Params: []rulekind.Param{paramM, rulekind.HashParam}, Mosaic: true,
	Footprint: rulekind.Footprint{Table: func(s placer.RuleSpec, _, _ int64) int64 { return int64(cmp.Or(s.M, defaultMaglevM)) },
		KeyBytes: func(placer.RuleSpec, int64, bool) int64 { return 4 }},
	Build: func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newMaglev(s, e)) }}

var paramM = rulekind.IntField(rulekind.Param{Name: "m", Type: rulekind.ParamPrime, Min: 2, Max: MaxMaglevM, Default: strconv.Itoa(defaultMaglevM),
	Doc:    "Maglev lookup table size: a prime number, such as 65537.",
	Prefix: "table size "},
	func(s *placer.RuleSpec) *int { return &s.M })

// defaultMaglevM is the lookup-table size of a maglev rule that names
// none: the paper's 65537.
const defaultMaglevM = 65537

// MaxMaglevM bounds the lookup-table size a rule may ask for.
const MaxMaglevM = 1 << 24

// maglev is Maglev hashing (Eisenbud et al., "Maglev: A Fast and Reliable
// Software Network Load Balancer", NSDI 2016, §3.4): a lookup table of M
// entries (M prime) is filled by the live nodes taking turns, each taking
// the next empty entry of its own permutation (offset + j·skip) mod M,
// with offset = h1 mod M and skip = h2 mod (M−1) + 1; a key goes to entry
// hash mod M. Here h1 and h2 are the high and low halves of
// nameHash64(name), and nodes take turns in name order, so the table
// depends only on the set of live nodes. Equal weights give every node
// ⌊M/n⌋ or ⌈M/n⌉ entries.
//
// A failed or removed node is handled as the paper does: the table is
// rebuilt without it (recovery rebuilds it with it).
//
// Weights are not in the paper. This rule uses Envoy's weighted population
// (source/common/upstream/maglev_lb.cc): in turn t = 1, 2, … a node of
// weight w takes an entry only when t·w ≥ its target, which starts at 0
// and grows by the largest weight each time it takes one, so it takes
// about w/max(w) of the turns. With equal weights this is the paper's
// round robin.
//
// Replicas are not in the paper: here they are the next distinct nodes
// of the entries after the key's, wrapping.
//
// Steps are incremental: keys are grouped by table entry once, and a step
// reports the keys of the entries whose preference list changed, O(M +
// changed keys), the table rebuild being the only O(M·log M) part.
type maglev struct {
	env      *placer.Env
	kc       *keys.KeyCache
	m        int
	table    []timeline.NodeID   // entry → node
	pref     [][]timeline.NodeID // pref[r][e], built by prefs
	Live     []timeline.Member
	groups   entryGroups
	lastPref [][]timeline.NodeID // the pref table of the last assign or delta
	Cache    maglevCache
	cur      *maglevTable // the table of the last update, in the cache
	lastTab  *maglevTable // the table of the last assign or delta
	diffs    maglevDiffs
	serial   uint64   // tables filled so far
	changed  []uint32 // scratch: the entries a delta found changed
	nameRank []int    // by NodeID: rank of the name in name order
	nameHash []uint64 // by NodeID: nameHash64 of the name
}

// entryGroups lists the keys by table entry: the keys of entry e are
// keys[start[e]:start[e+1]], in canonical order.
type entryGroups struct {
	keys  []uint32
	start []uint32
}

func newMaglev(spec placer.RuleSpec, e *placer.Env) (*maglev, error) {
	h, err := keys.ParseHash(spec.Kind, spec.Hash)
	if err != nil {
		return nil, err
	}
	m := spec.M
	if m == 0 {
		m = defaultMaglevM
	}
	if m < 2 || m > MaxMaglevM || !IsPrime(m) {
		return nil, fmt.Errorf("rule maglev: M = %d must be a prime between 2 and %d", m, MaxMaglevM)
	}
	return &maglev{env: e, kc: keys.NewKeyCache(e.Keys, h), m: m}, nil
}

// IsPrime reports whether n is prime, by trial division. A maglev table
// size must be prime for the permutation to visit every entry.
func IsPrime(n int) bool {
	if n < 2 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

// maglevEntry is one node's state while the table fills.
type maglevEntry struct {
	id        timeline.NodeID
	w         int
	target    int
	pos, skip int // current place in its permutation, and its stride
	taken     int
	inv       int // skip⁻¹ mod M once maglevTail needs it, else 0
}

func (g *maglev) Update(st *timeline.State) []string {
	g.Live = placer.LiveList(st)
	g.pref = nil
	counts := g.Populate()
	var notes []string
	if n := len(g.Live); g.m < 100*n {
		notes = append(notes, fmt.Sprintf("maglev: M = %d is below 100·n = %d: node loads differ by up to one entry in %d, "+
			"more than 1%% (the paper takes M ≫ n)", g.m, 100*n, g.m/n))
	}
	if weighted(g.Live) && (st.Op == timeline.OpStart || st.Op == timeline.OpAdd || st.Op == timeline.OpWeight) {
		notes = append(notes, "maglev has no weighted form in the paper: weights follow Envoy's weighted table population")
	}
	var empty []timeline.NodeID
	for _, m := range g.Live {
		if counts[m.ID] == 0 {
			empty = append(empty, m.ID)
		}
	}
	if len(empty) > 0 {
		notes = append(notes, fmt.Sprintf("maglev: %s got no table entries (M = %d is too small)",
			placer.QuoteNames(g.env.Nodes, empty), g.m))
	}
	return notes
}

// Populate fills the table from the live nodes (the paper's Pseudocode 1
// with Envoy's weights) and returns entries per NodeID. A table depends
// only on the live nodes and their weights, so the last few are kept by
// that key: a step back to an earlier membership (a recovery, or removing
// what was just added) reuses its table instead of refilling M entries,
// which takes about M·ln M probes, the last √M entries' few by looking
// at every empty entry instead (maglevTail): 1.5 ms for M = 65537.
func (g *maglev) Populate() []int {
	es := g.entries()
	key := tableKey(es)
	if t, ok := g.Cache.Get(key); ok {
		g.table, g.cur = t.table, t
		return t.counts
	}
	g.table = make([]timeline.NodeID, g.m)
	fill(g.table, timeline.NoNode)
	maxW := 0
	for _, e := range es {
		maxW = max(maxW, e.w)
	}
	table, m := g.table, g.m
	taken := make([]uint64, (m+63)/64) // occupancy, small enough for L1
	var tail *maglevTail
	tailAt := m - tailEntries(m)
	for filled, turn := 0, 1; filled < m; turn++ {
		if tail == nil && filled >= tailAt {
			tail = newMaglevTail(taken, m)
		}
		for i := range es {
			e := &es[i]
			if filled == m || turn*e.w < e.target {
				continue
			}
			e.target += maxW
			pos, skip := e.pos, e.skip
			if tail != nil {
				pos = tail.take(e)
			}
			for taken[pos>>6]&(1<<(pos&63)) != 0 {
				if pos += skip; pos >= m {
					pos -= m
				}
			}
			taken[pos>>6] |= 1 << (pos & 63)
			table[pos] = e.id
			if pos += skip; pos >= m {
				pos -= m
			}
			e.pos = pos
			e.taken++
			filled++
		}
	}
	counts := make([]int, len(g.env.Nodes))
	for _, e := range es {
		counts[e.id] = e.taken
	}
	g.serial++
	g.cur = &maglevTable{table: g.table, counts: counts, serial: g.serial}
	g.Cache.Put(key, g.cur)
	return counts
}

// maglevTable is a filled table, its entries per NodeID, and its wheel
// arcs once drawn.
type maglevTable struct {
	table  []timeline.NodeID
	counts []int
	arcs   []placer.Arc
	serial uint64 // names the table in maglevDiffs
}

// maglevCache keeps the last few tables by live set and weights. Tables
// are never written once filled, so a cached one can be shared.
type maglevCache struct {
	keys   []string
	tables []*maglevTable
}

// maglevCacheBytes bounds the memory of cached tables.
const maglevCacheBytes = 1 << 20

func (c *maglevCache) Get(key string) (*maglevTable, bool) {
	for i, k := range c.keys {
		if k == key {
			return c.tables[i], true
		}
	}
	return nil, false
}

// Put adds a table, dropping the oldest ones beyond maglevCacheBytes.
func (c *maglevCache) Put(key string, t *maglevTable) {
	n := max(maglevCacheBytes/(2*len(t.table)), 1)
	c.keys = append(c.keys, key)
	c.tables = append(c.tables, t)
	if len(c.keys) > n {
		drop := len(c.keys) - n
		c.keys = slices.Delete(c.keys, 0, drop)
		c.tables = slices.Delete(c.tables, 0, drop)
	}
}

// tableKey names the live set: the entries' ids and weights in fill
// order.
func tableKey(es []maglevEntry) string {
	b := make([]byte, 0, 6*len(es))
	for _, e := range es {
		b = binary.LittleEndian.AppendUint16(b, uint16(e.id))
		b = binary.LittleEndian.AppendUint32(b, uint32(e.w))
	}
	return string(b)
}

// entries returns the live nodes in name order with their permutations.
func (g *maglev) entries() []maglevEntry {
	if g.nameRank == nil {
		g.nameRank, g.nameHash = make([]int, len(g.env.Nodes)), make([]uint64, len(g.env.Nodes))
		byName := make([]int, len(g.env.Nodes))
		for id, name := range g.env.Nodes {
			byName[id], g.nameHash[id] = id, keys.NameHash64(name)
		}
		slices.SortFunc(byName, func(a, b int) int { return strings.Compare(g.env.Nodes[a], g.env.Nodes[b]) })
		for r, id := range byName {
			g.nameRank[id] = r
		}
	}
	es := make([]maglevEntry, len(g.Live))
	for i, m := range g.Live {
		h := g.nameHash[m.ID]
		es[i] = maglevEntry{id: m.ID, w: m.Weight, pos: int((h >> 32) % uint64(g.m)),
			skip: int(uint64(uint32(h))%uint64(g.m-1)) + 1}
	}
	slices.SortFunc(es, func(a, b maglevEntry) int { return g.nameRank[a.id] - g.nameRank[b.id] })
	return es
}

// Prefs returns, for every entry, the R distinct nodes of the entries
// from it onward, wrapping.
func (g *maglev) Prefs(R int) [][]timeline.NodeID {
	if len(g.pref) == R {
		return g.pref
	}
	g.pref = make([][]timeline.NodeID, R)
	g.pref[0] = g.table
	for r := 1; r < R; r++ {
		g.pref[r] = make([]timeline.NodeID, g.m)
	}
	want := min(R, len(g.Live)) // stop when every live node is listed
	list := make([]timeline.NodeID, 0, R)
	for e := 0; R > 1 && e < g.m; e++ {
		list = list[:0]
		for s := 0; s < g.m && len(list) < want; s++ {
			if id := g.table[(e+s)%g.m]; !slices.Contains(list, id) {
				list = append(list, id)
			}
		}
		for r := 1; r < R; r++ {
			g.pref[r][e] = timeline.NoNode
			if r < len(list) {
				g.pref[r][e] = list[r]
			}
		}
	}
	return g.pref
}

// keyGroups groups the keys by entry (hash mod M), once: a counting sort.
func (g *maglev) keyGroups() entryGroups {
	if g.groups.start != nil {
		return g.groups
	}
	pos := g.kc.Pos32()
	m := uint32(g.m)
	start := make([]uint32, g.m+1)
	for _, p := range pos {
		start[p%m+1]++
	}
	for e := 1; e <= g.m; e++ {
		start[e] += start[e-1]
	}
	keys := make([]uint32, len(pos))
	fill := slices.Clone(start[:g.m])
	for i, p := range pos {
		keys[fill[p%m]] = uint32(i)
		fill[p%m]++
	}
	g.groups = entryGroups{keys: keys, start: start}
	return g.groups
}

func (g *maglev) Assign(lists [][]timeline.NodeID) {
	pref := g.Prefs(len(lists))
	g.lastTab = g.cur
	gr := g.keyGroups()
	for e := range g.m {
		for _, k := range gr.keys[gr.start[e]:gr.start[e+1]] {
			for r, l := range lists {
				l[k] = pref[r][e]
			}
		}
	}
	g.lastPref = pref
}

// Delta reports the keys of every entry whose preference list changed.
func (g *maglev) Delta(d *placer.Delta) bool {
	if g.lastPref == nil || len(g.lastPref) != len(d.Lists) {
		return false
	}
	pref := g.Prefs(len(d.Lists))
	gr := g.keyGroups()
	if len(pref) == 1 {
		g.delta1(d, gr)
		g.lastPref = pref
		return true
	}
	changed := g.changed[:0]
	for e := range g.m {
		if !placer.SameLists(g.lastPref, e, pref, e) {
			changed = append(changed, uint32(e))
		}
	}
	g.changed = changed
	gr.touch(changed)
	for _, e := range changed {
		addGroup(d, gr.keys[gr.start[e]:gr.start[e+1]], pref, int(e))
	}
	g.lastPref = pref
	return true
}

// touch reads the first and last key of every listed entry, so that the
// cache misses of a step's scattered groups overlap: the loop has no
// branch that depends on them, unlike the copy that follows.
func (gr entryGroups) touch(entries []uint32) {
	last := uint32(len(gr.keys) - 1)
	var s uint32
	for _, e := range entries {
		s += gr.keys[min(gr.start[e], last)] + gr.keys[min(gr.start[e+1]-1, last)]
	}
	touchSink.Store(s)
}

// touchSink keeps touch's reads from being optimized away. It is atomic
// because rules replay on goroutines of their own: a plain variable
// would be a data race, harmless or not.
var touchSink atomic.Uint32

// addGroup adds the keys of one table entry to d, all with the entry's
// lists: one copy of the keys and one run per rank, rather than a call
// per key.
func addGroup(d *placer.Delta, keys []uint32, pref [][]timeline.NodeID, e int) {
	d.Keys = append(d.Keys, keys...)
	for r, l := range d.Lists {
		id := pref[r][e]
		for range keys {
			l = append(l, id)
		}
		d.Lists[r] = l
	}
}

func (g *maglev) Probe(key string, R int) (uint64, []timeline.NodeID) {
	e := g.kc.Hash.Sum32([]byte(key)) % uint32(g.m)
	return uint64(e), column(g.Prefs(R), int(e))
}

// Geometry samples the entry of a key whose hash is the wheel position,
// once per table: arcs are never modified, so steps share them.
func (g *maglev) Geometry() ([]placer.Arc, []placer.Point) {
	if g.cur.arcs == nil {
		g.cur.arcs = placer.SampledArcs(placer.WheelSamples, func(p uint32) timeline.NodeID { return g.table[p%uint32(g.m)] })
	}
	return g.cur.arcs, nil
}

func (g *maglev) Order() []uint32 {
	_, rank := g.kc.Order()
	return rank
}
