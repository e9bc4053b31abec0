package peers

import (
	"fmt"
	"strconv"
	"testing"

	buraksezer "github.com/buraksezer/consistent"
	"github.com/cespare/xxhash/v2"
	"github.com/dchest/siphash"
	jump "github.com/dgryski/go-jump"
	maglev "github.com/dgryski/go-maglev"
	mpchash "github.com/dgryski/go-mpchash"
	rendezvous "github.com/dgryski/go-rendezvous"
	"github.com/golang/groupcache/consistenthash"
	"github.com/serialx/hashring"
	stathat "github.com/stathat/consistent"

	"github.com/bradfitz/gomemcache/memcache"
)

// The workload of internal/sim's BenchmarkStep: 10⁶ keys, 100 nodes,
// 160 points per node.
const (
	numKeys  = 1_000_000
	numNodes = 100
	vnodes   = 160
	probes   = 21 // multi-probe: the paper's and ringreport's default
)

var (
	keys      = makeNames("key-", numKeys)
	keyHashes = hashAll(keys)
	nodes     = makeNames("node-", numNodes)
)

func makeNames(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i+1)
	}
	return out
}

func hashAll(ks []string) []uint64 {
	out := make([]uint64, len(ks))
	for i, k := range ks {
		out[i] = xxhash.Sum64String(k)
	}
	return out
}

// sink keeps lookups from being optimized away.
var sink int

// run times f over every key and reports ns/key.
func run(b *testing.B, name string, f func(i int) int) {
	b.Run(fmt.Sprintf("lib=%s/keys=1e6/nodes=%d/vnodes=%d", name, numNodes, vnodes), func(b *testing.B) {
		s := 0
		for b.Loop() {
			for i := range keys {
				s += f(i)
			}
		}
		sink = s
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/numKeys, "ns/key")
	})
}

// BenchmarkPeers places every key once with each library. Libraries that
// take a string hash it themselves (their own hash); jump, rendezvous and
// maglev take a 64-bit hash, xxhash64 of the key, computed in the loop.
func BenchmarkPeers(b *testing.B) {
	gc := consistenthash.New(vnodes, nil)
	gc.Add(nodes...)
	run(b, "groupcache", func(i int) int { return len(gc.Get(keys[i])) })

	st := stathat.New()
	st.NumberOfReplicas = vnodes
	for _, n := range nodes {
		st.Add(n)
	}
	run(b, "stathat", func(i int) int { s, _ := st.Get(keys[i]); return len(s) })

	hr := hashring.New(nodes)
	run(b, "serialx", func(i int) int { s, _ := hr.GetNode(keys[i]); return len(s) })

	members := make([]buraksezer.Member, len(nodes))
	for i, n := range nodes {
		members[i] = member(n)
	}
	bc := buraksezer.New(members, buraksezer.Config{PartitionCount: 7919, ReplicationFactor: vnodes, Load: 1.25, Hasher: xxHasher{}})
	run(b, "buraksezer", func(i int) int { return len(bc.LocateKey([]byte(keys[i])).String()) })

	run(b, "go-jump", func(i int) int { return int(jump.Hash(xxhash.Sum64String(keys[i]), numNodes)) })

	rv := rendezvous.New(nodes, xxhash.Sum64String)
	run(b, "go-rendezvous", func(i int) int { return len(rv.Lookup(keys[i])) })

	// Modulo: gomemcache's ServerList picks server crc32(key) mod n, the
	// modulo rule as a library ships it; "modulo-xxhash" is the loop a
	// program writes itself, xxhash64(key) mod n, and no library.
	var sl memcache.ServerList
	if err := sl.SetServers(serverAddrs(numNodes)...); err != nil {
		b.Fatal(err)
	}
	run(b, "gomemcache", func(i int) int { a, _ := sl.PickServer(keys[i]); return len(a.String()) })
	n := uint64(len(nodes)) // a variable, as in a program: no division by a constant
	run(b, "modulo-xxhash", func(i int) int { return int(xxhash.Sum64String(keys[i]) % n) })

	mg := maglev.New(nodes, 65537)
	run(b, "go-maglev", func(i int) int { return mg.Lookup(xxhash.Sum64String(keys[i])) })
	run(b, "go-maglev-prehashed", func(i int) int { return mg.Lookup(keyHashes[i]) })

	// Multi-probe consistent hashing, one point per node as in the paper
	// and in ringreport's multiprobe, 21 probes from two seeded hashes of
	// the key: seeded xxhash64 (the fastest seeded hash here), and
	// SipHash as in the library's own tests.
	xd := xxhash.New()
	xxSeeded := func(b []byte, s uint64) uint64 {
		xd.ResetWithSeed(s)
		xd.Write(b)
		return xd.Sum64()
	}
	mx := mpchash.New(nodes, xxSeeded, [2]uint64{1, 2}, probes)
	run(b, "go-mpchash", func(i int) int { return len(mx.Hash(keys[i])) })
	ms := mpchash.New(nodes, func(b []byte, s uint64) uint64 { return siphash.Hash(s, 0, b) }, [2]uint64{1, 2}, probes)
	run(b, "go-mpchash-siphash", func(i int) int { return len(ms.Hash(keys[i])) })
}

// BenchmarkPeerSteps times what the membership step itself costs a
// library that precomputes an assignment: buraksezer/consistent, the
// bounded-loads peer, redistributes its partitions on every Add and
// Remove. One loop adds a node and removes it again, as ringreport's
// BenchmarkStep does; ns/key is per step and key of the 10⁶-key workload,
// to be added to the per-key LocateKey cost of BenchmarkPeers.
func BenchmarkPeerSteps(b *testing.B) {
	members := make([]buraksezer.Member, len(nodes))
	for i, n := range nodes {
		members[i] = member(n)
	}
	bc := buraksezer.New(members, buraksezer.Config{PartitionCount: 7919, ReplicationFactor: vnodes, Load: 1.25, Hasher: xxHasher{}})
	// Not "node-101": the library names points "%s%d" without a
	// separator, so "node-101" point 0 is "node-10" point 10, and removing
	// it would delete node-10's point (its issue #17).
	extra := member("extra")
	b.Run(fmt.Sprintf("lib=buraksezer-rebuild/keys=1e6/nodes=%d/vnodes=%d", numNodes, vnodes), func(b *testing.B) {
		for b.Loop() {
			bc.Add(extra)
			bc.Remove(extra.String())
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/numKeys/2, "ns/key")
	})
}

// serverAddrs returns n literal TCP addresses, which ServerList takes
// without a name lookup.
func serverAddrs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("10.0.%d.%d:11211", i/250, i%250+1)
	}
	return out
}

type member string

func (m member) String() string { return string(m) }

type xxHasher struct{}

func (xxHasher) Sum64(b []byte) uint64 { return xxhash.Sum64(b) }

// BenchmarkGroupcacheNodes is the yardstick of bench/scale.sh: groupcache's
// Get over the same 10⁶ keys at 10 to 10⁴ nodes of 160 points, since a
// Get's binary search grows with log(nodes × points). ns/key is one Get.
func BenchmarkGroupcacheNodes(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		gc := consistenthash.New(vnodes, nil)
		gc.Add(makeNames("node-", n)...)
		b.Run(fmt.Sprintf("lib=groupcache/keys=1e6/nodes=%d/vnodes=%d", n, vnodes), func(b *testing.B) {
			s := 0
			for b.Loop() {
				for i := range keys {
					s += len(gc.Get(keys[i]))
				}
			}
			sink = s
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/numKeys, "ns/key")
		})
	}
}
