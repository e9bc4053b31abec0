package gcbound

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// churn holds (after a collection that counts it live and, with bound,
// after the limit that collection's cleanup sets) a live pointer-free array of live bytes and allocates total
// bytes of short-lived ones of chunk bytes, and returns the most memory
// the runtime held from the system meanwhile.
func churn(t *testing.T, live, chunk, total int, bound bool) int64 {
	keep := make([]byte, live)
	runtime.GC()
	if bound { // wait for the collection's cleanup to set the limit
		deadline := time.Now().Add(5 * time.Second)
		for debug.SetMemoryLimit(-1) == math.MaxInt64 {
			if time.Now().After(deadline) {
				t.Fatal("no memory limit 5 s after a collection")
			}
			time.Sleep(time.Millisecond)
		}
	}
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	var peak int64
	var sink []byte
	for n := 0; n < total; n += chunk {
		sink = make([]byte, chunk)
		for i := range sink { // fill it, as a step fills its arrays
			sink[i] = byte(i + n)
		}
		metrics.Read(s)
		peak = max(peak, int64(s[0].Value.Uint64()-s[1].Value.Uint64()))
	}
	runtime.KeepAlive(keep)
	runtime.KeepAlive(sink)
	return peak
}

// TestHeadroomBound checks that memory stays near Allowed of a large
// live heap while short-lived arrays are made and dropped, where the
// percent alone lets it grow by half: 256 MiB live and 32 MiB of
// headroom stay under 256 + 32 + 64 MiB, and Percent alone passes 256 +
// 112. The 64 MiB are the runtime's own memory and the arrays made while a
// collection marks, which it counts live.
func TestHeadroomBound(t *testing.T) {
	const live, chunk, total = 256 << 20, 1 << 20, 384 << 20
	const headroom, slop = 32 << 20, 64 << 20
	old := debug.SetGCPercent(Percent)
	p0 := churn(t, live, chunk, total, false)
	debug.SetGCPercent(old)
	if p0 < live+112<<20 {
		t.Fatalf("without the bound memory peaked at %d MiB; the test needs the percent alone to pass %d MiB", p0>>20, (live+112<<20)>>20)
	}
	stop := start(policy{percent: Percent, headroom: headroom})
	p := churn(t, live, chunk, total, true)
	stop()
	t.Logf("peak %d MiB without the bound, %d MiB with it", p0>>20, p>>20)
	if want := int64(live + headroom + slop); p > want {
		t.Errorf("with %d MiB of headroom over %d MiB live, memory peaked at %d MiB, want ≤ %d", headroom>>20, live>>20, p>>20, want>>20)
	}
}

// TestAllowed checks the policy's arithmetic: the percent for small
// heaps, the headroom once it is the smaller, MinPercent past 4·Headroom.
func TestAllowed(t *testing.T) {
	for _, c := range []struct{ live, want int64 }{
		{0, 0},
		{100 << 20, 150 << 20},
		{2 * Headroom, 3 * Headroom},
		{400 << 20, 400<<20 + Headroom},
		{1 << 30, 1<<30 + 1<<28},
		{math.MaxInt64, math.MaxInt64},
	} {
		if got := Allowed(c.live); got != c.want {
			t.Errorf("Allowed(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}
