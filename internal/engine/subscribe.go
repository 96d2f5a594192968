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
// that changes it, under the commit's logical time. The delta is valid only
// during the call. A commit whose changes to the view cancel out calls
// nothing. The returned function ends the subscription.
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
// once with the registration: the deltas fn receives continue from
// exactly those rows. fn returns false to end the subscription (it is
// called no more); end, when not nil, is called instead of fn when the view
// is dropped. Both run inside the engine's calls, in commit order: they
// must neither block nor call the engine.
func (e *Engine) Watch(view string, snapshot bool, fn func(ts uint64, delta zset.ZSet) bool, end func(error)) (Snapshot, func(), error) {
	var snap Snapshot
	if v, ok := e.views[view]; ok {
		if snapshot {
			snap.Rows = make(zset.ZSet, 0, v.c.View.Len())
			v.c.View.Rows(func(r value.Row, w int64) bool {
				snap.Rows = append(snap.Rows, zset.Entry{Row: r, W: w})
				return true
			})
		}
	} else if pv, ok := e.pviews[view]; ok {
		if snapshot {
			rows := pv.sortedRows()
			snap.Rows = make(zset.ZSet, len(rows))
			for i, r := range rows {
				snap.Rows[i] = zset.Entry{Row: r, W: 1}
			}
		}
	} else {
		return Snapshot{}, nil, pgerr.New(pgerr.UndefinedTable, "materialized view %q does not exist", view)
	}
	snap.TS = e.ts
	s := &subscription{view: view, fn: fn, end: end}
	e.subs = append(e.subs, s)
	return snap, func() {
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
