package engine

import (
	"strings"
	"time"

	"github.com/deltaview/deltaview/internal/compile"
	"github.com/deltaview/deltaview/internal/dataflow/op"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// The clock of temporal filters (WHERE ts > now() - interval '1 hour').
// The engine reads no clock of its own: it is given a time source (the
// wall clock by default, SetClockSource), or a pinned time for tests (SET
// deltaview.clock, PinClock). Its time only moves forward. Each commit
// first brings the views to the time it reads, one step per instant at
// which some row enters or leaves a view (a commit with no table changes,
// which subscribers see with a timestamp of its own), then applies the
// transaction at that time. Between commits, whoever owns the engine
// calls AdvanceClock when NextClockChange comes (the root package runs a
// timer); ClockWake tells it that the next change may have moved.

// SetClockSource sets the time source of temporal filters; nil restores
// the wall clock.
func (e *Engine) SetClockSource(now func() time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clockSource = now
	e.wake()
}

// clockReading returns the time the views are to be at: the pinned time,
// or the source's, never before the time they are at.
func (e *Engine) clockReading() int64 {
	if e.pinned {
		return max(e.now, e.pinnedAt)
	}
	src := e.clockSource
	if src == nil {
		src = time.Now
	}
	return max(e.now, src().UnixMicro()-pgEpochMicros)
}

// PinClock sets the time of temporal filters to t, until UnpinClock, and
// brings the views to it, one step per instant at which a row enters or
// leaves a view. Time does not go back: an earlier t fails with 22023.
func (e *Engine) PinClock(t time.Time) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pinClock(t.UnixMicro() - pgEpochMicros)
}

func (e *Engine) pinClock(at int64) error {
	if at < e.now {
		return pgerr.New(pgerr.InvalidParameter, "the clock cannot go back from %s to %s",
			value.NewTimestamp(value.TimestampTZ, e.now), value.NewTimestamp(value.TimestampTZ, at))
	}
	e.pinned, e.pinnedAt = true, at
	defer e.wake()
	return e.catchUp(at)
}

// UnpinClock returns temporal filters to the time source.
func (e *Engine) UnpinClock() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.pinned = false
	e.wake()
}

// AdvanceClock brings the views to the time source's time (or the pinned
// time), one step per instant at which a row enters or leaves a view.
func (e *Engine) AdvanceClock() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.catchUp(e.clockReading())
}

// NextClockChange returns the next instant at which a row enters or
// leaves a view, as the time source counts it; false when there is none
// or the clock is pinned.
func (e *Engine) NextClockChange() (time.Time, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.pinned {
		return time.Time{}, false
	}
	at := e.nextChange()
	if at == op.Never {
		return time.Time{}, false
	}
	return time.UnixMicro(at + pgEpochMicros), true
}

// ClockWake returns a channel that receives when the next change of a
// view with a temporal filter may have moved (a commit, a new view, a
// clock setting).
func (e *Engine) ClockWake() <-chan struct{} {
	e.clockMu.Lock()
	defer e.clockMu.Unlock()
	if e.clockWake == nil {
		e.clockWake = make(chan struct{}, 1)
	}
	return e.clockWake
}

// SetOnClockWake sets a function called (without blocking, perhaps under
// the engine's lock: it must not call the engine) whenever ClockWake is
// signalled: the owner of the engine starts its timer there.
func (e *Engine) SetOnClockWake(fn func()) {
	e.clockMu.Lock()
	defer e.clockMu.Unlock()
	e.onWake = fn
}

// wake signals ClockWake without blocking.
func (e *Engine) wake() {
	e.clockMu.Lock()
	c, fn := e.clockWake, e.onWake
	e.clockMu.Unlock()
	if fn != nil {
		fn()
	}
	if c == nil {
		return
	}
	select {
	case c <- struct{}{}:
	default:
	}
}

// nextChange returns the earliest instant at which a temporal filter of
// some view changes its output, or op.Never.
func (e *Engine) nextChange() int64 {
	next := int64(op.Never)
	for _, v := range e.order {
		if zv, ok := v.(*zview); ok {
			for _, t := range zv.c.Temporal {
				next = min(next, t.NextChange())
			}
		}
	}
	return next
}

// temporal reports whether some view has a temporal filter.
func (e *Engine) temporal() bool {
	for _, v := range e.order {
		if zv, ok := v.(*zview); ok && len(zv.c.Temporal) > 0 {
			return true
		}
	}
	return false
}

// catchUp brings the views to time target: a step for each instant
// before or at it at which a row enters or leaves a view, in order. It
// stops at the first step that fails, the views at the instant before.
func (e *Engine) catchUp(target int64) error {
	for {
		at := e.nextChange()
		if at == op.Never || at > target {
			break
		}
		if err := e.tick(max(at, e.now)); err != nil {
			return err
		}
	}
	e.now = max(e.now, target)
	return nil
}

// clockBatch is the clock input's batch for time at.
func clockBatch(at int64) zset.ZSet {
	return zset.ZSet{{Row: value.Row{value.NewTimestamp(value.TimestampTZ, at)}, W: 1}}
}

// tick steps the views with temporal filters to time at, with no table
// changes: the rows whose instant has come enter or leave, and whatever
// reads those views follows. It is a commit of its own for subscribers
// and sinks; the store records nothing (the views are rebuilt at open, at
// the time then).
func (e *Engine) tick(at int64) error {
	deltas := map[string]zset.ZSet{compile.ClockInput: clockBatch(at)}
	var stepped []matView
	abort := func() {
		for _, v := range stepped {
			v.abort()
		}
		e.shared.abort()
	}
	in := &stepInput{deltas: deltas, step: e.ts + 1}
	stepped, name, err := e.prepareViews(in, stepped)
	if err != nil {
		abort()
		pe := *pgerr.Wrap(err)
		pe.Detail = "while maintaining materialized view \"" + name + "\" as the clock advanced to " + value.NewTimestamp(value.TimestampTZ, at).String()
		return &pe
	}
	delete(deltas, compile.ClockInput)
	if err := e.shared.stage(deltas); err != nil {
		abort()
		return err
	}
	if _, err := e.prepareSinks(deltas); err != nil {
		abort()
		return err
	}
	e.ts++
	e.now = at
	for _, v := range stepped {
		v.commit()
	}
	e.shared.commit()
	e.notify(deltas)
	e.afterCommit(stepped, 0)
	return nil
}

// setClock runs SET deltaview.clock: a timestamptz pins the clock there
// (bringing the views to it), '+interval' advances the clock by the
// interval, and RESET, DEFAULT or 'wall' return it to the time source.
func (e *Engine) setClock(s string) (Result, error) {
	hint := "a timestamp with time zone to pin the clock at, '+interval' to advance it, or DEFAULT for the wall clock"
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "default", "wall":
		e.pinned = false
		e.wake()
		return Result{Tag: "SET"}, nil
	}
	var at int64
	if rest, ok := strings.CutPrefix(strings.TrimSpace(s), "+"); ok {
		iv, err := value.Cast(value.NewText(value.Text, rest), value.IntervalType, true)
		if err != nil {
			return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter \"deltaview.clock\": %q", s).WithHint("%s", hint)
		}
		from := e.now
		if e.pinned {
			from = max(from, e.pinnedAt)
		}
		t, err := value.Add(value.NewTimestamp(value.TimestampTZ, from), iv)
		if err != nil {
			return Result{}, err
		}
		at = t.Int()
	} else {
		t, err := value.Cast(value.NewText(value.Text, s), value.TimestampTZType, true)
		if err != nil {
			return Result{}, pgerr.New(pgerr.InvalidParameter, "invalid value for parameter \"deltaview.clock\": %q", s).WithHint("%s", hint)
		}
		at = t.Int()
	}
	if err := e.pinClock(at); err != nil {
		return Result{}, err
	}
	return Result{Tag: "SET"}, nil
}
