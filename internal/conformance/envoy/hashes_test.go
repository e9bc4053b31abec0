package envoy_test

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cespare/xxhash/v2"
	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile/envoy"
)

// murmurProgram prints std::_Hash_bytes(key, len, seed) — libstdc++'s own
// function, which Envoy's murmur_hash_2 reproduces — for each hex-encoded
// key line of argv[1], with the seeds given after it.
const murmurProgram = `#include <bits/hash_bytes.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// Reads one hex-encoded key per line of argv[1]; prints one hash per seed.
int main(int argc, char** argv) {
  FILE* in = std::fopen(argv[1], "r");
  static char line[1 << 16];
  static char key[1 << 15];
  while (std::fgets(line, sizeof line, in)) {
    size_t n = 0;
    for (char* p = line; p[0] && p[1] && p[0] != '\n'; p += 2) {
      char hex[3] = {p[0], p[1], 0};
      key[n++] = (char)std::strtoul(hex, nullptr, 16);
    }
    for (int s = 2; s < argc; s++)
      std::printf(s > 2 ? " %zu" : "%zu", std::_Hash_bytes(key, n, std::strtoul(argv[s], nullptr, 0)));
    std::printf("\n");
  }
}
`

// xxhProgram prints XXH64(key, len, seed) from Debian's libxxhash (the
// xxHash library Envoy and gRPC vendor) for each hex-encoded key line of
// argv[1], with the seeds given after it. The prototype is declared here so
// that only the runtime package libxxhash0 is needed.
const xxhProgram = `#include <cstdio>
#include <cstdlib>

extern "C" unsigned long long XXH64(const void* input, size_t length, unsigned long long seed);

// Reads one hex-encoded key per line of argv[1]; prints one hash per seed.
int main(int argc, char** argv) {
  FILE* in = std::fopen(argv[1], "r");
  static char line[1 << 16];
  static char key[1 << 15];
  while (std::fgets(line, sizeof line, in)) {
    size_t n = 0;
    for (char* p = line; p[0] && p[1] && p[0] != '\n'; p += 2) {
      char hex[3] = {p[0], p[1], 0};
      key[n++] = (char)std::strtoul(hex, nullptr, 16);
    }
    for (int s = 2; s < argc; s++)
      std::printf(s > 2 ? " %llu" : "%llu", XXH64(key, n, std::strtoull(argv[s], nullptr, 0)));
    std::printf("\n");
  }
}
`

// needOrSkip fails the test under CI=true, where .ci/run installs every
// tool, and skips it elsewhere, as lab.Need does for binaries.
func needOrSkip(t *testing.T, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: .ci/run must install it)", msg)
	}
	t.Skip(msg)
}

// compileCxx compiles src with g++ (once: lab.Compile keeps the program
// in its cache) and returns the binary; extra are linker arguments. A
// failed link against a missing library skips (or, under CI, fails) the
// test.
func compileCxx(t *testing.T, name, src string, extra ...string) string {
	t.Helper()
	gxx := lab.Need(t, "g++", "g++")
	bin, err := lab.Compile(t, gxx, name+".cc", []byte(src), append([]string{"-O1", "-std=c++17"}, extra...)...)
	if err != nil {
		if len(extra) > 0 && strings.Contains(err.Error(), "cannot find") {
			needOrSkip(t, "g++ cannot link %v (install Debian package libxxhash0): %v", extra, err)
		}
		t.Fatal(err)
	}
	return bin
}

// writeHexKeys writes one hex-encoded key per line into the test's
// temporary folder and returns the file.
func writeHexKeys(t *testing.T, keys [][]byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.hex")
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(hex.EncodeToString(k))
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runHashes runs a compiled hash program over keys with seeds and returns
// its answers, one row of len(seeds) values per key.
func runHashes(t *testing.T, bin string, keys [][]byte, seeds ...uint64) [][]uint64 {
	t.Helper()
	args := []string{writeHexKeys(t, keys)}
	for _, s := range seeds {
		args = append(args, strconv.FormatUint(s, 10))
	}
	out := lab.Run(t, bin, args...)
	var rows [][]uint64
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var row []uint64
		for _, f := range strings.Fields(sc.Text()) {
			v, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatalf("bad output line %q: %v", sc.Text(), err)
			}
			row = append(row, v)
		}
		if len(row) != len(seeds) {
			t.Fatalf("output line %q has %d values, want %d", sc.Text(), len(row), len(seeds))
		}
		rows = append(rows, row)
	}
	if len(rows) != len(keys) {
		t.Fatalf("program answered %d keys, want %d", len(rows), len(keys))
	}
	return rows
}

// reportMismatches fails the test with the first few keys whose hashes
// differ.
func reportMismatches(t *testing.T, what string, keys [][]byte, got func(i int) uint64, want func(i int) uint64) {
	t.Helper()
	bad := 0
	for i := range keys {
		if g, w := got(i), want(i); g != w {
			if bad < 5 {
				t.Errorf("%s of %q: ringreport %d, reference %d", what, keys[i], g, w)
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%s: %d of %d keys differ", what, bad, len(keys))
	}
	t.Logf("%s: %d of %d keys agree", what, len(keys), len(keys))
}

// TestMurmurHash2AgainstLibstdcxx checks envoy.MurmurHash2 against
// libstdc++'s std::_Hash_bytes, compiled here with g++, over varied keys
// with Envoy's seed and two others.
func TestMurmurHash2AgainstLibstdcxx(t *testing.T) {
	bin := compileCxx(t, "murmur", murmurProgram)
	keys := variedKeys(1200)
	seeds := []uint64{envoy.MurmurSeed, 0, 0xffffffffffffffff}
	rows := runHashes(t, bin, keys, seeds...)
	for si, seed := range seeds {
		reportMismatches(t, fmt.Sprintf("_Hash_bytes seed %#x", seed), keys,
			func(i int) uint64 { return envoy.MurmurHash2(keys[i], seed) },
			func(i int) uint64 { return rows[i][si] })
	}
}

// TestXXH64AgainstLibxxhash checks envoy.XXH64 (which rides on
// cespare/xxhash/v2) against Debian's libxxhash, compiled against here with
// g++, and against cespare/xxhash/v2 directly, for seeds 0 (ring points,
// maglev offsets, request hashes) and 1 (maglev skips).
func TestXXH64AgainstLibxxhash(t *testing.T) {
	bin := compileCxx(t, "xxh", xxhProgram, "-l:libxxhash.so.0")
	keys := variedKeys(1200)
	seeds := []uint64{0, 1}
	rows := runHashes(t, bin, keys, seeds...)
	for si, seed := range seeds {
		reportMismatches(t, fmt.Sprintf("XXH64 seed %d vs libxxhash", seed), keys,
			func(i int) uint64 { return envoy.XXH64(keys[i], seed) },
			func(i int) uint64 { return rows[i][si] })
		reportMismatches(t, fmt.Sprintf("XXH64 seed %d vs cespare/xxhash", seed), keys,
			func(i int) uint64 { return envoy.XXH64(keys[i], seed) },
			func(i int) uint64 {
				d := xxhash.NewWithSeed(seed)
				_, _ = d.Write(keys[i])
				return d.Sum64()
			})
	}
	reportMismatches(t, "KeyHash vs libxxhash seed 0", keys,
		func(i int) uint64 { return envoy.KeyHash(keys[i]) },
		func(i int) uint64 { return rows[i][0] })
}

// writeFile writes content to name in the test's temporary folder and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
