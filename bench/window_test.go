package bench

import (
	"testing"
	"time"
)

// TestWindowDone checks the rule that ends a batch size's measurement:
// never before the window, past it until 3·N changes when the rate so far
// reaches them within four windows, never past four windows.
func TestWindowDone(t *testing.T) {
	const n, w = 1_000_000, 2 * time.Second
	for _, c := range []struct {
		total   time.Duration
		changes int
		done    bool
	}{
		{w - 1, 10_000_000, false},        // the window first, however many changes
		{w, 3_000_000, true},              // 3·N reached
		{w, 800_000, false},               // 3M at this rate take 7.5 s: go on
		{w, 600_000, true},                // 3M would take 10 s: a slow system keeps the window
		{3 * w, 2_300_000, false},         // on the way: 3M at 7.8 s
		{4 * w, 2_900_000, true},          // four windows at most
		{w, 3_000_000 - 1, false},         // just short, on time
		{2*w + time.Millisecond, 1, true}, // hopeless
	} {
		if got := windowDone(n, w, c.total, c.changes); got != c.done {
			t.Errorf("windowDone(%d, %v, %v, %d) = %v, want %v", n, w, c.total, c.changes, got, c.done)
		}
	}
}
