// Package gcbound is ringreport's policy for Go's garbage collector: how
// far the heap may grow past what the last collection found live.
//
// Go's default (GOGC=100) lets the heap grow to twice its live size
// before collecting again. A replay's heap is mostly large, long-lived,
// pointer-free arrays (key positions, owners, undo logs), which a
// collection does not scan, so collecting more often costs little CPU;
// but each step also allocates short-lived arrays of the key set's size,
// so with a percentage the peak grows with the key set: a live heap of
// 460 MiB (10⁷ keys, five rules) peaked at 700–980 MiB at GOGC=50. Run
// bounds the headroom instead: Percent for small heaps, and at most
// Headroom bytes over the live heap for large ones, so that the peak is
// the replay's own state plus a constant.
package gcbound

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Percent is the collector's target (GOGC) for heaps under 2·Headroom:
// a collection when the heap has grown by half of what was live.
const Percent = 50

// Headroom is the most the heap may grow past the live heap of the last
// collection, once half the live heap would be more. It also covers the
// runtime's own memory (stacks, metadata), which Go's memory limit
// counts.
const Headroom = 128 << 20

// Allowed is the peak memory Run lets a process whose live heap is live
// bytes reach: live plus the smaller of Percent of it and Headroom.
func Allowed(live int64) int64 { return allowed(live, Percent, Headroom) }

// allowed is Allowed under a given percent and headroom.
func allowed(live int64, percent int, headroom int64) int64 {
	extra := min(share(live, percent), headroom)
	if live > math.MaxInt64-extra {
		return math.MaxInt64 // saturated, as the cost model's sums are
	}
	return live + extra
}

// Run applies the policy to this process unless GOGC or GOMEMLIMIT is set
// in the environment (then Go's own setting applies), and returns a
// function that ends it. After every collection it sets Go's soft memory
// limit to the live heap plus headroom (Allowed); the limit makes the
// collector run, and return freed memory to the system, before the heap
// passes it.
func Run() (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	return start(Percent, Headroom)
}

// share is percent % of n, without overflow.
func share(n int64, percent int) int64 {
	if n > math.MaxInt64/100 {
		return n / 100 * int64(percent)
	}
	return n * int64(percent) / 100
}

// start sets the collector's percent and bounds its headroom to headroom
// bytes until stop is called, which restores Go's defaults.
func start(percent int, headroom int64) (stop func()) {
	b := &bound{headroom: headroom, percent: percent}
	old := debug.SetGCPercent(percent)
	b.arm()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.stopped = true
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(old)
	}
}

// bound is one application of the policy.
type bound struct {
	headroom int64
	percent  int
	mu       sync.Mutex
	stopped  bool
	sample   [1]metrics.Sample
}

// sentinel is an object made unreachable as soon as it is made: its
// cleanup runs after the next collection, which is how bound learns that
// one happened. (It holds a pointer, so that it is never one of the
// runtime's tiny allocations, which share a block with other objects.)
type sentinel struct{ b *bound }

// arm makes a sentinel whose cleanup, after the next collection, sets the
// limit from that collection's live heap and arms the next one.
func (b *bound) arm() {
	runtime.AddCleanup(&sentinel{b: b}, func(b *bound) {
		if b.adjust() {
			b.arm()
		}
	}, b)
}

// adjust sets the memory limit to the live heap plus headroom where that
// is under what the percent alone allows, and lifts it where it is not
// (a limit near a small heap would make the collector run all the time,
// since the limit also counts the runtime's own memory), and reports
// whether the policy still runs.
func (b *bound) adjust() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return false
	}
	b.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(b.sample[:])
	live := int64(b.sample[0].Value.Uint64())
	limit := int64(math.MaxInt64) // the percent binds: no limit
	if share(live, b.percent) > b.headroom {
		limit = allowed(live, b.percent, b.headroom)
	}
	debug.SetMemoryLimit(limit)
	return true
}
