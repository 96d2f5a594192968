package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// builtinTriggerCall binds a call of suppress_redundant_updates_trigger()
// in an expression: as PostgreSQL's, it binds, and fails when evaluated,
// not being fired by a trigger (39P01). Its result, of type trigger, is
// never made. ok is false for other functions; a view refuses it (0A000).
func (b *binder) builtinTriggerCall(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	if name != SuppressRedundantName || len(es) != 0 {
		return nil, false, nil
	}
	if b.forView {
		// PostgreSQL fails when the view's query runs the call, which
		// maintaining it cannot do ahead of the rows.
		return nil, true, b.refuse(loc, "%s() in a materialized view is not supported", name)
	}
	return &expr.Raise{Code: "39P01", // trigger_protocol_violated
		Msg: SuppressRedundantName + ": must be called as trigger", T: value.TriggerType}, true, nil
}

// valuelessCast is the error of a cast to trigger or event_trigger,
// which have no values: a literal's or a string's input fails (0A000,
// at the literal), another type has no cast (42846).
func (b *binder) valuelessCast(e expr.Expr, t value.Type, c *pg_query.TypeCast) error {
	switch k := e.Type().Kind; {
	case k == value.Unknown:
		return pgerr.Wrap(value.ErrPseudoValue(t.Kind)).At(b.stmt.SQL, int(nodeLoc(c.Arg, c.Location)))
	case k.IsString():
		return value.ErrPseudoValue(t.Kind) // the I/O cast fails as it runs
	}
	return b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to %s", e.Type(), t)
}
