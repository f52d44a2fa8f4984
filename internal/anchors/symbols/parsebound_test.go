package symbols

import (
	"sync/atomic"
	"testing"
	"time"
)

// The watcher cancels once the processor time used reaches the budget,
// not when the budget has passed on the wall clock: a parse given half a
// core (used = half the wall time) runs twice the budget.
func TestWatchProcessorTimeCountsProcessorTime(t *testing.T) {
	const budget = 60 * time.Millisecond
	start := time.Now()
	halfACore := func() (time.Duration, bool) { return time.Since(start) / 2, true }
	cancelled := make(chan time.Duration, 1)
	stop := watchProcessorTime(budget, halfACore, func() { cancelled <- time.Since(start) })
	defer stop()
	select {
	case at := <-cancelled:
		if at < 2*budget {
			t.Fatalf("cancelled after %v of wall time, %v of processor time: before the budget %v was used", at, at/2, budget)
		}
	case <-time.After(20 * budget):
		t.Fatalf("not cancelled after %v, with %v of processor time used", 20*budget, 10*budget)
	}
}

// An unreadable clock leaves the wall clock to decide; a stopped watch
// never cancels.
func TestWatchProcessorTimeUnreadableAndStopped(t *testing.T) {
	const budget = 20 * time.Millisecond
	var n atomic.Int32
	unreadable := func() (time.Duration, bool) { return 0, false }
	stop := watchProcessorTime(budget, unreadable, func() { n.Add(1) })
	deadline := time.Now().Add(100 * budget)
	for n.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(budget / 4)
	}
	stop()
	if n.Load() != 1 {
		t.Fatalf("unreadable clock: %d cancels, want 1 (at the wall-clock budget)", n.Load())
	}
	var m atomic.Int32
	stop = watchProcessorTime(budget, func() (time.Duration, bool) { return 0, true }, func() { m.Add(1) })
	stop()
	time.Sleep(3 * budget)
	if m.Load() != 0 {
		t.Fatalf("a stopped watch cancelled %d times", m.Load())
	}
}
