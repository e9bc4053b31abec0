package keys

import (
	"fmt"
	"slices"
	"testing"
)

// TestMixMaxMatchesGo checks MixMax, on whatever loop the machine runs,
// against mixMaxGo, for lengths around the vector block and seed counts
// from none to more than a cluster's, with tags that decide ties and
// accumulators that start above some maxima.
func TestMixMaxMatchesGo(t *testing.T) {
	t.Logf("vector loop: %v", hasVector512)
	for _, n := range []int{0, 1, 31, 32, 33, 64, 95, 1000} {
		for _, m := range []int{0, 1, 2, 7, 101} {
			t.Run(fmt.Sprintf("keys=%d/seeds=%d", n, m), func(t *testing.T) {
				ks, acc := make([]uint64, n), make([]uint64, n)
				for i := range ks {
					ks[i] = Mix64(uint64(i) + 17)
					if i%3 == 0 {
						ks[i] &= 0xffffffff // 32-bit hashes, zero-extended
					}
					if i%5 == 0 {
						acc[i] = Mix64(uint64(i)) // a maximum carried in
					}
				}
				seeds, tags := make([]uint64, m), make([]uint64, m)
				for e := range seeds {
					seeds[e], tags[e] = NameHash64(fmt.Sprint("node-", e)), uint64(4095-e)
				}
				want := slices.Clone(acc)
				mixMaxGo(want, ks, seeds, tags, 4095)
				MixMax(acc, ks, seeds, tags, 4095)
				for i := range want {
					if acc[i] != want[i] {
						t.Fatalf("key %d: %#x, want %#x", i, acc[i], want[i])
					}
				}
			})
		}
	}
}

// TestMixMaxPinned pins one value computed by hand from Mix64, so that
// the reference itself cannot drift.
func TestMixMaxPinned(t *testing.T) {
	acc := []uint64{0}
	MixMax(acc, []uint64{42}, []uint64{7, 9}, []uint64{1, 2}, 4095)
	a, b := Mix64(42^7)&^4095|1, Mix64(42^9)&^4095|2
	if want := max(a, b); acc[0] != want {
		t.Fatalf("got %#x, want %#x", acc[0], want)
	}
}

func BenchmarkMixMax(b *testing.B) {
	ks, acc := make([]uint64, 2048), make([]uint64, 2048)
	for i := range ks {
		ks[i] = Mix64(uint64(i))
	}
	seeds, tags := make([]uint64, 100), make([]uint64, 100)
	for e := range seeds {
		seeds[e], tags[e] = Mix64(uint64(e)+1e9), uint64(e)
	}
	b.Run("keys=2048/seeds=100/loop=vector", func(b *testing.B) {
		for b.Loop() {
			MixMax(acc, ks, seeds, tags, 4095)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ks)*len(seeds)), "ns/pair")
	})
	b.Run("keys=2048/seeds=100/loop=go", func(b *testing.B) {
		for b.Loop() {
			mixMaxGo(acc, ks, seeds, tags, 4095)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ks)*len(seeds)), "ns/pair")
	})
}

// TestSumMixMatchesGo checks SumMix against its definition, term by
// term, for lengths around the vector block.
func TestSumMixMatchesGo(t *testing.T) {
	const step = 0x9e3779b97f4a7c15
	for _, n := range []int{0, 1, 31, 32, 33, 64, 100, 1000, 4099} {
		vs := make([]uint64, n)
		var want uint64
		for j := range vs {
			vs[j] = NameHash64(fmt.Sprint("node-", j%7))
			want += Mix64(vs[j] + 12345 + uint64(j)*step)
		}
		if got := SumMix(vs, 12345, step); got != want {
			t.Errorf("%d terms: %#x, want %#x", n, got, want)
		}
		if got := sumMixGo(vs, 12345, step); got != want {
			t.Errorf("%d terms in Go: %#x, want %#x", n, got, want)
		}
	}
}

func BenchmarkSumMix(b *testing.B) {
	vs := make([]uint64, 2048)
	for j := range vs {
		vs[j] = Mix64(uint64(j % 101))
	}
	for _, loop := range []struct {
		name string
		f    func([]uint64, uint64, uint64) uint64
	}{{"vector", SumMix}, {"go", sumMixGo}} {
		b.Run("terms=2048/loop="+loop.name, func(b *testing.B) {
			for b.Loop() {
				loop.f(vs, 1, 0x9e3779b97f4a7c15)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vs)), "ns/term")
		})
	}
}

// node is a uint16 index type, as timeline.NodeID is.
type node uint16

// TestSumMixOfMatchesDefinition checks SumMixOf term by term, with the
// largest index in every lane position, and that an index past the table
// panics, inside the vector block and after it.
func TestSumMixOfMatchesDefinition(t *testing.T) {
	const step = 0x9e3779b97f4a7c15
	table := make([]uint64, 101)
	for i := range table {
		table[i] = NameHash64(fmt.Sprint("node-", i))
	}
	for _, n := range []int{0, 1, 31, 32, 33, 64, 100, 1000, 4099} {
		idx := make([]node, n)
		var want uint64
		for j := range idx {
			idx[j] = node(Mix64(uint64(j)) % uint64(len(table)))
			if j%37 == 0 {
				idx[j] = node(len(table) - 1)
			}
			want += Mix64(table[idx[j]] + 99 + uint64(j)*step)
		}
		if got := SumMixOf(table, idx, 99, step); got != want {
			t.Errorf("%d terms: %#x, want %#x", n, got, want)
		}
	}
	for _, at := range []int{0, 5, 31, 40} {
		idx := make([]node, 41)
		idx[at] = node(len(table))
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("index %d past the table at %d: no panic", len(table), at)
				}
			}()
			SumMixOf(table, idx, 0, step)
		}()
	}
}

func BenchmarkSumMixOf(b *testing.B) {
	table := make([]uint64, 101)
	for i := range table {
		table[i] = Mix64(uint64(i))
	}
	idx := make([]node, 2048)
	for j := range idx {
		idx[j] = node(Mix64(uint64(j)) % 101)
	}
	b.Run("terms=2048/loop=vector", func(b *testing.B) {
		for b.Loop() {
			SumMixOf(table, idx, 1, 0x9e3779b97f4a7c15)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(idx)), "ns/term")
	})
	b.Run("terms=2048/loop=lookup-then-vector", func(b *testing.B) {
		var vs [2048]uint64
		for b.Loop() {
			for j, i := range idx {
				vs[j] = table[i]
			}
			SumMix(vs[:], 1, 0x9e3779b97f4a7c15)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(idx)), "ns/term")
	})
}

// TestPickModMatchesMod checks PickMod against p % n, for table sizes
// from 1 to the largest, lengths around the vector block, and positions
// up to 2³²−1.
func TestPickModMatchesMod(t *testing.T) {
	for _, size := range []int{1, 2, 3, 100, 101, 65535} {
		table := make([]node, size)
		for i := range table {
			table[i] = node(Mix64(uint64(i)))
		}
		for _, n := range []int{0, 1, 31, 32, 33, 64, 1000} {
			pos := make([]uint32, n)
			for i := range pos {
				pos[i] = uint32(Mix64(uint64(i*size + n)))
			}
			// The last remainder of a bucket (p mod size = size−1) is where
			// the product's low half carries into the high one.
			for i := range pos[:n/2] {
				q := uint32(Mix64(uint64(i))) / uint32(size)
				pos[i] = q*uint32(size) + uint32(size-1)
			}
			if n > 2 {
				pos[0], pos[1] = 0, ^uint32(0)
			}
			dst := make([]node, n)
			PickMod(dst, pos, table)
			for i, p := range pos {
				if want := table[p%uint32(size)]; dst[i] != want {
					t.Fatalf("table of %d, %d keys: key %d (position %d) picks %d, want %d", size, n, i, p, dst[i], want)
				}
			}
		}
	}
}

func BenchmarkPickMod(b *testing.B) {
	table := make([]node, 101)
	for i := range table {
		table[i] = node(i)
	}
	pos, dst := make([]uint32, 4096), make([]node, 4096)
	for i := range pos {
		pos[i] = uint32(Mix64(uint64(i)))
	}
	for _, loop := range []struct {
		name string
		f    func()
	}{{"vector", func() { PickMod(dst, pos, table) }}, {"go", func() { pickModGo(dst, pos, table, NewFastMod(101)) }}} {
		b.Run("keys=4096/table=101/loop="+loop.name, func(b *testing.B) {
			for b.Loop() {
				loop.f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pos)), "ns/key")
		})
	}
}

// TestAtLeastMatchesDefinition checks Keys64.AtLeast bit by bit, for
// 32-bit and 64-bit key hashes, lengths around the vector block, and
// bounds equal to a key's top bits (set: at least), one above (clear)
// and random.
func TestAtLeastMatchesDefinition(t *testing.T) {
	const seed = 0x1234567890abcdef
	h64, h32 := make([]uint64, 1100), make([]uint32, 1100)
	for i := range h64 {
		h64[i] = Mix64(uint64(i) + 5)
		h32[i] = uint32(h64[i] >> 7)
	}
	for _, ks := range []Keys64{{h64: h64}, {h32: h32}} {
		for _, lo := range []int{0, 3} {
			for _, n := range []int{0, 1, 31, 32, 33, 64, 100, 1000} {
				hi := make([]uint32, n)
				for j := range hi {
					top := uint32(Mix64(ks.At(lo+j)^seed) >> 32)
					switch j % 3 {
					case 0:
						hi[j] = top
					case 1:
						hi[j] = top + 1
					default:
						hi[j] = uint32(Mix64(uint64(j)))
					}
				}
				mask := make([]uint8, (n+7)/8)
				for b := range mask {
					mask[b] = 0xa5 // cleared where no bit is set
				}
				ks.AtLeast(mask, lo, seed, hi)
				for j := range hi {
					want := uint32(Mix64(ks.At(lo+j)^seed)>>32) >= hi[j]
					if got := mask[j/8]>>(j%8)&1 == 1; got != want {
						t.Fatalf("64-bit keys %v, from %d, %d keys: bit %d is %v, want %v", ks.h64 != nil, lo, n, j, got, want)
					}
				}
				if n%8 != 0 && mask[n/8]>>(n%8) != 0 {
					t.Fatalf("%d keys: bits past the last key set: %#x", n, mask[n/8])
				}
			}
		}
	}
}

// TestSelectMatchesDefinition checks SelectBelow and SelectAtLeast, index
// by index, for lengths around the vector's sixteen lanes, densities from
// none to all, and values equal to the bound.
func TestSelectMatchesDefinition(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 100, 2048} {
		for _, every := range []int{1, 2, 7, 1000, 1 << 30} {
			v := make([]uint32, n)
			const x = 1000
			for i := range v {
				v[i] = x + 1 + uint32(Mix64(uint64(i))%5)
				if i%every == 0 {
					v[i] = x - uint32(i%2) // equal to the bound, or below it
				}
			}
			var below, atLeast []uint32
			for i, y := range v {
				if y < x {
					below = append(below, uint32(7+i))
				} else {
					atLeast = append(atLeast, uint32(7+i))
				}
			}
			at := make([]uint32, n+SelectSlack)
			if got := SelectBelow(at, v, 7, x); !slices.Equal(got, below) {
				t.Fatalf("%d values, every %d: below %v, want %v", n, every, got, below)
			}
			if got := SelectAtLeast(at, v, 7, x); !slices.Equal(got, atLeast) {
				t.Fatalf("%d values, every %d: at least %v, want %v", n, every, got, atLeast)
			}
		}
	}
}
