package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// builtinTriggerCall binds a call of suppress_redundant_updates_trigger()
// in an expression: as PostgreSQL's, it binds, and fails when evaluated,
// not being fired by a trigger (39P01). Its result, of type trigger, is
// never made, so it is typed text, as no trigger type is kept. ok is
// false for other functions; a view refuses it (0A000).
func (b *binder) builtinTriggerCall(name string, es []expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	if name != SuppressRedundantName || len(es) != 0 {
		return nil, false, nil
	}
	if b.forView {
		// PostgreSQL refuses a column of type trigger (42P16), which a
		// text-typed call cannot tell apart from other uses of it.
		return nil, true, b.refuse(loc, "%s() in a materialized view is not supported", name)
	}
	return &expr.Raise{Code: "39P01", // trigger_protocol_violated
		Msg: SuppressRedundantName + ": must be called as trigger", T: value.TextType}, true, nil
}
