package sql

import "github.com/deltaview/deltaview/internal/expr"

// intervalText makes a cast of intervals to a string type in an ad-hoc
// statement write them in the IntervalStyle of the session that runs it
// (expr.IntervalText). A view's casts, which no session runs, and a
// column's default keep the postgres style.
func (b *binder) intervalText(e expr.Expr) expr.Expr {
	c, ok := e.(*expr.Cast)
	if !ok || b.stmtClock == nil || b.forView || !c.To.Kind.IsString() || !expr.HoldsInterval(c.E.Type().Kind) {
		return e
	}
	return &expr.IntervalText{C: b.stmtClock, Cast: c}
}
