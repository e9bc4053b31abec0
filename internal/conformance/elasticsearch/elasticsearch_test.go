// Package elasticsearch_test checks internal/profile/elasticsearch where a
// real reference exists on this machine. Elasticsearch itself is in neither
// Debian nor npm, so the test splits Murmur3HashFunction.hash in two: the
// JDK (openjdk-17) turns every key into a Java String and gives its chars
// as UTF-16LE bytes, exactly the bytes Murmur3HashFunction hashes, and
// github.com/spaolacci/murmur3 v1.1.0 (test-only) hashes them with
// murmur3_x86_32, seed 0, as Lucene's StringHelper does. The shard is then
// IndexRouting.hashToShardId of that hash; the membership stories check
// that Owners(h, 1) is the primary of that shard under ringreport's
// allocation rule.
//
// Keys that are not valid UTF-8 are skipped: Elasticsearch takes routing
// values and ids inside JSON, which must be valid UTF-8, and Java's
// decoder replaces malformed bytes differently from Go's (one U+FFFD per
// maximal subpart, against Go's one per byte), so those keys have no
// Elasticsearch answer to compare with.
package elasticsearch_test

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spaolacci/murmur3"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	es "github.com/ringreport/ringreport/internal/profile/elasticsearch"
)

const nKeys = 1800

// validKeys returns the generated keys that are valid UTF-8 (see the
// package doc), at least 1,000 of them.
func validKeys(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, k := range lab.Keys(nKeys) {
		if utf8.Valid(k) {
			out = append(out, k)
		}
	}
	if len(out) < 1000 {
		t.Fatalf("only %d valid UTF-8 keys", len(out))
	}
	return out
}

// javaProgram reads hex-encoded UTF-8 keys, one a line, decodes each as
// Java does (new String(bytes, UTF_8)) and prints its chars as hex
// UTF-16LE.
const javaProgram = `
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

public class Utf16 {
    public static void main(String[] args) throws Exception {
        HexFormat hex = HexFormat.of();
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String key = new String(hex.parseHex(line), StandardCharsets.UTF_8);
            byte[] b = new byte[key.length() * 2];
            for (int i = 0; i < key.length(); i++) {
                char c = key.charAt(i);
                b[2 * i] = (byte) c;
                b[2 * i + 1] = (byte) (c >>> 8);
            }
            out.append(hex.formatHex(b)).append('\n');
        }
        System.out.print(out);
    }
}
`

// javaUTF16 returns each key's chars as Java sees them, as UTF-16LE bytes.
// The class is compiled once into the cache lab.Cached keeps (javac costs
// ten times what running the class does).
func javaUTF16(t *testing.T, ks [][]byte) [][]byte {
	t.Helper()
	java := lab.Need(t, "java", "openjdk-17-jdk-headless")
	javac := lab.Need(t, "javac", "openjdk-17-jdk-headless")
	classes, err := lab.Cached(t, javac, []string{javaProgram}, "Utf16.class", func(dir string) error {
		src := filepath.Join(dir, "Utf16.java")
		if err := os.WriteFile(src, []byte(javaProgram), 0o644); err != nil {
			return err
		}
		if out, err := exec.Command(javac, "-d", dir, src).CombinedOutput(); err != nil {
			return fmt.Errorf("javac: %v\n%s", err, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var in strings.Builder
	for _, k := range ks {
		in.WriteString(hex.EncodeToString(k))
		in.WriteByte('\n')
	}
	keysFile := filepath.Join(t.TempDir(), "keys.hex")
	if err := os.WriteFile(keysFile, []byte(in.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := lab.Run(t, java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", classes, "Utf16", keysFile)
	lines := strings.Split(out, "\n")
	if len(lines) != len(ks)+1 || lines[len(ks)] != "" {
		t.Fatalf("java printed %d lines for %d keys", len(lines)-1, len(ks))
	}
	res := make([][]byte, len(ks))
	for i := range ks {
		b, err := hex.DecodeString(lines[i])
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		res[i] = b
	}
	return res
}

// referenceHashes are Murmur3HashFunction.hash of every key of validKeys,
// from the JDK's chars and spaolacci's murmur3, computed once for both
// tests (they compare the same keys).
func referenceHashes(t *testing.T, ks [][]byte) []uint32 {
	t.Helper()
	return refHashes.Get(t, func() []uint32 {
		u := javaUTF16(t, ks)
		hs := make([]uint32, len(ks))
		for i, b := range u {
			hs[i] = murmur3.Sum32WithSeed(b, 0)
		}
		return hs
	})
}

// refHashes holds referenceHashes for the test binary.
var refHashes lab.Memo[[]uint32]

func TestRoutingHashAndShards(t *testing.T) {
	ks := validKeys(t)
	ref := referenceHashes(t, ks)
	bad := 0
	shardCounts := []int{1, 2, 3, 5, 12, 30, 1024}
	for i, k := range ks {
		got := es.RoutingHash(k)
		if got != ref[i] {
			if bad < 5 {
				t.Errorf("key %q (hex %x): reference hash %#x, ringreport %#x", k, k, ref[i], got)
			}
			bad++
			continue
		}
		for _, n := range shardCounts {
			rns := es.CalculateNumRoutingShards(n)
			r, err := es.New(es.Options{Shards: n})
			if err != nil {
				t.Fatal(err)
			}
			want := int(((int64(int32(ref[i])) % int64(rns)) + int64(rns)) % int64(rns) / int64(rns/n))
			if s := r.(*es.Rule).Shard(uint64(got)); s != want {
				t.Fatalf("key %q, %d shards: shard %d, want %d", k, n, s, want)
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d routing hashes differ", bad, len(ks))
	}
	t.Logf("%d/%d routing hashes agree; shards agree at %v", len(ks), len(ks), shardCounts)
}

// TestStories replays membership changes and a split, checking for every
// key that Owners(h, 1) is the primary of the shard the reference hash
// routes to.
func TestStories(t *testing.T) {
	ks := validKeys(t)
	ref := referenceHashes(t, ks)
	s := func(name string, w int) profile.Server { return profile.Server{Name: name, Weight: w} }
	steps := []struct {
		name    string
		shards  int
		servers []profile.Server
	}{
		{"start a b c", 6, []profile.Server{s("a", 1), s("b", 1), s("c", 1)}},
		{"add d", 6, []profile.Server{s("a", 1), s("b", 1), s("c", 1), s("d", 1)}},
		{"remove b", 6, []profile.Server{s("a", 1), s("c", 1), s("d", 1)}},
		{"weight c=3", 6, []profile.Server{s("a", 1), s("c", 3), s("d", 1)}},
		{"d down", 6, []profile.Server{s("a", 1), s("c", 3), {Name: "d", Weight: 1, Down: true}}},
		{"split to 12", 12, []profile.Server{s("a", 1), s("c", 3), s("d", 1)}},
	}
	opts := es.Options{Shards: 6}
	var prev profile.Placement
	for _, st := range steps {
		if st.shards != opts.Shards {
			var err error
			if opts, err = es.Resize(opts, st.shards); err != nil {
				t.Fatal(err)
			}
		}
		r, err := es.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		rule := r.(*es.Rule)
		pl, err := rule.Build(st.servers, prev)
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		prev = pl
		ep := pl.(*es.Placement)
		eff := rule.Options()
		agree := 0
		for i, k := range ks {
			shard := es.Shard(uint64(ref[i]), eff.Shards, eff.RoutingNumShards)
			primary := ep.Copies(shard)[0]
			got := pl.Owners(rule.Hash(k), 1, nil)
			if len(got) == 1 && st.servers[got[0]].Name == primary {
				agree++
			} else if i-agree < 5 {
				t.Errorf("%s: key %q: primary of shard %d is %s, Owners %v", st.name, k, shard, primary, got)
			}
		}
		if agree != len(ks) {
			t.Fatalf("%s: %d of %d keys agree", st.name, agree, len(ks))
		}
		t.Logf("%s (%d shards, routing_num_shards %d): %d/%d keys agree", st.name, eff.Shards, eff.RoutingNumShards, agree, len(ks))
	}
}
