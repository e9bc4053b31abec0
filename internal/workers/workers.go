// Package workers bounds, for the whole process, how many goroutines
// ringreport keeps busy at once: scenarios, the stages of a scenario that
// run side by side (internal/build), the rules of a replay, the parts of
// a key set, the variants of a sweep and the figures of a step all draw
// from one pool whose size -j sets. No other package starts goroutines
// for work.
//
// Work is handed out with Each. Its caller always works too, and helpers
// start only while the pool has a free token, so Each nests without
// deadlock (an inner Each whose pool is empty runs in its caller) and the
// busy goroutines never exceed the limit plus the one that started the
// outermost Each.
package workers

import (
	"runtime"
	"sync"
	"sync/atomic"
)

var (
	mu     sync.Mutex
	tokens = make(chan struct{}, runtime.GOMAXPROCS(0)-1)
)

// SetLimit sets how many goroutines may work at once, n ≥ 1 (values
// below 1 mean 1); 0 workers besides the caller means everything runs in
// the goroutine that asks. Call it before any work starts.
func SetLimit(n int) {
	mu.Lock()
	defer mu.Unlock()
	tokens = make(chan struct{}, max(n, 1)-1)
}

func pool() chan struct{} {
	mu.Lock()
	defer mu.Unlock()
	return tokens
}

// Each calls f(0) … f(n−1), each once, on the calling goroutine and on
// as many helpers as the pool lends, and returns when all have returned.
// The order of the calls is not specified: f must write only its own
// results. A panic in f is raised again in the caller, once every call
// has stopped. The caller asks the pool for helpers at the start and
// again after each call it makes, while two or more calls are left: a
// token that another Each gives back later (a stage that ran beside this
// one has finished) goes to work here, rather than leaving this Each
// running alone on its caller.
func Each(n int, f func(i int)) {
	if n <= 0 {
		return
	}
	var next atomic.Int64
	var panicked atomic.Value
	work := func(recruit func()) {
		defer func() {
			if p := recover(); p != nil {
				panicked.CompareAndSwap(nil, p)
				next.Store(int64(n)) // stop handing out more
			}
		}()
		for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
			f(i)
			recruit()
		}
	}
	var wg sync.WaitGroup
	tk := pool()
	// recruit starts a helper for every free token while at least two
	// calls are left to hand out, n − 1 helpers at most; only the caller
	// runs it.
	helpers := 0
	recruit := func() {
		for helpers < n-1 && n-int(next.Load()) >= 2 {
			select {
			case tk <- struct{}{}:
				helpers++
				wg.Go(func() {
					defer func() { <-tk }()
					work(func() {})
				})
			default:
				return
			}
		}
	}
	recruit()
	work(recruit)
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}
