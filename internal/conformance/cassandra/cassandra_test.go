// Package cassandra_test checks profile/cassandra against npm
// cassandra-driver 4.10.0, run offline under node: its Murmur3Tokenizer
// (lib/tokenizer.js) for every key's token, and its token map
// (lib/metadata buildTokens and getReplicas, with the SimpleStrategy and
// NetworkTopologyStrategy mappers of lib/metadata/schema-parser.js) for
// every key's replicas, over the rings profile/cassandra builds.
//
// The driver is a second implementation of Cassandra's placement, not
// Cassandra itself (no Cassandra server runs here: it is on neither
// Debian nor npm). Where the two differ the test says so and checks what
// is shared: the driver hashes the empty key to 0 where Cassandra uses
// Long.MIN_VALUE (so the empty key is asked by token), and when a
// datacenter has fewer racks than its replication factor the driver
// appends the rack repeats after the last new rack, where Cassandra takes
// them where the walk meets them (so there the replica sets and primaries
// are compared, and the order only where no repeat was taken).
package cassandra_test

import (
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/cassandra"
)

//go:embed driver.js
var driverJS []byte

// step is one membership of a story.
type step struct {
	what    string
	servers []profile.Server
}

// story is a sequence of memberships under one set of options, compared
// at r = 1 and at r = wide.
type story struct {
	name  string
	o     cassandra.Options
	wide  int
	exact bool // the driver's full order is Cassandra's (racks ≥ RF everywhere)
	steps []step
}

// driverHost and driverRing are driver.js's input.
type driverHost struct {
	Name   string   `json:"name"`
	DC     string   `json:"dc"`
	Rack   string   `json:"rack"`
	Tokens []string `json:"tokens"`
}

type driverRing struct {
	Hosts    []driverHost      `json:"hosts"`
	Strategy string            `json:"strategy"`
	RF       map[string]string `json:"rf"`
}

type driverOut struct {
	Tokens []string `json:"tokens"`
	Rings  []struct {
		Primary  []string   `json:"primary"`
		Replicas [][]string `json:"replicas"`
	} `json:"rings"`
}

func TestAgainstNodeDriver(t *testing.T) {
	node, modules := lab.NodeModules(t, "cassandra-driver")
	keys := conformanceKeys()
	stories := conformanceStories()

	type built struct {
		st   *story
		step int
		ring *cassandra.Ring
	}
	var plan []built
	var rings []driverRing
	for i := range stories {
		st := &stories[i]
		rule, err := cassandra.New(st.o)
		if err != nil {
			t.Fatal(err)
		}
		var prev profile.Placement
		for j, sp := range st.steps {
			pl, err := rule.Build(sp.servers, prev)
			if err != nil {
				t.Fatalf("%s step %d: %v", st.name, j, err)
			}
			prev = pl
			ring := pl.(*cassandra.Ring)
			plan = append(plan, built{st, j, ring})
			rings = append(rings, toDriver(st.o.Effective(), sp.servers, ring, st.wide))
		}
	}

	out := runDriver(t, node, modules, keys, rings)
	checkTokens(t, keys, out.Tokens)
	rule, _ := cassandra.New(cassandra.Options{})
	hs := make([]uint64, len(keys))
	for i, k := range keys {
		hs[i] = rule.Hash(k)
	}
	for i, b := range plan {
		checkStep(t, b.st, b.step, b.ring, keys, hs, out.Rings[i].Primary, out.Rings[i].Replicas)
	}
}

// toDriver describes a built ring to driver.js: each host with the
// tokens profile/cassandra gave it and the labels it maps to.
func toDriver(o cassandra.Options, servers []profile.Server, ring *cassandra.Ring, wide int) driverRing {
	dr := driverRing{Strategy: o.Strategy, RF: map[string]string{}}
	for i, s := range servers {
		dc, rack := cassandra.Labels(s)
		h := driverHost{Name: s.Name, DC: dc, Rack: rack}
		for _, tk := range ring.Tokens(i) {
			h.Tokens = append(h.Tokens, strconv.FormatInt(tk, 10))
		}
		dr.Hosts = append(dr.Hosts, h)
	}
	if o.Strategy == cassandra.Simple {
		dr.RF["replication_factor"] = strconv.Itoa(wide)
	}
	for dc, n := range o.RF {
		dr.RF[dc] = strconv.Itoa(n)
	}
	return dr
}

// runDriver writes driver.js and its input into the test's folder and runs
// it once under node.
func runDriver(t *testing.T, node, modules string, keys [][]byte, rings []driverRing) driverOut {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "driver.js")
	input := filepath.Join(dir, "input.json")
	hexKeys := make([]string, len(keys))
	for i, k := range keys {
		hexKeys[i] = hex.EncodeToString(k)
	}
	b, err := json.Marshal(map[string]any{"keys": hexKeys, "rings": rings})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, driverJS, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(input, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var out driverOut
	if err := json.Unmarshal([]byte(lab.Run(t, node, script, modules, input)), &out); err != nil {
		t.Fatalf("driver.js output: %v", err)
	}
	if len(out.Tokens) != len(keys) || len(out.Rings) != len(rings) {
		t.Fatalf("driver.js answered %d tokens and %d rings for %d keys and %d rings", len(out.Tokens), len(out.Rings), len(keys), len(rings))
	}
	return out
}

// checkTokens compares every key's token with Murmur3Tokenizer.hash.
func checkTokens(t *testing.T, keys [][]byte, driver []string) {
	t.Helper()
	bad := 0
	for i, k := range keys {
		want, err := strconv.ParseInt(driver[i], 10, 64)
		if err != nil {
			t.Fatalf("driver token %q: %v", driver[i], err)
		}
		got := cassandra.Token(k)
		if len(k) == 0 {
			// The driver hashes the empty buffer (h1 = 0); Cassandra's
			// Murmur3Partitioner.getToken returns MINIMUM for it.
			if want != 0 || got != math.MinInt64 {
				t.Errorf("empty key: driver %d (want 0), ours %d (want Long.MIN_VALUE)", want, got)
			}
			continue
		}
		if got != want {
			if bad++; bad <= 5 {
				t.Errorf("key %x: token %d, driver %d", k, got, want)
			}
		}
	}
	t.Logf("tokens: %d/%d keys agree with Murmur3Tokenizer (the empty key by design: driver 0, Cassandra MIN)", len(keys)-bad, len(keys))
}

// live keeps the replicas among list[:r] that are not down, by name.
func live(list []string, r int, down map[string]bool) []string {
	var out []string
	for _, n := range list[:min(r, len(list))] {
		if !down[n] {
			out = append(out, n)
		}
	}
	return out
}

// checkStep compares Owners at r = 1 and r = st.wide with the driver for
// every key of one step.
func checkStep(t *testing.T, st *story, j int, ring *cassandra.Ring, keys [][]byte, hs []uint64, primary []string, replicas [][]string) {
	t.Helper()
	servers := st.steps[j].servers
	down := map[string]bool{}
	for _, s := range servers {
		down[s.Name] = s.Down
	}
	nameOf := func(idx []int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, servers[i].Name)
		}
		return out
	}
	dst := make([]int, 0, 16)
	var okP, okW, sameOrder, bad int
	for i, k := range keys {
		gotP := nameOf(ring.Owners(hs[i], 1, dst[:0]))
		wantP := live(replicas[i], 1, down)
		if o := ring.Primary(hs[i]); servers[o].Name != primary[i] {
			if bad++; bad <= 5 {
				t.Errorf("%s step %d key %q: token owner %s, driver %s", st.name, j, k, servers[o].Name, primary[i])
			}
		}
		gotW := nameOf(ring.Owners(hs[i], st.wide, dst[:0]))
		wantW := live(replicas[i], st.wide, down)
		pOK := slices.Equal(gotP, wantP)
		wOK := slices.Equal(gotW, wantW)
		if wOK {
			sameOrder++
		}
		if !st.exact && !wOK {
			// Rack repeats: same replicas, the driver's order differs.
			wOK = slices.Equal(sorted(gotW), sorted(wantW))
		}
		if pOK {
			okP++
		}
		if wOK {
			okW++
		}
		if (!pOK || !wOK) && bad < 5 {
			bad++
			t.Errorf("%s step %d (%s) key %q: Owners(h,1)=%v driver %v; Owners(h,%d)=%v driver %v",
				st.name, j, st.steps[j].what, k, gotP, wantP, st.wide, gotW, wantW)
		}
	}
	how := "in order"
	if !st.exact {
		how = fmt.Sprintf("as sets; %d in the driver's order", sameOrder)
	}
	t.Logf("%s step %d (%s): r=1 %d/%d, r=%d %d/%d %s", st.name, j, st.steps[j].what, okP, len(keys), st.wide, okW, len(keys), how)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// conformanceStories are the memberships compared: each adds a node,
// removes one, changes a weight and takes a node down.
func conformanceStories() []story {
	return []story{
		simpleStory(), ntsRackedStory(), ntsFewRacksStory(), ntsOneRackStory(), vnodes256Story(),
	}
}

func simpleStory() story {
	var ss []profile.Server
	for i := 1; i <= 6; i++ {
		ss = append(ss, profile.Server{Name: fmt.Sprintf("10.0.0.%d:9042", i), Weight: 1})
	}
	return story{
		name: "simple rf3", o: cassandra.Options{Seed: 7}, wide: 3, exact: true,
		steps: evolve(ss, profile.Server{Name: "10.0.0.7:9042", Weight: 2}, 2, 0, 4),
	}
}

func ntsRackedStory() story {
	var ss []profile.Server
	for _, z := range []string{"z1", "z2", "z3"} {
		for _, r := range []string{"a", "b", "c"} {
			for n := 1; n <= 2; n++ {
				ss = append(ss, profile.Server{Name: fmt.Sprintf("%s-%s-%d", z, r, n), Weight: 1, Zone: z, Rack: r})
			}
		}
	}
	return story{
		name: "nts 3 dc x 3 racks", wide: 9, exact: true,
		o:     cassandra.Options{Strategy: cassandra.NTS, RF: map[string]int{"z1": 3, "z2": 3, "z3": 3}, Seed: 11},
		steps: evolve(ss, profile.Server{Name: "z1-a-3", Weight: 1, Zone: "z1", Rack: "a"}, 7, 13, 2),
	}
}

// fewRacks lists servers "zone-rack-n" for the given zone/rack counts.
func fewRacks(layout map[string]map[string]int) []profile.Server {
	var ss []profile.Server
	for _, z := range sortedKeys(layout) {
		for _, r := range sortedKeys(layout[z]) {
			for n := 1; n <= layout[z][r]; n++ {
				ss = append(ss, profile.Server{Name: fmt.Sprintf("%s-%s-%d", z, r, n), Weight: 1, Zone: z, Rack: r})
			}
		}
	}
	return ss
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// ntsFewRacksStory has z1 with 2 racks for RF 3 (one acceptable rack
// repeat) and z2, z3 without a factor (never replicas). Only one
// datacenter may need repeats here: the driver keeps one skipped-host list
// for all datacenters and does not dedupe vnodes in it, so with two such
// datacenters (or a repeat count above 1) it counts one datacenter's node
// toward another and can list a node twice — a driver bug, not Cassandra's
// behaviour.
func ntsFewRacksStory() story {
	ss := fewRacks(map[string]map[string]int{"z1": {"a": 3, "b": 1}, "z2": {"x": 3}, "z3": {"a": 2}})
	return story{
		name: "nts fewer racks than rf", wide: 3,
		o:     cassandra.Options{Strategy: cassandra.NTS, RF: map[string]int{"z1": 3}, Seed: 5},
		steps: evolve(ss, profile.Server{Name: "z1-b-2", Weight: 1, Zone: "z1", Rack: "b"}, 1, 0, 2),
	}
}

// ntsOneRackStory has one rack per datacenter, so every replica after the
// first of a datacenter is a rack repeat, taken in walk order by both.
func ntsOneRackStory() story {
	ss := fewRacks(map[string]map[string]int{"z1": {"a": 4}, "z2": {"b": 3}, "z3": {"c": 2}})
	return story{
		name: "nts one rack per dc", wide: 5, exact: true,
		o:     cassandra.Options{Strategy: cassandra.NTS, RF: map[string]int{"z1": 3, "z2": 2}, Seed: 9},
		steps: evolve(ss, profile.Server{Name: "z2-b-4", Weight: 1, Zone: "z2", Rack: "b"}, 4, 0, 5),
	}
}

func vnodes256Story() story {
	var ss []profile.Server
	for i := 1; i <= 4; i++ {
		ss = append(ss, profile.Server{Name: fmt.Sprintf("cass%d", i), Weight: 1, Zone: "dc1", Rack: fmt.Sprintf("rack%d", i%2+1)})
	}
	return story{
		name: "simple 256 vnodes rf2", wide: 2, exact: true,
		o:     cassandra.Options{NumTokens: 256, Seed: 3},
		steps: evolve(ss, profile.Server{Name: "cass5", Weight: 1, Zone: "dc1", Rack: "rack1"}, 0, 1, 2),
	}
}

// evolve returns the five steps of a story: the start, add joiner, remove
// servers[rm], weight servers[heavy] × 3, and servers[fail] down (indexes
// into the original list; rm ≠ heavy ≠ fail).
func evolve(start []profile.Server, joiner profile.Server, rm, heavy, fail int) []step {
	names := func(i int) string { return start[i].Name }
	s0 := slices.Clone(start)
	s1 := append(slices.Clone(s0), joiner)
	s2 := slices.DeleteFunc(slices.Clone(s1), func(s profile.Server) bool { return s.Name == names(rm) })
	s3 := slices.Clone(s2)
	for i := range s3 {
		if s3[i].Name == names(heavy) {
			s3[i].Weight = 3
		}
	}
	s4 := slices.Clone(s3)
	for i := range s4 {
		if s4[i].Name == names(fail) {
			s4[i].Down = true
		}
	}
	return []step{
		{"start", s0}, {"add " + joiner.Name, s1}, {"remove " + names(rm), s2},
		{"weight 3 " + names(heavy), s3}, {"down " + names(fail), s4},
	}
}

// conformanceKeys returns the compared keys, deterministically: the empty
// key, hash-tag and ASCII keys, Unicode text (CJK, emoji, combining marks,
// right-to-left scripts), text of every byte length 1–200, and raw bytes
// (including ≥ 0x80 and invalid UTF-8, as blob partition keys carry).
func conformanceKeys() [][]byte {
	keys := [][]byte{{}}
	add := func(s string) { keys = append(keys, []byte(s)) }
	for i := range 150 {
		add(fmt.Sprintf("{user%d}.x", i))
		add(fmt.Sprintf("key%d", i))
	}
	for _, s := range []string{
		"a", "123", "foo", "9223372036854775807", "日本語", "中文键", "한국어", "😀", "🎉🎊", "👩‍👩‍👧",
		"é", "e\u0301", "a\u0308\u0304", "שלום", "مرحبا", "עברית abc", "\u202eabc", "ℝ∞", "\x00", "\x7f",
	} {
		add(s)
	}
	rng := rand.New(rand.NewPCG(2024, 6))
	pool := []rune("abcXYZ019-_:{}.é日本語中文한국😀🎉\u0301\u0308שלוםمرحبا")
	for n := 1; n <= 200; n++ {
		for range 3 {
			var b []byte
			for len(b) < n {
				r := pool[rng.IntN(len(pool))]
				if len(b)+utf8.RuneLen(r) > n {
					r = rune('a' + rng.IntN(26))
				}
				b = utf8.AppendRune(b, r)
			}
			keys = append(keys, b)
		}
	}
	for range 400 {
		b := make([]byte, rng.IntN(201))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		if rng.IntN(3) == 0 {
			for i := range b {
				b[i] |= 0x80
			}
		}
		keys = append(keys, b)
	}
	return keys
}
