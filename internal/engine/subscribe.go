package engine

import (
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
	"github.com/deltaview/deltaview/internal/zset"
)

// subscription receives a view's delta after every commit that changes it.
type subscription struct {
	view string
	fn   func(ts uint64, delta zset.ZSet) bool // false ends the subscription
	end  func(error)                           // told when the view is dropped; may be nil
}

// Subscribe calls fn with the view's consolidated delta after each commit
// that changes it, under the commit's logical time, in commit order. The
// delta is valid only during the call. fn runs while the committing
// session holds the engine's write lock: it must not call the engine. A
// commit whose changes to the view cancel out calls nothing. The returned
// function ends the subscription. Subscribe and the function it returns
// may be called concurrently with commits.
func (e *Engine) Subscribe(view string, fn func(ts uint64, delta zset.ZSet)) (func(), error) {
	_, stop, err := e.Watch(view, false, func(ts uint64, delta zset.ZSet) bool { fn(ts, delta); return true }, nil)
	return stop, err
}

// Snapshot is a view's rows with their multiplicities, as of the commit
// at logical time TS.
type Snapshot struct {
	TS   uint64
	Rows zset.ZSet
}

// Watch is Subscribe for a subscriber that hands deltas on to another
// goroutine. With snapshot set it also returns the view's rows, read at
// once with the registration, under the write lock: the deltas fn
// receives continue from exactly those rows. fn returns false to end the
// subscription (it is called no more); end, when not nil, is called
// instead of fn when the view is dropped. Both run inside the engine's
// calls, in commit order: they must neither block nor call the engine.
func (e *Engine) Watch(view string, snapshot bool, fn func(ts uint64, delta zset.ZSet) bool, end func(error)) (Snapshot, func(), error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var snap Snapshot
	v, ok := e.views[view]
	if !ok {
		if e.unpopulated[view] != nil {
			return Snapshot{}, nil, errNotPopulated(view)
		}
		return Snapshot{}, nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", view)
	}
	if snapshot {
		snap.Rows = v.snapshot()
	}
	snap.TS = e.ts
	s := e.subscribe(view, fn, end)
	return snap, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.unsubscribe(s)
	}, nil
}

// subscribe adds a subscription to an existing view; the caller holds
// the write lock.
func (e *Engine) subscribe(view string, fn func(ts uint64, delta zset.ZSet) bool, end func(error)) *subscription {
	s := &subscription{view: view, fn: fn, end: end}
	e.subs = append(e.subs, s)
	return s
}

// unsubscribe ends a subscription; the caller holds the write lock.
func (e *Engine) unsubscribe(s *subscription) {
	for i, x := range e.subs {
		if x == s {
			e.subs = append(e.subs[:i], e.subs[i+1:]...)
			return
		}
	}
}

// subscribeStmt is SUBSCRIBE v: from now on, each commit that changes v,
// by any session, adds a result set (ts, diff, v's columns…) after the
// session's next statement (after the statement that committed, when it
// is the session's own).
func (s *Session) subscribeStmt(name string) (Result, error) {
	e := s.e
	v, ok := e.views[name]
	if !ok {
		if e.unpopulated[name] != nil {
			return Result{}, errNotPopulated(name)
		}
		if _, plain := e.named[name]; plain {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a materialized view", name).
				WithHint("only materialized views are maintained, and so can be subscribed to")
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", name)
	}
	cols := append([]plan.Column{{Name: "ts", Type: value.Int8Type}, {Name: "diff", Type: value.Int8Type}}, v.meta().cols...)
	sub := e.subscribe(name, func(ts uint64, delta zset.ZSet) bool {
		res := Result{Columns: cols, HasRows: true}
		for _, en := range delta {
			row := make(value.Row, 0, len(cols))
			row = append(row, value.NewInt(value.Int8, int64(ts)), value.NewInt(value.Int8, en.W))
			res.Rows = append(res.Rows, append(row, en.Row...))
		}
		s.inboxMu.Lock()
		s.inbox = append(s.inbox, res)
		s.inboxMu.Unlock()
		return true
	}, nil)
	s.subs = append(s.subs, sub)
	return Result{Tag: "SUBSCRIBE"}, nil
}

// notify gives each subscription its view's delta, and forgets those that
// end.
func (e *Engine) notify(deltas map[string]zset.ZSet) {
	kept := e.subs[:0]
	for _, s := range e.subs {
		if d := deltas[s.view]; len(d) > 0 && !s.fn(e.ts, d) {
			continue
		}
		kept = append(kept, s)
	}
	clear(e.subs[len(kept):])
	e.subs = kept
}
