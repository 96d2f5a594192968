package deltaview

import (
	"sync"
	"time"

	"github.com/deltaview/deltaview/internal/engine"
)

// SetClock pins the time of temporal filters (WHERE ts > now() -
// interval '1 hour') at t, as SET deltaview.clock does, and brings the
// views to it: each instant at which a row enters or leaves a view is a
// step of its own, which subscribers see with its own timestamp. Time
// does not go back: an earlier t fails with SQLSTATE 22023. A zero t
// returns the views to the time source (Options.Clock, or the wall
// clock).
func (db *DB) SetClock(t time.Time) error {
	if t.IsZero() {
		db.e.UnpinClock()
		return nil
	}
	return db.e.PinClock(t)
}

// clockTimer steps the views of a database when their next temporal
// change is due: a goroutine, started with the first view that has a
// temporal filter, that sleeps until the engine's next change (or until
// the engine says it may have moved) and stops on Close. It never polls.
type clockTimer struct {
	e     *engine.Engine
	now   func() time.Time
	once  sync.Once
	mu    sync.Mutex
	stop  chan struct{}
	ended bool
}

func (c *clockTimer) init(e *engine.Engine, now func() time.Time) {
	c.e, c.now = e, now
	if c.now == nil {
		c.now = time.Now
	}
	e.SetOnClockWake(c.start)
}

// start runs the timer's goroutine, once.
func (c *clockTimer) start() {
	c.once.Do(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.ended {
			return
		}
		c.stop = make(chan struct{})
		go c.run(c.e.ClockWake(), c.stop)
	})
}

// close stops the goroutine.
func (c *clockTimer) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ended && c.stop != nil {
		close(c.stop)
	}
	c.ended = true
}

// clockRetry is how long the timer waits after a step that failed (a
// view's expression error) before it tries again, unless woken before.
const clockRetry = time.Second

func (c *clockTimer) run(wake <-chan struct{}, stop <-chan struct{}) {
	for {
		var fire <-chan time.Time
		var t *time.Timer
		if next, ok := c.e.NextClockChange(); ok {
			t = time.NewTimer(max(next.Sub(c.now()), 0))
			fire = t.C
		}
		select {
		case <-stop:
		case <-wake:
		case <-fire:
			if err := c.e.AdvanceClock(); err != nil {
				retry := time.NewTimer(clockRetry)
				select {
				case <-stop:
				case <-wake:
				case <-retry.C:
				}
				retry.Stop()
			}
		}
		if t != nil {
			t.Stop()
		}
		select {
		case <-stop:
			return
		default:
		}
	}
}
