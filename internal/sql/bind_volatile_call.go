package sql

import "github.com/deltaview/deltaview/internal/expr"

// A call of a VOLATILE SQL function whose body is a query (it reads
// tables) in an INSERT or an UPDATE runs the function at each call, as
// PostgreSQL runs a volatile function it cannot inline, rather than as
// the subquery of its body: each call then reads the tables as they are
// when it runs, the rows the statement wrote before included (the engine
// makes such rows one at a time). A body that is one expression is still
// inlined; its volatile calls are bound so in turn.
//
// A STABLE or IMMUTABLE one whose body is a query runs at each call too
// where a subquery cannot go (an UPDATE's SET, a DELETE's WHERE, MERGE's
// actions), as PostgreSQL runs any function it does not inline: its
// queries then read the snapshot of the calling query (the engine's
// funcsnapshot.go), as the subquery would.

// volatileCodeCall binds c, a call of a SQL function, as a call run at
// each row when the statement writes and c's function is volatile and
// reads tables, or is not and a subquery cannot stand here; ok is false
// otherwise.
func (b *binder) volatileCodeCall(s *scope, c *userCall) (e expr.Expr, ok bool, err error) {
	fn := c.fn
	switch {
	case !b.writes || b.forView:
		return nil, false, nil
	case (fn.Volatility == "stable" || fn.Volatility == "immutable") && b.subqueryHere(s):
		return nil, false, nil
	case fn.Set || fn.AnyRecord || fn.Generic != nil || fn.outRecord() || fn.recordOf() || fn.RowFields() != nil || len(fn.Cols) != 1:
		return nil, false, nil
	case c.inline() != nil:
		return nil, false, nil
	}
	code := fn.TableCodeForm()
	if code == nil {
		return nil, false, nil
	}
	args, err := b.routineArgs(s, c)
	if err != nil {
		return nil, true, err
	}
	b.useCode(code)
	return checkedResult(&expr.RoutineCall{Name: fn.Name, Sig: fn.Signature() + TableCodeMark, Args: args, T: fn.Cols[0].Type,
		Strict: fn.Strict, C: b.stmtClock}, fn), true, nil
}

// subqueryHere reports whether a subquery may stand in an expression of
// scope s.
func (b *binder) subqueryHere(s *scope) bool {
	_, ok := b.subLinkLevel(s)
	return ok
}
