package engine_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
)

// TestRelayIdle: with two workers, commits too small for the workers
// never start the relay's goroutine (single changes pay nothing for it);
// a big commit hands its waves to it, and once the engine is idle the
// goroutine ends: it spins only between a stream's waves.
func TestRelayIdle(t *testing.T) {
	e := engine.New()
	e.SetWorkers(2)
	_, run := groupedAndFiltered(t, e)
	r0, s0 := e.Relayed()
	for _, n := range []int{1, 1, 100, 511} {
		run(`UPDATE t SET val = val + 1 WHERE id <= ` + strconv.Itoa(n))
	}
	if r, s := e.Relayed(); r != r0 || s != s0 || engine.RelayRunning(e) {
		t.Fatalf("small commits: relayed %d, started %d, running %v; want none", r-r0, s-s0, engine.RelayRunning(e))
	}
	run(`UPDATE t SET val = val + 1 WHERE id <= 2000; SELECT count(*) FROM grouped`)
	if r, s := e.Relayed(); r+s == r0+s0 {
		t.Fatal("a commit of 2,000 changes handed nothing to the relay")
	}
	deadline := time.Now().Add(10 * time.Second)
	for engine.RelayRunning(e) {
		if time.Now().After(deadline) {
			t.Fatal("the relay's goroutine still runs 10 s after the last commit")
		}
		time.Sleep(100 * time.Microsecond)
	}
}
