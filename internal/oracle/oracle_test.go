// Package oracle_test replays random scenarios through the real pipeline
// (scenario.Parse → sim.Replay → report.JSON) and checks every number of
// data.json against a naive reference written from the documentation alone
// (README.md, internal/report/SCHEMA.md, the design notes and the doc
// comments that define the hashes). It shares no placement or metric code
// with internal/sim: every key is placed on its own, by definition, and
// every metric is computed straight from its definition.
package oracle_test

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/ringreport/ringreport/internal/report"
	"github.com/ringreport/ringreport/internal/scenario"
	"github.com/ringreport/ringreport/internal/sim"
)

// ---------------------------------------------------------------------
// Hashes, from their published definitions.

// fnvFmix is "fnv1a-fmix": 32-bit FNV-1a, then MurmurHash3's fmix32.
func fnvFmix(s string) uint32 {
	h := uint32(2166136261)
	for _, c := range []byte(s) {
		h = (h ^ uint32(c)) * 16777619
	}
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// h32 is a key's (or point's) 32-bit position under a hash name.
func h32(hash, s string) uint32 {
	switch hash {
	case "", "fnv1a-fmix":
		return fnvFmix(s)
	case "xxhash64":
		return uint32(xxhash.Sum64String(s))
	case "crc32":
		return crc32.ChecksumIEEE([]byte(s))
	case "md5":
		d := md5.Sum([]byte(s))
		return binary.LittleEndian.Uint32(d[:4])
	}
	panic("hash " + hash)
}

// h64 is the 64-bit form: xxhash64 in full, the others zero-extended.
func h64(hash, s string) uint64 {
	if hash == "xxhash64" {
		return xxhash.Sum64String(s)
	}
	return uint64(h32(hash, s))
}

// splitmix64Final is the SplitMix64 output function (Steele, Lea & Flood).
func splitmix64Final(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// fnv64Mix is a node name's 64-bit hash: FNV-1a 64, then SplitMix64's
// finalizer.
func fnv64Mix(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range []byte(s) {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	return splitmix64Final(h)
}

// lampingVeach is JumpConsistentHash from Figure 1 of arXiv:1406.2294.
func lampingVeach(key uint64, buckets int32) int32 {
	var b, j int64 = -1, 0
	for j < int64(buckets) {
		b = j
		key = key*2862933555777941757 + 1
		j = int64(float64(b+1) * (float64(int64(1)<<31) / float64((key>>33)+1)))
	}
	return int32(b)
}

// ---------------------------------------------------------------------
// The scenario as the test builds it.

type member struct {
	name   string
	w      int
	failed bool
}

type cluster struct {
	members []member // join order
	vnodes  int      // 0: each ring rule's own
	R       int
}

func (c cluster) clone() cluster {
	c.members = slices.Clone(c.members)
	return c
}

func (c cluster) live() []member {
	var out []member
	for _, m := range c.members {
		if !m.failed {
			out = append(out, m)
		}
	}
	return out
}

func (c cluster) index(name string) int {
	return slices.IndexFunc(c.members, func(m member) bool { return m.name == name })
}

type ruleSpec struct {
	kind, label, hash string
	vnodes            int
}

type step struct {
	yaml string
	op   string
	c    cluster // after the step
}

// ---------------------------------------------------------------------
// Placement, one key at a time.

// placement is every key's preference list (names, primary first) and the
// probes' positions.
type placement struct {
	lists [][]string
	loads map[string]int // primaryLoads(lists), counted once
}

type point struct {
	pos  uint32
	name string
	i    int
	live bool // its node has not failed
}

func ringPoints(r ruleSpec, c cluster) []point {
	v := r.vnodes
	if c.vnodes > 0 {
		v = c.vnodes
	}
	var pts []point
	for _, m := range c.members {
		for i := 0; i < v*m.w; i++ {
			pts = append(pts, point{h32(r.hash, m.name+"#"+strconv.Itoa(i)), m.name, i, !m.failed})
		}
	}
	sort.Slice(pts, func(a, b int) bool {
		if pts[a].pos != pts[b].pos {
			return pts[a].pos < pts[b].pos
		}
		if pts[a].name != pts[b].name {
			return pts[a].name < pts[b].name
		}
		return pts[a].i < pts[b].i
	})
	return pts
}

// placer returns a key's position and appends its preference list under
// one rule at one state to out. It takes the key's 64-bit hash under the
// rule's hash (h64), which check computes once per key and rule rather
// than at every state: a 32-bit position is its low 32 bits, as h32 is
// for every hash. A placer is used by one goroutine: rendezvous reuses
// its scores.
type placer func(k uint64, out []string) (uint64, []string)

func newPlacer(r ruleSpec, c cluster) placer {
	R := c.R
	switch r.kind {
	case "ring":
		pts := ringPoints(r, c)
		return func(k uint64, out []string) (uint64, []string) {
			p := uint32(k)
			j := sort.Search(len(pts), func(j int) bool { return pts[j].pos >= p })
			start := len(out)
			for s := 0; s < len(pts) && len(out)-start < R; s++ {
				pt := pts[(j+s)%len(pts)]
				if pt.live && !slices.Contains(out[start:], pt.name) {
					out = append(out, pt.name)
				}
			}
			return uint64(p), out
		}
	case "modulo":
		live := c.live()
		return func(k uint64, out []string) (uint64, []string) {
			n := uint32(len(live))
			b := uint32(k) % n
			for j := uint32(0); j < uint32(R) && j < n; j++ {
				out = append(out, live[(b+j)%n].name)
			}
			return uint64(b), out
		}
	case "jump":
		var buckets []string
		for _, m := range c.live() {
			for range m.w {
				buckets = append(buckets, m.name)
			}
		}
		return func(k uint64, out []string) (uint64, []string) {
			b := int(lampingVeach(k, int32(len(buckets))))
			start := len(out)
			for s := 0; s < len(buckets) && len(out)-start < R; s++ {
				if n := buckets[(b+s)%len(buckets)]; !slices.Contains(out[start:], n) {
					out = append(out, n)
				}
			}
			return uint64(b), out
		}
	case "rendezvous":
		return rendezvousPlacer(c)
	}
	panic(r.kind)
}

// rendezvousPlacer scores every live node for each key and lists the R
// highest scores, ties to the name that sorts first.
func rendezvousPlacer(c cluster) placer {
	live := c.live()
	R := c.R
	equal := true
	for _, m := range live {
		equal = equal && m.w == live[0].w
	}
	nodeHash := make([]uint64, len(live)) // each name's hash, the same for every key
	for i, m := range live {
		nodeHash[i] = fnv64Mix(m.name)
	}
	scores := make([]float64, len(live))
	taken := make([]bool, len(live))
	return func(k uint64, out []string) (uint64, []string) {
		for i, m := range live {
			x := splitmix64Final(k^nodeHash[i]) >> 12
			s := float64(x) // 52 bits: exact
			if !equal {
				// math.Log, not the simulator's bit-reproducible
				// detLog: they may differ in the last place, which
				// could only swap two scores within an ulp.
				h := (float64(x) + 0.5) / (1 << 52)
				s = -float64(m.w) / math.Log(h)
			}
			scores[i] = s
			taken[i] = false
		}
		// The best remaining score, R times: a selection of the first R
		// of the order by score (descending), then name.
		for range min(R, len(live)) {
			best := -1
			for i := range live {
				if taken[i] {
					continue
				}
				if best < 0 || scores[i] > scores[best] || scores[i] == scores[best] && live[i].name < live[best].name {
					best = i
				}
			}
			taken[best] = true
			out = append(out, live[best].name)
		}
		return k, out
	}
}

// placeAll places every key with f, the placer of one rule at one state;
// hs are the keys' hashes under that rule. The lists share one array.
func placeAll(f placer, hs []uint64, R int) placement {
	p := placement{lists: make([][]string, len(hs))}
	buf := make([]string, 0, len(hs)*R)
	for i, k := range hs {
		start := len(buf)
		_, buf = f(k, buf)
		p.lists[i] = buf[start:len(buf):len(buf)]
	}
	p.loads = primaryLoads(p)
	return p
}

// ---------------------------------------------------------------------
// Metrics, from the definitions.

type ruleStep struct {
	Moved          int            `json:"moved"`
	MovedFraction  float64        `json:"moved_fraction"`
	Needed         int            `json:"needed"`
	Collateral     int            `json:"collateral"`
	Ideal          int            `json:"ideal"`
	Loads          map[string]int `json:"loads"`
	PeakToMean     float64        `json:"peak_to_mean"`
	WorstDeviation float64        `json:"worst_deviation"`
	CV             float64        `json:"cv"`
	NoiseCV        float64        `json:"noise_cv"`
	TotalMoved     int            `json:"total_moved"`
	Fingerprint    string         `json:"fingerprint"`
	Recurs         *int           `json:"recurs"`
	ReplicaMoved   int            `json:"replica_moved"`
	Copies         int            `json:"copies"`
	UnderRepl      int            `json:"under_replicated"`
	Notes          []string       `json:"notes"`
	Transfers      []transfer     `json:"transfers"`
	TransfersRest  transferRest   `json:"transfers_rest"`
}

// transferRest is what data.json leaves out of a step's transfers.
type transferRest struct {
	Pairs int `json:"pairs"`
	Keys  int `json:"keys"`
}

// maxTransfers is the most pairs data.json lists per step and rule.
const maxTransfers = 100

type transfer struct {
	From string `json:"from"`
	To   string `json:"to"`
	Keys int    `json:"keys"`
}

type probe struct {
	Position uint64   `json:"position"`
	Owners   []string `json:"owners"`
}

type jsonStep struct {
	Step     int                         `json:"step"`
	Op       string                      `json:"op"`
	Nodes    []string                    `json:"nodes"`
	Live     []string                    `json:"live"`
	Weights  map[string]int              `json:"weights"`
	VNodes   *int                        `json:"vnodes"`
	Replicas int                         `json:"replicas"`
	Rules    map[string]ruleStep         `json:"rules"`
	Probes   map[string]map[string]probe `json:"probes"`
}

type jsonData struct {
	Keys  int        `json:"keys"`
	Nodes []string   `json:"nodes"`
	Steps []jsonStep `json:"steps"`
}

func primaryLoads(p placement) map[string]int {
	loads := map[string]int{}
	for _, l := range p.lists {
		if len(l) > 0 {
			loads[l[0]]++
		}
	}
	return loads
}

func owner(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// expected computes one rule's figures at step i from the placements of
// steps 0..i.
func expected(c cluster, all []placement, i int, K int, everSeen []string, totalBefore int) ruleStep {
	cur := all[i]
	B := cur.loads
	var out ruleStep
	out.Loads = map[string]int{}
	for _, m := range c.members {
		out.Loads[m.name] = B[m.name]
	}
	// Fair shares over the live nodes.
	live := c.live()
	W := 0
	for _, m := range live {
		W += m.w
	}
	T := func(m member) float64 { return float64(K) * float64(m.w) / float64(W) }
	var xs []float64
	for _, m := range live {
		x := float64(B[m.name]) / T(m)
		xs = append(xs, x)
		out.PeakToMean = max(out.PeakToMean, x)
		out.WorstDeviation = max(out.WorstDeviation, math.Abs(float64(B[m.name])-T(m))/T(m))
	}
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	out.CV = math.Sqrt(v / float64(len(xs)))
	// Noise: √((n−1)/K) for equal weights; √((1/n)·Σ(1−p)/(K·p)) in
	// general, which reduces to it.
	noise := 0.0
	for _, m := range live {
		p := float64(m.w) / float64(W)
		noise += (1 - p) / (float64(K) * p)
	}
	out.NoiseCV = math.Sqrt(noise / float64(len(live)))

	R := c.R
	for _, l := range cur.lists {
		if len(l) < R {
			out.UnderRepl++
		}
	}
	out.Transfers = []transfer{}
	if i > 0 {
		prev := all[i-1]
		A := prev.loads
		pairs := map[[2]string]int{}
		for k := range cur.lists {
			if owner(prev.lists[k]) != owner(cur.lists[k]) {
				out.Moved++
				pairs[[2]string{owner(prev.lists[k]), owner(cur.lists[k])}]++
			}
			// The replica sets as sets: a copy is a node of the new set
			// not in the old one; the set changed when one holds a node
			// the other does not. (Preference lists hold at most a few
			// names, so a scan of the list is the set lookup.)
			oldSet, newSet := prev.lists[k], cur.lists[k]
			added := 0
			for j, n := range newSet {
				if !slices.Contains(newSet[:j], n) && !slices.Contains(oldSet, n) {
					added++
				}
			}
			out.Copies += added
			if added > 0 || slices.ContainsFunc(oldSet, func(n string) bool { return !slices.Contains(newSet, n) }) {
				out.ReplicaMoved++
			}
		}
		sum := 0
		for _, n := range everSeen {
			sum += abs(B[n] - A[n])
		}
		if sum%2 != 0 {
			panic("odd needed")
		}
		out.Needed = sum / 2
		out.Collateral = out.Moved - out.Needed
		out.Ideal = idealMoves(A, live, K, W, everSeen)
		order := map[string]int{}
		for j, n := range everSeen {
			order[n] = j
		}
		for p, n := range pairs {
			out.Transfers = append(out.Transfers, transfer{p[0], p[1], n})
		}
		sort.Slice(out.Transfers, func(a, b int) bool {
			x, y := out.Transfers[a], out.Transfers[b]
			if x.From != y.From {
				return order[x.From] < order[y.From]
			}
			return order[x.To] < order[y.To]
		})
		// data.json keeps the maxTransfers pairs that moved the most
		// keys, ties to the earlier pair, in from-then-to order.
		byKeys := slices.Clone(out.Transfers)
		sort.SliceStable(byKeys, func(a, b int) bool { return byKeys[a].Keys > byKeys[b].Keys })
		if len(byKeys) > maxTransfers {
			for _, t := range byKeys[maxTransfers:] {
				out.TransfersRest.Pairs++
				out.TransfersRest.Keys += t.Keys
			}
			kept := map[transfer]bool{}
			for _, t := range byKeys[:maxTransfers] {
				kept[t] = true
			}
			out.Transfers = slices.DeleteFunc(out.Transfers, func(t transfer) bool { return !kept[t] })
		}
	}
	out.MovedFraction = float64(out.Moved) / float64(K)
	out.TotalMoved = totalBefore + out.Moved
	for j := 0; j < i; j++ {
		same := true
		for k := range cur.lists {
			if owner(all[j].lists[k]) != owner(cur.lists[k]) {
				same = false
				break
			}
		}
		if same {
			out.Recurs = &j
			break
		}
	}
	return out
}

// idealMoves is the fewest moves from loads A to a split of K keys over
// the live nodes in which every live node holds ⌊T⌋ or ⌈T⌉ keys, found by
// trying the choice of which nodes round up exhaustively when that is
// small, else greedily (keys on a node only ever leave it, so the cost of
// targets t is Σ max(0, A_i − t_i), and rounding node i up saves one move
// exactly when A_i > ⌊T_i⌋).
func idealMoves(A map[string]int, live []member, K, W int, everSeen []string) int {
	isLive := map[string]bool{}
	cost := 0
	up := 0 // how many live nodes must round up
	var frac []member
	floor := map[string]int{}
	up = K
	for _, m := range live {
		isLive[m.name] = true
		floor[m.name] = K * m.w / W
		up -= floor[m.name]
		if K*m.w%W != 0 {
			frac = append(frac, m)
		}
	}
	for _, n := range everSeen {
		if !isLive[n] {
			cost += A[n]
		}
	}
	best := math.MaxInt
	if len(frac) <= 12 {
		for mask := 0; mask < 1<<len(frac); mask++ {
			if popcount(mask) != up {
				continue
			}
			c := cost
			t := map[string]int{}
			for _, m := range live {
				t[m.name] = floor[m.name]
			}
			for j, m := range frac {
				if mask>>j&1 == 1 {
					t[m.name]++
				}
			}
			for _, m := range live {
				c += max(0, A[m.name]-t[m.name])
			}
			best = min(best, c)
		}
		return best
	}
	saves := 0
	for _, m := range frac {
		if A[m.name] > floor[m.name] {
			saves++
		}
	}
	for _, m := range live {
		cost += max(0, A[m.name]-floor[m.name])
	}
	return cost - min(saves, up)
}

func popcount(x int) int {
	n := 0
	for ; x > 0; x &= x - 1 {
		n++
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// ---------------------------------------------------------------------
// Random scenarios.

type family struct {
	name       string
	kinds      []string // rule kinds to draw from
	ops        []string
	nativeJump bool // add only new nodes, remove only the last member
}

var families = []family{
	{name: "ring", kinds: []string{"ring", "ring", "ring", "rendezvous"},
		ops: []string{"add", "remove", "fail", "recover", "vnodes", "replicas", "weight"}},
	// modulo ignores weights (with a note); the fair shares still use them.
	{name: "modulo", kinds: []string{"modulo", "ring", "rendezvous"},
		ops: []string{"add", "remove", "fail", "recover", "replicas", "weight"}},
	{name: "rendezvous", kinds: []string{"rendezvous", "rendezvous", "ring"},
		ops: []string{"add", "remove", "fail", "recover", "replicas", "weight"}},
	{name: "jump", kinds: []string{"jump", "jump", "modulo", "rendezvous"},
		ops: []string{"add", "remove", "replicas"}, nativeJump: true},
}

var hashes = []string{"", "fnv1a-fmix", "xxhash64", "crc32", "md5"}

type scen struct {
	yaml   string
	keys   []string
	probes []string
	rules  []ruleSpec
	start  cluster
	steps  []step
}

func randomKeys(rng *rand.Rand, n int) []string {
	seen := map[string]bool{}
	var keys []string
	prefixes := []string{"user:", "key-", "session/", "img_", ""}
	for len(keys) < n {
		var k string
		switch rng.IntN(3) {
		case 0:
			k = prefixes[rng.IntN(len(prefixes))] + strconv.Itoa(rng.IntN(1_000_000))
		case 1:
			k = fmt.Sprintf("%s%x", prefixes[rng.IntN(len(prefixes))], rng.Uint64())
		default:
			k = prefixes[rng.IntN(len(prefixes))] + strconv.Itoa(len(keys))
		}
		if !seen[k] && strings.TrimSpace(k) == k && k != "" {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func q(s string) string { return strconv.Quote(s) }

func genScenario(rng *rand.Rand, f family, nkeys int) scen {
	var s scen
	s.keys = randomKeys(rng, nkeys)
	// Rules.
	nr := 1 + rng.IntN(3)
	weighted := slices.Contains(f.ops, "weight")
	for i := 0; i < nr; i++ {
		kind := f.kinds[rng.IntN(len(f.kinds))]
		if i == 0 {
			kind = f.kinds[0]
		}
		r := ruleSpec{kind: kind, hash: hashes[rng.IntN(len(hashes))]}
		if kind == "ring" {
			r.vnodes = []int{1, 2, 3, 8, 16, 40}[rng.IntN(6)]
		}
		r.label = fmt.Sprintf("%s-%d", kind, i)
		s.rules = append(s.rules, r)
	}
	// Names: some share prefixes so that name order and join order differ.
	next := 0
	newName := func() string {
		next++
		return []string{"n", "cache-", "db.", "Z", "a"}[rng.IntN(5)] + strconv.Itoa(rng.IntN(50)) + "x" + strconv.Itoa(next)
	}
	c := cluster{R: 1 + rng.IntN(3)}
	for n := 1 + rng.IntN(8); n > 0; n-- {
		w := 1
		if weighted && rng.IntN(3) == 0 {
			w = 1 + rng.IntN(3)
		}
		c.members = append(c.members, member{name: newName(), w: w})
	}
	s.start = c.clone()
	var removed []string
	nsteps := 4 + rng.IntN(12)
	for len(s.steps) < nsteps {
		op := f.ops[rng.IntN(len(f.ops))]
		c2 := c.clone()
		var y string
		nlive := len(c.live())
		switch op {
		case "add":
			name := newName()
			if !f.nativeJump && len(removed) > 0 && rng.IntN(3) == 0 {
				name = removed[rng.IntN(len(removed))]
				removed = slices.DeleteFunc(removed, func(n string) bool { return n == name })
			}
			w := 1
			if weighted && rng.IntN(3) == 0 || f.nativeJump && rng.IntN(4) == 0 {
				w = 1 + rng.IntN(3)
			}
			c2.members = append(c2.members, member{name: name, w: w})
			if w == 1 && rng.IntN(2) == 0 {
				y = "add: " + q(name)
			} else {
				y = fmt.Sprintf("add: {name: %s, weight: %d}", q(name), w)
			}
		case "remove":
			if len(c.members) < 2 {
				continue
			}
			j := rng.IntN(len(c.members))
			if f.nativeJump {
				j = len(c.members) - 1
			}
			m := c.members[j]
			if !m.failed && nlive == 1 {
				continue
			}
			c2.members = slices.Delete(c2.members, j, j+1)
			removed = append(removed, m.name)
			y = "remove: " + q(m.name)
		case "fail":
			if nlive < 2 {
				continue
			}
			live := c.live()
			m := live[rng.IntN(len(live))]
			c2.members[c.index(m.name)].failed = true
			y = "fail: " + q(m.name)
		case "recover":
			var failed []string
			for _, m := range c.members {
				if m.failed {
					failed = append(failed, m.name)
				}
			}
			if len(failed) == 0 {
				continue
			}
			if rng.IntN(4) == 0 {
				for i := range c2.members {
					c2.members[i].failed = false
				}
				y = "recover: all"
			} else {
				n := failed[rng.IntN(len(failed))]
				c2.members[c.index(n)].failed = false
				y = "recover: " + q(n)
			}
		case "vnodes":
			c2.vnodes = []int{1, 4, 10, 25}[rng.IntN(4)]
			y = fmt.Sprintf("vnodes: %d", c2.vnodes)
		case "replicas":
			c2.R = 1 + rng.IntN(3)
			y = fmt.Sprintf("replicas: %d", c2.R)
		case "weight":
			m := c.members[rng.IntN(len(c.members))]
			w := 1 + rng.IntN(3)
			c2.members[c.index(m.name)].w = w
			y = fmt.Sprintf("weight: {%s: %d}", q(m.name), w)
		}
		s.steps = append(s.steps, step{yaml: y, op: op, c: c2})
		c = c2
	}
	s.probes = []string{s.keys[0], s.keys[len(s.keys)/2], "probe:" + strconv.Itoa(rng.IntN(1000)), "🙂"}
	s.yaml = render(s)
	return s
}

func render(s scen) string {
	var b strings.Builder
	b.WriteString("title: oracle\nseed: 3\nkeys: {file: keys.txt}\nnodes:\n")
	for _, m := range s.start.members {
		fmt.Fprintf(&b, "  - {name: %s, weight: %d}\n", q(m.name), m.w)
	}
	fmt.Fprintf(&b, "replicas: %d\nrules:\n", s.start.R)
	for _, r := range s.rules {
		fmt.Fprintf(&b, "  - {rule: %s, label: %s", r.kind, q(r.label))
		if r.vnodes > 0 {
			fmt.Fprintf(&b, ", vnodes: %d", r.vnodes)
		}
		if r.hash != "" {
			fmt.Fprintf(&b, ", hash: %s", r.hash)
		}
		b.WriteString("}\n")
	}
	b.WriteString("probes: [")
	for i, p := range s.probes {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(q(p))
	}
	b.WriteString("]\nsteps:\n")
	for _, st := range s.steps {
		fmt.Fprintf(&b, "  - %s\n", st.yaml)
	}
	return b.String()
}

// ---------------------------------------------------------------------
// Running and comparing.

func runPipeline(t *testing.T, s scen) jsonData {
	t.Helper()
	// The keys file is served from memory: what reads it from disk is
	// the command's, and writing one per case cost more system time
	// than the replay.
	keysFile := []byte(strings.Join(s.keys, "\n") + "\n")
	sc, err := scenario.Parse("oracle.yaml", []byte(s.yaml), scenario.Options{ReadFile: func(rel string) ([]byte, error) {
		if rel != "keys.txt" {
			return nil, fmt.Errorf("open %s: no such file", rel)
		}
		return keysFile, nil
	}})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, s.yaml)
	}
	res, err := sim.Replay(sc)
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, s.yaml)
	}
	data, err := report.JSON(res)
	if err != nil {
		t.Fatal(err)
	}
	var d jsonData
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// check compares data.json with the oracle and returns the mismatches.
func check(s scen, d jsonData) []string {
	var errs []string
	bad := func(format string, args ...any) {
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	K := len(s.keys)
	if d.Keys != K {
		bad("keys %d, want %d", d.Keys, K)
	}
	states := []cluster{s.start}
	for _, st := range s.steps {
		states = append(states, st.c)
	}
	if len(d.Steps) != len(states) {
		bad("steps %d, want %d", len(d.Steps), len(states))
		return errs
	}
	var everSeen []string
	for _, c := range states {
		for _, m := range c.members {
			if !slices.Contains(everSeen, m.name) {
				everSeen = append(everSeen, m.name)
			}
		}
	}
	if !slices.Equal(d.Nodes, everSeen) {
		bad("nodes %v, want %v", d.Nodes, everSeen)
	}
	// Steps' membership.
	for i, c := range states {
		js := d.Steps[i]
		var nodes, live []string
		for _, m := range c.members {
			nodes = append(nodes, m.name)
			if !m.failed {
				live = append(live, m.name)
			}
			if js.Weights[m.name] != m.w {
				bad("step %d weight %s %d, want %d", i, m.name, js.Weights[m.name], m.w)
			}
		}
		if !slices.Equal(js.Nodes, nodes) || !slices.Equal(js.Live, live) || js.Replicas != c.R {
			bad("step %d: nodes %v live %v R %d, want %v %v %d", i, js.Nodes, js.Live, js.Replicas, nodes, live, c.R)
		}
	}
	fps := map[string]string{} // fingerprint → a canonical owner string
	nodeIndex := map[string]int{}
	for j, n := range everSeen {
		nodeIndex[n] = j
	}
	for _, r := range s.rules {
		hs := make([]uint64, K) // each key hashed once per rule
		for k, key := range s.keys {
			hs[k] = h64(r.hash, key)
		}
		var all []placement
		total := 0
		for i, c := range states {
			pl := newPlacer(r, c)
			all = append(all, placeAll(pl, hs, c.R))
			want := expected(c, all, i, K, everSeen, total)
			total = want.TotalMoved
			got, ok := d.Steps[i].Rules[r.label]
			if !ok {
				bad("step %d: no rule %s", i, r.label)
				continue
			}
			at := fmt.Sprintf("step %d (%s) rule %s", i, d.Steps[i].Op, r.label)
			ints := []struct {
				name      string
				got, want int
			}{
				{"moved", got.Moved, want.Moved}, {"needed", got.Needed, want.Needed},
				{"collateral", got.Collateral, want.Collateral}, {"ideal", got.Ideal, want.Ideal},
				{"total_moved", got.TotalMoved, want.TotalMoved}, {"replica_moved", got.ReplicaMoved, want.ReplicaMoved},
				{"copies", got.Copies, want.Copies}, {"under_replicated", got.UnderRepl, want.UnderRepl},
			}
			for _, x := range ints {
				if x.got != x.want {
					bad("%s: %s = %d, want %d", at, x.name, x.got, x.want)
				}
			}
			floats := []struct {
				name      string
				got, want float64
			}{
				{"moved_fraction", got.MovedFraction, want.MovedFraction},
				{"peak_to_mean", got.PeakToMean, want.PeakToMean},
				{"worst_deviation", got.WorstDeviation, want.WorstDeviation},
				{"cv", got.CV, want.CV}, {"noise_cv", got.NoiseCV, want.NoiseCV},
			}
			for _, x := range floats {
				if math.Abs(x.got-x.want) > 1e-6 {
					bad("%s: %s = %.6f, want %.9f", at, x.name, x.got, x.want)
				}
			}
			if len(got.Loads) != len(want.Loads) {
				bad("%s: loads %v, want %v", at, got.Loads, want.Loads)
			}
			for n, l := range want.Loads {
				if got.Loads[n] != l {
					bad("%s: load of %s = %d, want %d", at, n, got.Loads[n], l)
				}
			}
			if (got.Recurs == nil) != (want.Recurs == nil) || got.Recurs != nil && *got.Recurs != *want.Recurs {
				bad("%s: recurs %s, want %s", at, ptr(got.Recurs), ptr(want.Recurs))
			}
			if !slices.Equal(got.Transfers, want.Transfers) || got.TransfersRest != want.TransfersRest {
				bad("%s: transfers %v and %+v more, want %v and %+v", at, got.Transfers, got.TransfersRest, want.Transfers, want.TransfersRest)
			}
			// Fingerprints: equal exactly when the owner assignments are.
			// The assignment as a string: each key's owner as its index
			// in everSeen (two bytes), or 0xffff for none.
			ob := make([]byte, 0, 2*K)
			for _, l := range all[i].lists {
				j := 0xffff
				if len(l) > 0 {
					j = nodeIndex[l[0]]
				}
				ob = binary.LittleEndian.AppendUint16(ob, uint16(j))
			}
			if prev, ok := fps[got.Fingerprint]; ok && prev != string(ob) {
				bad("%s: fingerprint %s shared by a different assignment", at, got.Fingerprint)
			}
			fps[got.Fingerprint] = string(ob)
			// Probes.
			for _, key := range s.probes {
				pos, owners := pl(h64(r.hash, key), nil)
				gp := d.Steps[i].Probes[key][r.label]
				if gp.Position != pos || !slices.Equal(gp.Owners, owners) {
					bad("%s: probe %q = %d %v, want %d %v", at, key, gp.Position, gp.Owners, pos, owners)
				}
			}
		}
	}
	// The same owner assignment must have one fingerprint.
	byAssign := map[string]string{}
	for fp, a := range fps {
		if other, ok := byAssign[a]; ok && other != fp {
			bad("one assignment has fingerprints %s and %s", fp, other)
		}
		byAssign[a] = fp
	}
	return errs
}

func ptr(p *int) string {
	if p == nil {
		return "null"
	}
	return strconv.Itoa(*p)
}

func TestOracleRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 12
	}
	rng := rand.New(rand.NewPCG(20240611, 7))
	for i := range n {
		f := families[i%len(families)]
		nkeys := 1000 + rng.IntN(3000)
		s := genScenario(rng, f, nkeys)
		t.Run(fmt.Sprintf("%02d-%s", i, f.name), func(t *testing.T) {
			t.Parallel() // s is drawn above, in order, so the cases do not depend on it
			d := runPipeline(t, s)
			if errs := check(s, d); len(errs) > 0 {
				t.Errorf("%d mismatches:\n%s\nscenario:\n%s", len(errs), strings.Join(errs, "\n"), s.yaml)
			}
		})
	}
}

// TestOracleJumpRenumbering checks jump's documented renumbering: a change
// other than adding or dropping the last bucket places keys over the live
// members in join order (weights as consecutive buckets) and says so in a
// note; native changes carry no such note.
func TestOracleJumpRenumbering(t *testing.T) {
	rng := rand.New(rand.NewPCG(99, 1))
	s := scen{keys: randomKeys(rng, 3000)}
	s.rules = []ruleSpec{{kind: "jump", label: "jump"}, {kind: "jump", label: "jump-xx", hash: "xxhash64"}}
	c := cluster{R: 2}
	for _, n := range []string{"e", "d", "c", "b", "a"} {
		c.members = append(c.members, member{name: n, w: 1})
	}
	s.start = c.clone()
	do := func(y, op string, f func(c *cluster)) {
		c2 := c.clone()
		f(&c2)
		s.steps = append(s.steps, step{yaml: y, op: op, c: c2})
		c = c2
	}
	do(`add: {name: "f", weight: 2}`, "add", func(c *cluster) { c.members = append(c.members, member{name: "f", w: 2}) })
	do(`remove: "d"`, "remove", func(c *cluster) { c.members = slices.Delete(c.members, 1, 2) })
	do(`fail: "c"`, "fail", func(c *cluster) { c.members[1].failed = true })
	do(`remove: "f"`, "remove", func(c *cluster) { c.members = c.members[:len(c.members)-1] })
	do(`recover: "c"`, "recover", func(c *cluster) { c.members[1].failed = false })
	do(`weight: {"b": 3}`, "weight", func(c *cluster) { c.members[2].w = 3 })
	do(`replicas: 3`, "replicas", func(c *cluster) { c.R = 3 })
	do(`add: "d"`, "add", func(c *cluster) { c.members = append(c.members, member{name: "d", w: 1}) })
	s.probes = []string{s.keys[0], s.keys[1], "x"}
	s.yaml = render(s)
	d := runPipeline(t, s)
	if errs := check(s, d); len(errs) > 0 {
		t.Errorf("%d mismatches:\n%s\nscenario:\n%s", len(errs), strings.Join(errs, "\n"), s.yaml)
	}
	renumbered := []bool{false, false, true, true, false, true, true, false, false}
	for i, want := range renumbered {
		notes := d.Steps[i].Rules["jump"].Notes
		got := slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "renumbering") })
		if got != want {
			t.Errorf("step %d (%s): renumbering note %v, want %v: %q", i, d.Steps[i].Op, got, want, notes)
		}
	}
}

// TestOracleRingTies puts two nodes' points at the same position and keys
// just before it, so that the documented tiebreak (node name, then point
// index) decides owners and replicas; one of the two fails on the way.
func TestOracleRingTies(t *testing.T) {
	// Two points of different names at one position: the first such
	// pair that a search over the names t0…t999 with points 0…999 each
	// finds (a search of 0.5 s of CPU, so its result is written here and
	// checked).
	type at struct {
		name string
		i    int
	}
	x, y := at{"t441", 149}, at{"t780", 622}
	pos := fnvFmix(x.name + "#" + strconv.Itoa(x.i))
	if p := fnvFmix(y.name + "#" + strconv.Itoa(y.i)); p != pos {
		t.Fatalf("%s#%d is at %d and %s#%d at %d: no tie to test", x.name, x.i, pos, y.name, y.i, p)
	}
	vn := max(x.i, y.i) + 1
	// The later joiner sorts first by name? Make the join order the
	// reverse of name order so that the tiebreak is visible.
	first, second := x.name, y.name
	if first < second {
		first, second = second, first
	}
	rng := rand.New(rand.NewPCG(5, 5))
	keys := randomKeys(rng, 1000)
	// Keys whose position is just at or before the tie.
	for k := 0; len(keys) < 1040; k++ {
		key := "tie-" + strconv.Itoa(k)
		if p := fnvFmix(key); p <= pos && pos-p < 1<<22 {
			keys = append(keys, key)
		}
	}
	s := scen{keys: keys}
	s.rules = []ruleSpec{{kind: "ring", label: "ring", vnodes: vn}}
	s.start = cluster{R: 2, members: []member{{name: first, w: 1}, {name: second, w: 1}, {name: "zz", w: 1}}}
	c := s.start.clone()
	do := func(y, op string, f func(c *cluster)) {
		c2 := c.clone()
		f(&c2)
		s.steps = append(s.steps, step{yaml: y, op: op, c: c2})
		c = c2
	}
	lo := min(first, second)
	do(`fail: `+q(lo), "fail", func(c *cluster) { c.members[c.index(lo)].failed = true })
	do(`recover: all`, "recover", func(c *cluster) { c.members[c.index(lo)].failed = false })
	do(`replicas: 1`, "replicas", func(c *cluster) { c.R = 1 })
	do(`remove: `+q(lo), "remove", func(c *cluster) {
		c.members = slices.DeleteFunc(c.members, func(m member) bool { return m.name == lo })
	})
	do(`add: `+q(lo), "add", func(c *cluster) { c.members = append(c.members, member{name: lo, w: 1}) })
	s.probes = keys[1000:1004]
	s.yaml = render(s)
	d := runPipeline(t, s)
	if errs := check(s, d); len(errs) > 0 {
		t.Errorf("%d mismatches:\n%s\nscenario:\n%s", len(errs), strings.Join(errs, "\n"), s.yaml)
	}
	// The tie must decide something: at step 0 the keys just before it go
	// to the name that sorts first.
	if o := d.Steps[0].Probes[keys[1000]]["ring"].Owners; len(o) == 0 {
		t.Fatal("no owners")
	}
	t.Logf("tie at %d between %v and %v, vnodes %d", pos, x, y, vn)
}
