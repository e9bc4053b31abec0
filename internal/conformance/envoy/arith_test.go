package envoy_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ringreport/ringreport/internal/conformance/lab"
	"github.com/ringreport/ringreport/internal/profile"
	"github.com/ringreport/ringreport/internal/profile/envoy"
)

// arithProgram replays, in C++ doubles compiled by g++ for x86-64 as
// Envoy's own build is, the arithmetic of normalizeHostWeights
// (thread_aware_lb_impl.cc), of the ring's scale and running sums
// (ring_hash_lb.cc) and of the maglev fill (maglev_lb.cc), with xxHash64
// from libxxhash. For each input line "ring MIN MAX W…" it prints the points
// per host; for "maglev M W…" the table, hosts named k0, k1, … sorted by
// name. It checks that Go's float64 evaluation of the same expressions
// (including the rounding of scale·weight before the addition, which a
// fused multiply-add would skip) gives the same numbers; the vectors cannot,
// since their weights divide evenly.
const arithProgram = `#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

extern "C" unsigned long long XXH64(const void* input, size_t length, unsigned long long seed);

// normalizeHostWeights: weight * 1.0 / sum, min from 1.0, max from 0.0.
static std::vector<double> normalize(const std::vector<uint32_t>& w, double& minw, double& maxw) {
  uint64_t sum = 0;
  for (uint32_t x : w) sum += x;
  std::vector<double> out;
  minw = 1.0;
  maxw = 0.0;
  for (uint32_t x : w) {
    const double nw = x * 1.0 / sum;
    out.push_back(nw);
    minw = std::min(minw, nw);
    maxw = std::max(maxw, nw);
  }
  return out;
}

static void ring(uint64_t min_ring, uint64_t max_ring, const std::vector<uint32_t>& w) {
  double minw, maxw;
  std::vector<double> nw = normalize(w, minw, maxw);
  const double scale = std::min(std::ceil(minw * min_ring) / minw, static_cast<double>(max_ring));
  double current = 0.0, target = 0.0;
  for (size_t h = 0; h < nw.size(); h++) {
    target += scale * nw[h];
    uint64_t i = 0;
    while (current < target) {
      ++i;
      ++current;
    }
    std::printf(h ? " %llu" : "%llu", (unsigned long long)i);
  }
  std::printf("\n");
}

struct Entry {
  char key[16];
  size_t host;
  double weight, target;
  uint64_t offset, skip, next;
};

static void maglev(uint64_t m, const std::vector<uint32_t>& w) {
  double minw, maxw;
  std::vector<double> nw = normalize(w, minw, maxw);
  std::vector<Entry> es(nw.size());
  for (size_t h = 0; h < nw.size(); h++) {
    std::snprintf(es[h].key, sizeof es[h].key, "k%zu", h);
    es[h].host = h;
    es[h].weight = nw[h];
  }
  std::sort(es.begin(), es.end(), [](const Entry& a, const Entry& b) { return std::strcmp(a.key, b.key) < 0; });
  for (Entry& e : es) {
    e.offset = XXH64(e.key, std::strlen(e.key), 0) % m;
    e.skip = XXH64(e.key, std::strlen(e.key), 1) % (m - 1) + 1;
    e.target = 0.0;
    e.next = 0;
  }
  std::vector<long> table(m, -1);
  uint64_t filled = 0;
  for (uint32_t iteration = 1; filled < m; ++iteration) {
    for (size_t i = 0; i < es.size() && filled < m; i++) {
      Entry& e = es[i];
      if (iteration * e.weight < e.target) continue;
      e.target += maxw;
      uint64_t c = (e.offset + e.skip * e.next) % m;
      while (table[c] >= 0) {
        e.next++;
        c = (e.offset + e.skip * e.next) % m;
      }
      table[c] = e.host;
      e.next++;
      filled++;
    }
  }
  for (uint64_t i = 0; i < m; i++) std::printf(i ? " %ld" : "%ld", table[i]);
  std::printf("\n");
}

// Each line of argv[1] is "ring MIN MAX W..." or "maglev M W...".
int main(int argc, char** argv) {
  FILE* in = std::fopen(argv[1], "r");
  static char line[1 << 16];
  while (std::fgets(line, sizeof line, in)) {
    char* p = line;
    const bool is_ring = std::strncmp(p, "ring ", 5) == 0;
    p = std::strchr(p, ' ');
    uint64_t a = std::strtoull(p, &p, 10), b = is_ring ? std::strtoull(p, &p, 10) : 0;
    std::vector<uint32_t> w;
    for (;;) {
      char* q;
      const unsigned long x = std::strtoul(p, &q, 10);
      if (q == p) break;
      w.push_back((uint32_t)x);
      p = q;
    }
    if (is_ring) ring(a, b, w);
    else maglev(a, w);
  }
}
`

// arithCase is one random membership for the arithmetic check.
type arithCase struct {
	line    string
	weights []int
	minRing uint64
	maxRing uint64
	m       uint64
}

// arithCases draws memberships of 1 to 12 hosts: a third with small weight
// ratios, the rest with weights 1 to 1000 or skewed up to 2²⁰, whose
// normalised weights do not divide evenly.
func arithCases(n int) []arithCase {
	rng := rand.New(rand.NewPCG(5846, 28055))
	primes := []uint64{7, 17, 101, 257, 1009, 65537}
	var cases []arithCase
	for i := 0; i < n; i++ {
		hosts := 1 + rng.IntN(12)
		w := make([]int, hosts)
		for j := range w {
			switch {
			case i%3 == 0:
				// Small ratios, where iteration·weight can equal target
				// exactly and the comparison's strictness shows.
				w[j] = []int{1, 2, 3, 4, 6, 8}[rng.IntN(6)]
			case rng.IntN(5) == 0:
				w[j] = 1 + rng.IntN(1<<20)
			default:
				w[j] = 1 + rng.IntN(1000)
			}
		}
		ws := spaced(w)
		if i%2 == 0 {
			lo := uint64(1 + rng.IntN(5000))
			hi := lo + uint64(rng.IntN(20000))
			cases = append(cases, arithCase{line: fmt.Sprintf("ring %d %d %s", lo, hi, ws), weights: w, minRing: lo, maxRing: hi})
		} else {
			m := primes[rng.IntN(len(primes))]
			cases = append(cases, arithCase{line: fmt.Sprintf("maglev %d %s", m, ws), weights: w, m: m})
		}
	}
	return cases
}

// TestWeightArithmeticAgainstCxx compares ring point counts per host and
// maglev tables with the C++ replay over 400 random weighted memberships.
func TestWeightArithmeticAgainstCxx(t *testing.T) {
	bin := compileCxx(t, "arith", arithProgram, "-l:libxxhash.so.0")
	cases := arithCases(400)
	var input strings.Builder
	for _, c := range cases {
		input.WriteString(c.line + "\n")
	}
	path := writeFile(t, "arith.txt", input.String())
	lines := strings.Split(strings.TrimSpace(lab.Run(t, bin, path)), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("C++ answered %d cases, want %d", len(lines), len(cases))
	}
	bad := 0
	for i, c := range cases {
		servers := make([]profile.Server, len(c.weights))
		for j, w := range c.weights {
			servers[j] = profile.Server{Name: fmt.Sprintf("k%d", j), Weight: w}
		}
		var got string
		if c.m == 0 {
			p := buildRing(t, envoy.RingOptions{MinimumRingSize: c.minRing, MaximumRingSize: c.maxRing}, servers)
			counts := make([]int, len(servers))
			pts, _ := p.Points()
			for _, pt := range pts {
				counts[pt.Server]++
			}
			got = spaced(counts)
		} else {
			got = spaced(buildMaglev(t, envoy.MaglevOptions{TableSize: c.m}, servers).Table(nil))
		}
		if got != lines[i] {
			if bad < 3 {
				t.Errorf("%s: ringreport %.200s, C++ %.200s", c.line, got, lines[i])
			}
			bad++
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d memberships differ", bad, len(cases))
	}
	t.Logf("%d of %d weighted memberships agree (ring point counts, maglev tables)", len(cases), len(cases))
}

// spaced prints v as the C++ replay does, space-separated: what
// strings.Trim(fmt.Sprint(v), "[]") prints, at a tenth of its cost (fmt's
// reflection over maglev tables of up to 65,537 entries was a third of the
// test's CPU).
func spaced(v []int) string {
	b := make([]byte, 0, 8*len(v))
	for i, x := range v {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(b)
}
