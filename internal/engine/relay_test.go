package engine

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestRelay: a task handed to a relay whose goroutine waits runs on
// that goroutine, one handed while it is busy on a goroutine of its own,
// every task once; a relay that waits longer than its bound lets its
// goroutine end, and the next task starts one.
func TestRelay(t *testing.T) {
	r := &relay{spin: time.Hour}
	var ran atomic.Int64
	task := func(wg *sync.WaitGroup) func() {
		return func() {
			ran.Add(1)
			wg.Done()
		}
	}
	waitFor := func(state int32) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for r.state.Load() != state {
			if time.Now().After(deadline) {
				t.Fatalf("relay state %d, want %d", r.state.Load(), state)
			}
			time.Sleep(10 * time.Microsecond)
		}
	}
	const rounds = 100
	for i := range rounds {
		var wg sync.WaitGroup
		wg.Add(2)
		handed := make(chan struct{})
		first := task(&wg)
		r.goOn(func() { // to the relay, busy until the second is handed
			<-handed
			first()
		})
		r.goOn(task(&wg)) // a goroutine of its own
		close(handed)
		wg.Wait()
		waitFor(relayWaiting)
		if got := ran.Load(); got != int64(2*(i+1)) {
			t.Fatalf("round %d: %d tasks ran, want %d", i, got, 2*(i+1))
		}
	}
	if r.started.Load() != 1 || r.relayed.Load() != rounds-1 {
		t.Fatalf("started %d, relayed %d; want 1 and %d", r.started.Load(), r.relayed.Load(), rounds-1)
	}
	// A short bound: the goroutine ends after its next task.
	r.spin = time.Microsecond
	var wg sync.WaitGroup
	wg.Add(1)
	r.goOn(task(&wg))
	wg.Wait()
	waitFor(relayGone)
	wg.Add(1)
	r.goOn(task(&wg))
	wg.Wait()
	if r.started.Load() != 2 || ran.Load() != 2*rounds+2 {
		t.Fatalf("started %d, ran %d; want 2 and %d", r.started.Load(), ran.Load(), 2*rounds+2)
	}
	waitFor(relayGone)
}
