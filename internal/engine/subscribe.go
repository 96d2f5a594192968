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
// that changes it, under the commit's logical time. The delta is valid only
// during the call. A commit whose changes to the view cancel out calls
// nothing. The returned function ends the subscription.
func (e *Engine) Subscribe(view string, fn func(ts uint64, delta zset.ZSet)) (func(), error) {
	if _, ok := e.views[view]; !ok && e.pviews[view] == nil {
		return nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", view)
	}
	s := &subscription{view: view, fn: fn}
	e.subs = append(e.subs, s)
	return func() {
		for i, x := range e.subs {
			if x == s {
				e.subs = append(e.subs[:i], e.subs[i+1:]...)
				return
			}
		}
	}, nil
}

// subscribeStmt is SUBSCRIBE v: from now on, each commit that changes v
// adds a result set (ts, diff, v's columns…) after the statement that
// committed.
func (e *Engine) subscribeStmt(name string) (Result, error) {
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
	_, err := e.Subscribe(name, func(ts uint64, delta zset.ZSet) {
		res := Result{Columns: cols, HasRows: true}
		for _, en := range delta {
			row := make(value.Row, 0, len(cols))
			row = append(row, value.NewInt(value.Int8, int64(ts)), value.NewInt(value.Int8, en.W))
			res.Rows = append(res.Rows, append(row, en.Row...))
		}
		e.pending = append(e.pending, res)
	})
	return Result{Tag: "SUBSCRIBE"}, err
}

func (e *Engine) notify(deltas map[string]zset.ZSet) {
	for _, s := range e.subs {
		if d := deltas[s.view]; len(d) > 0 {
			s.fn(e.ts, d)
		}
	}
}
