package lab

import (
	"sync"
	"testing"
)

// Memo holds a product's answer that several tests of one test binary
// compare with (the JDK's chars of every key, kafkajs's partitions), so
// that the product runs once per binary instead of once per test. Its zero
// value is ready to use.
type Memo[T any] struct {
	mu sync.Mutex
	ok bool
	v  T
}

// Get returns the answer compute gave an earlier test, or computes it
// with t. An answer is kept only when t neither failed nor skipped while
// computing it (compute may stop t with Fatal or Skip), so a later test
// computes it again, and reports its own failure, rather than reusing a
// broken answer.
func (m *Memo[T]) Get(t testing.TB, compute func() T) T {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ok {
		return m.v
	}
	failed := t.Failed()
	v := compute()
	if !failed && !t.Failed() && !t.Skipped() {
		m.v, m.ok = v, true
	}
	return v
}
