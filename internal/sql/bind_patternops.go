package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindPatternCompare binds the operators of PostgreSQL's text_pattern_ops
// and bpchar_pattern_ops (~<~, ~<=~, ~>=~, ~>~): they compare strings byte
// by byte, which is how every string comparison here is made, so each is
// its comparison (<, <=, >=, >) of two strings.
func (b *binder) bindPatternCompare(s *scope, a *pg_query.A_Expr, op string) (expr.Expr, error) {
	l, err := b.bindExpr(s, a.Lexpr)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(s, a.Rexpr)
	if err != nil {
		return nil, err
	}
	lk, rk := l.Type().Kind, r.Type().Kind
	if (!isString(lk) && lk != value.Unknown) || (!isString(rk) && rk != value.Unknown) {
		return nil, b.stmt.errf(a.Location, pgerr.UndefinedFunction, "operator does not exist: %s %s %s", l.Type(), op, r.Type()).
			WithHint("No operator matches the given name and argument types. You might need to add explicit type casts.")
	}
	if lk != value.Char || rk != value.Char {
		// text_pattern_ops, after bpchar's implicit cast to text.
		for _, e := range []*expr.Expr{&l, &r} {
			if *e, err = b.coerce(*e, value.TextType, a.Location); err != nil {
				return nil, err
			}
		}
	}
	return b.binaryOp(strings.Trim(op, "~"), l, r, a.Location)
}
