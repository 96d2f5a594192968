package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// textSearchMatch binds l @@ r when both are strings or untyped literals:
// text @@ text, which matches under the session's
// default_text_search_config. A view, which no session runs, refuses it
// (0A000). ok is false for other operands.
func (b *binder) textSearchMatch(l, r expr.Expr, loc int32) (e expr.Expr, ok bool, err error) {
	textual := func(k value.Kind) bool { return isString(k) || k == value.Unknown }
	if !textual(l.Type().Kind) || !textual(r.Type().Kind) {
		return nil, false, nil
	}
	if b.forView {
		return nil, true, b.refuse(loc, "text @@ text depends on the session's default_text_search_config and cannot be maintained in a view").
			WithHint("match in queries of the view, or store the match in a column when the row is written")
	}
	if b.stmtClock == nil {
		return nil, true, b.refuse(loc, "text @@ text is supported in queries and data changes only")
	}
	if l, err = b.coerce(l, value.TextType, loc); err != nil {
		return nil, true, err
	}
	if r, err = b.coerce(r, value.TextType, loc); err != nil {
		return nil, true, err
	}
	return &expr.TSMatchCall{C: b.stmtClock, L: l, R: r}, true, nil
}
