// Package libmemcached_test checks profile/libmemcached against the
// libmemcached installed on this machine (Debian libmemcached-dev 1.1.4):
// a small C program (testdata/lookup.c), built once into lab.Compile's
// cache, adds each step's servers to a fresh memcached_st with the same
// behaviours and prints memcached_generate_hash's server for every key,
// for every step of every story in one process. No memcached
// server runs and no connection is made: lookups need none.
package libmemcached_test

import (
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/libmemcached"
)

// hashEnum is libhashkit's hashkit_hash_algorithm_t value of each hash.
var hashEnum = map[string]int{
	"one-at-a-time": 0, "md5": 1, "crc": 2, "fnv1-64": 3, "fnv1a-64": 4,
	"fnv1-32": 5, "fnv1a-32": 6, "murmur": 8, "jenkins": 9, "murmur3": 10,
}

// buildLookup compiles testdata/lookup.c against the installed
// libmemcached, once: lab.Compile keeps it in its cache.
func buildLookup(t *testing.T) string {
	t.Helper()
	gcc := lab.Need(t, "gcc", "gcc")
	pc := lab.Need(t, "pkg-config", "pkg-config")
	if err := exec.Command(pc, "--exists", "libmemcached").Run(); err != nil {
		msg := "pkg-config finds no libmemcached; install Debian package libmemcached-dev"
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (CI=true: .ci/run must install it)", msg)
		}
		t.Skip(msg)
	}
	if v := strings.TrimSpace(lab.Run(t, pc, "--modversion", "libmemcached")); v != "1.1.4" {
		t.Logf("libmemcached %s installed; the profile reproduces 1.1.4", v)
	}
	flags := strings.Fields(lab.Run(t, pc, "--cflags", "--libs", "libmemcached"))
	src, err := os.ReadFile(filepath.Join("testdata", "lookup.c"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := lab.Compile(t, gcc, "lookup.c", src, append(append([]string{"-O1", "-Wall"}, flags...), "-lhashkit")...)
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// testKeys returns the deterministic key set: ASCII, hash tags, CJK,
// emoji, combining marks, right-to-left text, every single byte, raw
// random bytes (NUL, 0x80–0xff, spaces, newlines), the empty key, and
// lengths from 1 to 200 bytes. libmemcached's lookup takes any bytes, so
// none is skipped.
func testKeys() [][]byte {
	var keys [][]byte
	add := func(s string) { keys = append(keys, []byte(s)) }
	add("")
	for i := range 256 {
		keys = append(keys, []byte{byte(i)})
	}
	words := []string{"user", "用户", "キー", "🔑", "👍🏽", "e\u0301", "n\u0303o", "مفتاح", "שלום", "ключ", "Ω≈ç√", "a b\tc\n"}
	for i := range 300 {
		w := words[i%len(words)]
		switch i % 5 {
		case 0:
			add(fmt.Sprintf("key:%d", i))
		case 1:
			add(fmt.Sprintf("{user%d}.x", i))
		case 2:
			add(fmt.Sprintf("%s%d", w, i))
		case 3:
			add(fmt.Sprintf("session:{%s}:%d", w, i*7919))
		default:
			add(fmt.Sprintf("%s/%s/%d", w, words[(i+5)%len(words)], i))
		}
	}
	long := strings.Repeat("κλειδί-用户-🔑-مفتاح-", 20)
	for n := 1; n <= 200; n++ {
		add(long[:n]) // may cut a UTF-8 sequence: bytes are bytes here
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 400 {
		b := make([]byte, 1+rng.IntN(200))
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		keys = append(keys, b)
	}
	return keys
}

// step is one membership of a story.
type step struct {
	what    string
	servers []profile.Server
}

// story is a sequence of memberships under one set of options.
type story struct {
	name  string
	opt   libmemcached.Options
	steps []step
}

func srv(name string, w int) profile.Server { return profile.Server{Name: name, Weight: w} }

func down(s profile.Server) profile.Server { s.Down = true; return s }

// classic is the 4-server story on a port: weights 2,1,3,1, add a 5th of
// weight 2, remove the 2nd, change the 3rd's weight, fail the 1st, recover.
func classic(port string) []step {
	n := func(i int) string { return fmt.Sprintf("10.0.0.%d%s", i, port) }
	return []step{
		{"start 2,1,3,1", []profile.Server{srv(n(1), 2), srv(n(2), 1), srv(n(3), 3), srv(n(4), 1)}},
		{"add .5 weight 2", []profile.Server{srv(n(1), 2), srv(n(2), 1), srv(n(3), 3), srv(n(4), 1), srv(n(5), 2)}},
		{"remove .2", []profile.Server{srv(n(1), 2), srv(n(3), 3), srv(n(4), 1), srv(n(5), 2)}},
		{"weight .3 3→5", []profile.Server{srv(n(1), 2), srv(n(3), 5), srv(n(4), 1), srv(n(5), 2)}},
		{"fail .1 (auto-eject)", []profile.Server{down(srv(n(1), 2)), srv(n(3), 5), srv(n(4), 1), srv(n(5), 2)}},
		{"recover .1", []profile.Server{srv(n(1), 2), srv(n(3), 5), srv(n(4), 1), srv(n(5), 2)}},
	}
}

// equal returns n servers of weight 1 named by host only.
func equal(n int) []profile.Server {
	s := make([]profile.Server, n)
	for i := range s {
		s[i] = srv(fmt.Sprintf("10.1.%d.%d", i/200, i%200+1), 1)
	}
	return s
}

func stories() []story {
	eq100 := equal(100)
	eq100[37].Down = true
	ketamaSteps := []step{
		{"start 4 equal", []profile.Server{srv("cache-a", 1), srv("cache-b", 1), srv("cache-c:11212", 1), srv("cache-d", 1)}},
		{"add cache-e", []profile.Server{srv("cache-a", 1), srv("cache-b", 1), srv("cache-c:11212", 1), srv("cache-d", 1), srv("cache-e", 1)}},
		{"remove cache-b", []profile.Server{srv("cache-a", 1), srv("cache-c:11212", 1), srv("cache-d", 1), srv("cache-e", 1)}},
		{"fail cache-a", []profile.Server{down(srv("cache-a", 1)), srv("cache-c:11212", 1), srv("cache-d", 1), srv("cache-e", 1)}},
		{"weight cache-d 1→2 (turns weighted on)", []profile.Server{srv("cache-a", 1), srv("cache-c:11212", 1), srv("cache-d", 2), srv("cache-e", 1)}},
	}
	st := []story{
		{"weighted port 11211", libmemcached.Options{}, classic(":11211")},
		{"weighted host only", libmemcached.Options{}, classic("")},
		{"weighted port 11212", libmemcached.Options{}, classic(":11212")},
		{"weighted equal n", libmemcached.Options{}, []step{
			{"25 equal", equal(25)}, {"61 equal", equal(61)}, {"100 equal", equal(100)}, {"100, one failed", eq100},
		}},
		{"ketama (unweighted)", libmemcached.Options{Mode: libmemcached.ModeKetama}, ketamaSteps},
		{"ketama md5", libmemcached.Options{Mode: libmemcached.ModeKetama, Hash: "md5"}, ketamaSteps},
		{"spy", libmemcached.Options{Mode: libmemcached.ModeSpy}, classic(":11211")},
		{"spy equal 61", libmemcached.Options{Mode: libmemcached.ModeSpy}, []step{{"61 equal", equal(61)}}},
		{"sort_hosts", libmemcached.Options{SortHosts: true}, []step{
			{"unsorted", []profile.Server{srv("cache-b:11212", 2), srv("cache-a:11213", 1), srv("cache-a:11212", 3), srv("10.0.0.9", 1)}},
			{"fail cache-a:11212", []profile.Server{srv("cache-b:11212", 2), srv("cache-a:11213", 1), down(srv("cache-a:11212", 3)), srv("10.0.0.9", 1)}},
		}},
		{"namespace", libmemcached.Options{Namespace: "app:v2:"}, classic(":11211")[:2]},
		{"ties and names", libmemcached.Options{}, []step{
			{"duplicates", []profile.Server{srv("b", 1), srv("a", 2), srv("b:11211", 1), srv("[::1]:11300", 1), srv("::1", 1)}},
			{"one server", []profile.Server{srv("only:11300", 5)}},
		}},
	}
	for _, h := range []string{"one-at-a-time", "crc", "fnv1-64", "fnv1a-64", "fnv1-32", "fnv1a-32", "murmur", "jenkins", "murmur3"} {
		st = append(st, story{"ketama " + h, libmemcached.Options{Mode: libmemcached.ModeKetama, Hash: h}, ketamaSteps[2:4]})
		st = append(st, story{"weighted " + h, libmemcached.Options{Hash: h}, classic(":11212")[1:2]})
	}
	return st
}

// spec writes the lookup program's specification of one step.
func spec(t *testing.T, dir string, opt libmemcached.Options, servers []profile.Server) string {
	t.Helper()
	var b strings.Builder
	e := opt.Effective()
	fmt.Fprintf(&b, "mode %s\n", e.Mode)
	if opt.Hash != "" {
		fmt.Fprintf(&b, "hash %d\n", hashEnum[opt.Hash])
	}
	if opt.SortHosts {
		b.WriteString("sort 1\n")
	}
	if opt.Namespace != "" {
		fmt.Fprintf(&b, "ns %s\n", opt.Namespace)
	}
	for _, s := range servers {
		host, port, err := libmemcached.ParseName(s.Name)
		if err != nil {
			t.Fatal(err)
		}
		d := 0
		if s.Down {
			d = 1
		}
		fmt.Fprintf(&b, "server %s %d %d %d\n", host, port, s.Weight, d)
	}
	return writeTemp(t, dir, "spec-*.txt", b.String())
}

// keyFile writes the lookup program's key file: one key a line, as hex,
// "-" for the empty key.
func keyFile(t *testing.T, dir string, keys [][]byte) string {
	t.Helper()
	var b strings.Builder
	for _, k := range keys {
		if len(k) == 0 {
			b.WriteString("-\n")
		} else {
			b.WriteString(hex.EncodeToString(k))
			b.WriteByte('\n')
		}
	}
	return writeTemp(t, dir, "keys-*.txt", b.String())
}

// writeTemp writes content to a new file in dir and returns its path.
func writeTemp(t *testing.T, dir, pattern, content string) string {
	t.Helper()
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	return f.Name()
}

// answer is what libmemcached said for one step.
type answer struct {
	owner  []int    // per key, index into the step's servers
	digest []uint32 // per key, the bare key's hash
}

// query is one step of one story, asked of libmemcached.
type query struct {
	opt     libmemcached.Options
	servers []profile.Server
}

// askAll runs the lookup program once over every query and returns
// libmemcached's answer to each, its server positions mapped back to the
// query's server indexes by host and port.
func askAll(t *testing.T, bin string, qs []query, keys [][]byte) []answer {
	t.Helper()
	dir := t.TempDir()
	args := []string{keyFile(t, dir, keys)}
	for _, q := range qs {
		args = append(args, spec(t, dir, q.opt, q.servers))
	}
	out := strings.Split(lab.Run(t, bin, args...), "\n")
	// Each query's answer: "spec I", a list line per server, a key line per key.
	answers := make([]answer, len(qs))
	for i, q := range qs {
		if len(out) == 0 || out[0] != fmt.Sprintf("spec %d", i) {
			t.Fatalf("lookup's answer %d does not begin with spec %d: %.80q", i, i, out)
		}
		out = out[1:]
		var n int
		answers[i], n = parseAnswer(t, out, q.opt, q.servers, len(keys))
		out = out[n:]
	}
	if len(out) != 1 || out[0] != "" {
		t.Fatalf("lookup printed more than %d answers: %.80q", len(qs), out)
	}
	return answers
}

// parseAnswer reads one query's list and key lines from lines and returns
// the answer and how many lines it read.
func parseAnswer(t *testing.T, lines []string, opt libmemcached.Options, servers []profile.Server, nkeys int) (answer, int) {
	t.Helper()
	byHost := map[string]int{}
	for i := len(servers) - 1; i >= 0; i-- {
		host, port, _ := libmemcached.ParseName(servers[i].Name)
		byHost[host+" "+strconv.Itoa(port)] = i // the first of duplicates wins
	}
	var posToIndex []int
	var a answer
	n := 0
	for ; n < len(lines) && len(a.owner) < nkeys; n++ {
		f := strings.Fields(lines[n])
		switch {
		case len(f) == 4 && f[0] == "list" && len(a.owner) == 0:
			i, ok := byHost[f[2]+" "+f[3]]
			if !opt.SortHosts {
				i, ok = len(posToIndex), len(posToIndex) < len(servers)
			}
			if !ok {
				t.Fatalf("libmemcached lists unknown server %s:%s", f[2], f[3])
			}
			posToIndex = append(posToIndex, i)
		case len(f) == 3 && f[0] == "key":
			pos, _ := strconv.Atoi(f[1])
			d, _ := strconv.ParseUint(f[2], 10, 32)
			if pos >= len(posToIndex) {
				t.Fatalf("libmemcached picked position %d of %d", pos, len(posToIndex))
			}
			a.owner = append(a.owner, posToIndex[pos])
			a.digest = append(a.digest, uint32(d))
		default:
			t.Fatalf("lookup printed %q", lines[n])
		}
	}
	if len(a.owner) != nkeys {
		t.Fatalf("libmemcached answered %d of %d keys", len(a.owner), nkeys)
	}
	return a, n
}

// TestConformance compares, for every key of every step of every story,
// libmemcached's server with Placement.Owners(h, 1), and libhashkit's key
// hash with the package's. One lookup process answers every step.
func TestConformance(t *testing.T) {
	bin := buildLookup(t)
	keys := testKeys()
	sts := stories()
	var qs []query
	for _, st := range sts {
		for _, sp := range st.steps {
			qs = append(qs, query{st.opt, sp.servers})
		}
	}
	answers := askAll(t, bin, qs, keys)
	for _, st := range sts {
		mine := answers[:len(st.steps)]
		answers = answers[len(st.steps):]
		t.Run(st.name, func(t *testing.T) {
			rule, err := libmemcached.New(st.opt)
			if err != nil {
				t.Fatal(err)
			}
			keyHash, _ := libmemcached.HashByName(st.opt.Effective().Hash)
			for si, sp := range st.steps {
				real := mine[si]
				p, err := rule.Build(sp.servers, nil)
				if err != nil {
					t.Fatal(err)
				}
				agree, hashes := 0, 0
				var bad []string
				for i, k := range keys {
					if keyHash(k) == real.digest[i] {
						hashes++
					}
					got := p.Owners(rule.Hash(k), 1, nil)
					if len(got) == 1 && got[0] == real.owner[i] {
						agree++
					} else if len(bad) < 5 {
						bad = append(bad, fmt.Sprintf("%q: libmemcached %s, profile %v", k, sp.servers[real.owner[i]].Name, got))
					}
				}
				t.Logf("%s: %d/%d owners agree, %d/%d key hashes", sp.what, agree, len(keys), hashes, len(keys))
				if agree != len(keys) || hashes != len(keys) {
					t.Errorf("%s: %d/%d owners, %d/%d key hashes agree; first mismatches:\n  %s",
						sp.what, agree, len(keys), hashes, len(keys), strings.Join(bad, "\n  "))
				}
			}
		})
	}
}
