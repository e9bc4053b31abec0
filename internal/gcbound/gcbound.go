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
// the replay's own state plus a constant (up to 512 MiB live; past it, a
// quarter of it, MinPercent).
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
// collection, once half the live heap would be more, until MinPercent of
// it is more. It also covers the runtime's own memory (stacks,
// metadata), which Go's memory limit counts.
const Headroom = 128 << 20

// MinPercent is the least headroom, as a share of the live heap: a heap
// of many pointers (10⁴ nodes' per-state data, 820 MB live) collected
// every 128 MiB took 214 collections instead of 76 and 29% more time;
// at a quarter, the collections of a large heap are at most twice as
// many as at Percent.
const MinPercent = 25

// policy is the headroom rule: percent of the live heap, but no more
// than headroom bytes or minPercent of it, whichever is larger.
type policy struct {
	percent, minPercent int
	headroom            int64
}

// ringreport is the policy Run applies.
var ringreport = policy{percent: Percent, minPercent: MinPercent, headroom: Headroom}

// Allowed is the peak memory Run lets a process whose live heap is live
// bytes reach: live plus the smaller of Percent of it and the larger of
// Headroom and MinPercent of it.
func Allowed(live int64) int64 { return ringreport.allowed(live) }

// extra is the headroom over a live heap of live bytes.
func (p policy) extra(live int64) int64 {
	return min(share(live, p.percent), max(p.headroom, share(live, p.minPercent)))
}

// allowed is live plus its headroom, saturated as the cost model's sums
// are.
func (p policy) allowed(live int64) int64 {
	extra := p.extra(live)
	if live > math.MaxInt64-extra {
		return math.MaxInt64
	}
	return live + extra
}

// Run applies the policy to this process, for the rest of its life,
// unless GOGC or GOMEMLIMIT is set in the environment (then Go's own
// setting applies). After every collection it sets Go's soft memory
// limit to the live heap plus headroom (Allowed); the limit makes the
// collector run, and return freed memory to the system, before the heap
// passes it.
func Run() {
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		start(ringreport)
	}
}

// share is percent % of n, without overflow.
func share(n int64, percent int) int64 {
	if n > math.MaxInt64/100 {
		return n / 100 * int64(percent)
	}
	return n * int64(percent) / 100
}

// start sets the collector's percent and bounds its headroom by p until
// stop is called, which restores Go's defaults.
func start(p policy) (stop func()) {
	b := &bound{policy: p}
	old := debug.SetGCPercent(p.percent)
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
	policy
	mu      sync.Mutex
	stopped bool
	sample  [1]metrics.Sample
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

// adjust sets the memory limit to the live heap plus its headroom where
// that is under what the percent alone allows, and lifts it where it is not
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
	if b.extra(live) < share(live, b.percent) {
		limit = b.allowed(live)
	}
	debug.SetMemoryLimit(limit)
	return true
}
