package workers

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestEachBounded: nested Each calls never keep more goroutines busy than
// the limit plus the outermost caller, call every index exactly once, and
// finish (no deadlock when the pool is empty).
func TestEachBounded(t *testing.T) {
	defer SetLimit(4)
	for _, limit := range []int{1, 2, 3, 8} {
		SetLimit(limit)
		var busy, peak atomic.Int64
		var calls [20][30]atomic.Int32
		Each(20, func(i int) {
			Each(30, func(j int) {
				b := busy.Add(1)
				for {
					p := peak.Load()
					if b <= p || peak.CompareAndSwap(p, b) {
						break
					}
				}
				time.Sleep(100 * time.Microsecond)
				calls[i][j].Add(1)
				busy.Add(-1)
			})
		})
		if p := peak.Load(); p > int64(limit) {
			t.Errorf("limit %d: %d goroutines busy at once", limit, p)
		}
		for i := range calls {
			for j := range calls[i] {
				if n := calls[i][j].Load(); n != 1 {
					t.Fatalf("limit %d: f(%d, %d) called %d times", limit, i, j, n)
				}
			}
		}
	}
}

// TestEachPanics: a panic in f reaches the caller.
func TestEachPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("the panic did not reach the caller")
		}
	}()
	Each(100, func(i int) {
		if i == 50 {
			panic("boom")
		}
	})
}

// TestEachRecruitsFreedTokens: an Each that starts while another holds
// every token, and so runs on its caller alone, takes a token the other
// gives back as soon as it is free, between two of its calls.
func TestEachRecruitsFreedTokens(t *testing.T) {
	defer SetLimit(4)
	SetLimit(2)
	tk := pool()
	tk <- struct{}{} // another Each holds the only token
	var busy, peak atomic.Int64
	deadline := time.Now().Add(5 * time.Second)
	Each(6, func(i int) {
		b := busy.Add(1)
		defer busy.Add(-1)
		for p := peak.Load(); b > p && !peak.CompareAndSwap(p, b); p = peak.Load() {
		}
		if i == 0 {
			<-tk // the other Each is done
			return
		}
		for peak.Load() < 2 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	})
	if peak.Load() < 2 {
		t.Fatalf("at most %d calls at once after the token came back, want 2", peak.Load())
	}
}
