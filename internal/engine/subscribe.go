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
	fn   func(ts uint64, delta zset.ZSet)
}

// Subscribe calls fn with the view's consolidated delta after each commit
// that changes it, under the commit's logical time, in commit order. The
// delta is valid only during the call. fn runs while the committing
// session holds the engine's write lock: it must not call the engine. A
// commit whose changes to the view cancel out calls nothing. The returned
// function ends the subscription. Subscribe and the function it returns
// may be called concurrently with commits.
func (e *Engine) Subscribe(view string, fn func(ts uint64, delta zset.ZSet)) (func(), error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.subscribe(view, fn)
	if err != nil {
		return nil, err
	}
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.unsubscribe(s)
	}, nil
}

// subscribe adds a subscription; the caller holds the write lock.
func (e *Engine) subscribe(view string, fn func(ts uint64, delta zset.ZSet)) (*subscription, error) {
	if _, ok := e.views[view]; !ok && e.pviews[view] == nil {
		return nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", view)
	}
	s := &subscription{view: view, fn: fn}
	e.subs = append(e.subs, s)
	return s, nil
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
	if pv, p := e.pviews[name]; p {
		v, ok = &view{cols: pv.cols}, true
	}
	if !ok {
		if _, plain := e.named[name]; plain {
			return Result{}, pgerr.New(pgerr.WrongObjectType, "%q is not a materialized view", name).
				WithHint("only materialized views are maintained, and so can be subscribed to")
		}
		return Result{}, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", name)
	}
	cols := append([]plan.Column{{Name: "ts", Type: value.Int8Type}, {Name: "diff", Type: value.Int8Type}}, v.cols...)
	sub, err := e.subscribe(name, func(ts uint64, delta zset.ZSet) {
		res := Result{Columns: cols, HasRows: true}
		for _, en := range delta {
			row := make(value.Row, 0, len(cols))
			row = append(row, value.NewInt(value.Int8, int64(ts)), value.NewInt(value.Int8, en.W))
			res.Rows = append(res.Rows, append(row, en.Row...))
		}
		s.inboxMu.Lock()
		s.inbox = append(s.inbox, res)
		s.inboxMu.Unlock()
	})
	if err != nil {
		return Result{}, err
	}
	s.subs = append(s.subs, sub)
	return Result{Tag: "SUBSCRIBE"}, nil
}

func (e *Engine) notify(deltas map[string]zset.ZSet) {
	for _, s := range e.subs {
		if d := deltas[s.view]; len(d) > 0 {
			s.fn(e.ts, d)
		}
	}
}
