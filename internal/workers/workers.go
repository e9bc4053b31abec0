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
// has stopped.
func Each(n int, f func(i int)) {
	if n <= 0 {
		return
	}
	var next atomic.Int64
	var panicked atomic.Value
	work := func() {
		defer func() {
			if p := recover(); p != nil {
				panicked.CompareAndSwap(nil, p)
				next.Store(int64(n)) // stop handing out more
			}
		}()
		for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
			f(i)
		}
	}
	var wg sync.WaitGroup
	tk := pool()
	for range n - 1 {
		select {
		case tk <- struct{}{}:
			wg.Go(func() {
				defer func() { <-tk }()
				work()
			})
			continue
		default:
		}
		break
	}
	work()
	wg.Wait()
	if p := panicked.Load(); p != nil {
		panic(p)
	}
}
