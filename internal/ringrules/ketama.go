package ringrules

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/ringreport/ringreport/internal/keys"
	"github.com/ringreport/ringreport/internal/placer"
	"github.com/ringreport/ringreport/internal/rulekind"
	"github.com/ringreport/ringreport/internal/timeline"
)

// Ketama is libketama's continuum (Richard Jones, Last.fm 2007,
// github.com/RJ/ketama, libketama/ketama.c ketama_create_continuum and
// ketama_get_server), the "ketama" distribution of memcached clients.
// Node names are the strings clients hash, e.g. "10.0.0.1:11211".
//
// Server i of n, of weight w_i out of Σw, gets
// ks = floorf(pct·40.0·(float)n) hashes, pct = (float)w_i/(float)Σw, with
// libketama's own single-precision arithmetic (40 each with equal weights,
// but 39 at n = 61, 122, 237, …, which update notes); hash k is MD5("name-k") and gives 4 points,
// bytes [4h, 4h+4) little-endian for h = 0..3 — 160 points per server. A
// key's position is the first 4 bytes of MD5(key), little-endian, and it
// goes to the first point ≥ its position, wrapping. Points at the same
// position are ordered by node name (libketama's qsort leaves them in no
// defined order).
//
// Failure is modelled as libmemcached's auto-eject does it: the continuum
// is rebuilt over the live servers (n and Σw count live servers only), so
// with unequal weights a failure or a join changes every server's point
// count and moves keys between servers that stayed. Recovery rebuilds it
// again. The rule fixes its hash (MD5) and its points (VNodes does not
// apply, nor do vnodes steps).
//
// Replicas are not defined by libketama: here they are the ring walk
// clockwise, collecting distinct servers.
type Ketama struct {
	R *Ring
}

// ketamaHashes is libketama's hashes per server of average weight.
const ketamaHashes = 40

// LibketamaKind is libketama's registry entry.
var LibketamaKind = rulekind.Kind{Name: "libketama", HistoryFree: true, Aliases: []string{"ketama"}, Doc: "libketama's continuum (RJ/ketama): MD5 of the node name as written, 160 points per server of average weight in libketama's single precision; libmemcached's differs (see libmemcached).",
	Fixed: []rulekind.Param{rulekind.HashParam.WithDefault("md5")}, FixedPoints: ketamaHashes * 4, Theory: rulekind.RingTheory,
	Footprint: rulekind.Footprint{Table: func(_ placer.RuleSpec, w, _ int64) int64 { return ketamaHashes * 4 * w }, Points: true, StepPoints: true, Local: true},
	Build:     func(s placer.RuleSpec, e *placer.Env) (placer.Placer, error) { return placer.Checked(newKetama(s, e)) }}

func newKetama(spec placer.RuleSpec, e *placer.Env) (*Ketama, error) {
	if spec.Hash != "" && spec.Hash != "md5" {
		return nil, fmt.Errorf("rule ketama: the hash is MD5, as in libketama; hash %q does not apply", spec.Hash)
	}
	if spec.VNodes != 0 {
		return nil, fmt.Errorf("rule ketama: the points per server are libketama's (%d hashes × 4); vnodes does not apply", ketamaHashes)
	}
	return &Ketama{R: &Ring{Env: e, cached: map[timeline.NodeID]ringNode{}, kc: keys.NewKeyCache(e.Keys, keys.HashMD5)}}, nil
}

// KetamaCount is libketama's number of hashes for a server:
// floorf(pct * 40.0 * (float)numservers) with pct a float, the product
// taken in double, then rounded to float by floorf's argument.
func KetamaCount(w, total, n int) int {
	pct := float32(w) / float32(total)
	x := float64(pct) * 40.0 * float64(float32(n))
	return int(math.Floor(float64(float32(x))))
}

// ketamaPoints returns a server's 4·ks points, cached per count.
func (k *Ketama) points(id timeline.NodeID, ks int) []uint32 {
	if c, ok := k.R.cached[id]; ok && c.count == ks {
		return c.pts
	}
	name := k.R.Env.Nodes[id]
	buf := make([]byte, 0, len(name)+8)
	pts := make([]uint32, 0, 4*ks)
	for i := range ks {
		buf = strconv.AppendInt(append(append(buf[:0], name...), '-'), int64(i), 10)
		d := md5.Sum(buf)
		for h := range 4 {
			pts = append(pts, binary.LittleEndian.Uint32(d[4*h:]))
		}
	}
	k.R.cached[id] = ringNode{count: ks, pts: pts}
	return pts
}

func (k *Ketama) Update(st *timeline.State) []string {
	live := placer.LiveList(st)
	total := 0
	for _, m := range live {
		total += m.Weight
	}
	k.R.Live = make([]bool, len(k.R.Env.Nodes))
	var want []placed
	var none, rounded []timeline.NodeID
	for _, m := range live {
		k.R.Live[m.ID] = true
		ks := KetamaCount(m.Weight, total, len(live))
		if ks == 0 {
			none = append(none, m.ID)
		}
		if ks != m.Weight*ketamaHashes*len(live)/total {
			rounded = append(rounded, m.ID)
		}
		want = append(want, placed{m.ID, ks, k.points(m.ID, ks)})
	}
	notes := k.R.place(want)
	if len(none) > 0 {
		notes = append(notes, fmt.Sprintf("ketama: %s weigh too little to get a point (floor(w/Σw·40·n) = 0) and own no keys",
			placer.QuoteNames(k.R.Env.Nodes, none)))
	}
	if len(rounded) > 0 {
		notes = append(notes, fmt.Sprintf("ketama: libketama's single-precision arithmetic gives %d of %d servers "+
			"one hash (4 points) fewer than floor(w/Σw·40·n)", len(rounded), len(live)))
	}
	if st.Op == timeline.OpVNodes {
		notes = append(notes, "ketama: vnodes steps do not apply (libketama fixes 40 hashes × 4 points per server)")
	}
	return notes
}

func (k *Ketama) Assign(lists [][]timeline.NodeID)                    { k.R.Assign(lists) }
func (k *Ketama) Delta(d *placer.Delta) bool                          { return k.R.Delta(d) }
func (k *Ketama) Probe(key string, R int) (uint64, []timeline.NodeID) { return k.R.Probe(key, R) }
func (k *Ketama) Geometry() ([]placer.Arc, []placer.Point)            { return k.R.Geometry() }
func (k *Ketama) Order() []uint32                                     { return k.R.Order() }
