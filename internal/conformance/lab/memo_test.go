package lab

import "testing"

// TestMemo checks that an answer is computed once, and that one computed
// by a test that failed is computed again.
func TestMemo(t *testing.T) {
	var m Memo[int]
	calls := 0
	if v := m.Get(failedTB{t}, func() int { calls++; return 1 }); v != 1 {
		t.Errorf("Get in a failed test = %d, want 1", v)
	}
	for range 2 {
		if v := m.Get(t, func() int { calls++; return 2 }); v != 2 {
			t.Errorf("Get = %d, want 2", v)
		}
	}
	if calls != 2 {
		t.Errorf("compute ran %d times, want 2 (once in the failed test, once kept)", calls)
	}
}

// failedTB is a test that has failed.
type failedTB struct{ testing.TB }

func (failedTB) Failed() bool { return true }
