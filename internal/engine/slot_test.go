package engine

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWriterSlot checks that the writer slot is held by one goroutine at
// a time among many that take and give it back, that a wait times out
// while it is held, and that a waiter gets it when it is released.
func TestWriterSlot(t *testing.T) {
	w := newWriterSlot()
	var wg sync.WaitGroup
	inside, n := 0, 0
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2000 {
				if ok, _ := w.acquire(0, nil); !ok {
					t.Error("acquire without a timeout failed")
					return
				}
				inside++
				if inside != 1 {
					t.Errorf("%d holders at once", inside)
				}
				n++
				inside--
				w.release()
			}
		}()
	}
	wg.Wait()
	if n != 8*2000 {
		t.Fatalf("%d acquisitions, want %d", n, 8*2000)
	}
	if !w.tryAcquire() {
		t.Fatal("the free slot was not taken")
	}
	if w.tryAcquire() {
		t.Fatal("the held slot was taken again")
	}
	start := time.Now()
	if ok, _ := w.acquire(20*time.Millisecond, nil); ok {
		t.Fatal("the held slot was taken after a timeout")
	}
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Fatalf("the wait gave up after %v, before its timeout", d)
	}
	got := make(chan bool)
	go func() { ok, _ := w.acquire(10*time.Second, nil); got <- ok }()
	time.Sleep(5 * time.Millisecond)
	w.release()
	if !<-got {
		t.Fatal("a waiter did not get the released slot")
	}
	// A waiter whose interrupt comes gives up with its error, and does
	// not take the slot.
	var cancelled atomic.Bool
	errCancel := errors.New("cancelled")
	failed := make(chan error)
	go func() {
		ok, err := w.acquire(0, func() error {
			if cancelled.Load() {
				return errCancel
			}
			return nil
		})
		if ok {
			err = errors.New("the held slot was taken")
		}
		failed <- err
	}()
	cancelled.Store(true)
	if err := <-failed; err != errCancel {
		t.Fatalf("a cancelled wait ended with %v", err)
	}
	w.release()
	if !w.tryAcquire() {
		t.Fatal("a cancelled waiter left the slot taken")
	}
	w.release()
}
