package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// LIMIT and OFFSET. Their arguments read no column of the query (42P10,
// as in PostgreSQL) but may hold subqueries of any kind, which run once,
// before the query's first row: they are bound over a single empty row,
// as the select list of a query without FROM is, and the plan of that row
// with the subqueries' values is the Limit's Params.

// bindLimit adds LIMIT and OFFSET, evaluated once, over p. sc is the scope
// of the query's input (nil when there is none).
func (b *binder) bindLimit(sel *pg_query.SelectStmt, p plan.Node, sc *scope, hasLimit bool) (plan.Node, error) {
	if !hasLimit {
		return p, nil
	}
	lim := &plan.Limit{Input: p}
	params := &scope{allowScalar: true}
	for _, x := range []struct {
		n    *pg_query.Node
		dst  *expr.Expr
		what string
	}{{sel.LimitCount, &lim.Count, "LIMIT"}, {sel.LimitOffset, &lim.Offset, "OFFSET"}} {
		if x.n == nil {
			continue
		}
		if c := x.n.GetAConst(); c != nil && c.Isnull {
			continue // LIMIT NULL / LIMIT ALL
		}
		e, err := b.bindLimitExpr(params, sc, x.n, x.what, nodeLoc(x.n, -1))
		if err != nil {
			return nil, err
		}
		*x.dst = e
	}
	if len(params.pending) > 0 {
		lim.Params = applyPending(params, &plan.Values{Rows: [][]expr.Expr{{}}})
	}
	return lim, nil
}

// bindLimitExpr binds the argument n of LIMIT or OFFSET (what) in params
// and converts it to bigint as PostgreSQL assigns it, an error of the
// conversion at loc. A reference to a column of the query, whose input
// scope is sc, is 42P10.
func (b *binder) bindLimitExpr(params, sc *scope, n *pg_query.Node, what string, loc int32) (expr.Expr, error) {
	e, err := b.bindExpr(params, n)
	if err != nil {
		return nil, b.limitVariable(sc, n, what, err)
	}
	return b.limitCoerce(e, what, loc)
}

// limitVariable turns err, the failure to bind n without the query's
// columns, into PostgreSQL's 42P10 when n binds with them: n reads a
// column of the query, and err points at it.
func (b *binder) limitVariable(sc *scope, n *pg_query.Node, what string, err error) error {
	code := pgerr.Code(err)
	if sc == nil || len(sc.cols) == 0 || (code != pgerr.UndefinedColumn && code != pgerr.UndefinedTable) {
		return err
	}
	probe := &scope{cols: append([]scopeCol(nil), sc.cols...), star: sc.star, allowScalar: true}
	if _, perr := b.bindExpr(probe, n); perr != nil {
		return err
	}
	return &pgerr.Error{Code: pgerr.InvalidColumnRef, Message: "argument of " + what + " must not contain variables", Position: pgerr.Wrap(err).Position}
}

// limitCoerce converts e, the argument of LIMIT or OFFSET (what), to
// bigint in an assignment context: numbers of every kind round to it.
func (b *binder) limitCoerce(e expr.Expr, what string, loc int32) (expr.Expr, error) {
	from := e.Type().Kind
	if from != value.Unknown && from != value.Int8 && !isNumeric(from) {
		return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "argument of %s must be type bigint, not type %s", what, e.Type())
	}
	out, err := expr.Coerce(e, value.Int8Type, from != value.Unknown && !value.CanCast(from, value.Int8, false))
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
	}
	return out, nil
}

// viewLimitArg returns the argument n of a view's LIMIT or OFFSET (what)
// with its trivial subqueries inlined. Any other subquery is refused: one
// that reads tables would change the view's number of rows with them.
func (b *binder) viewLimitArg(n *pg_query.Node, what string) (*pg_query.Node, error) {
	n = proto.Clone(n).(*pg_query.Node)
	if loc := inlineConstSubqueries(n); loc >= 0 {
		return nil, b.refuse(loc, "a subquery in %s is not maintained in a view", what).
			WithHint("write the number as a constant, or apply the %s when reading the view", what)
	}
	return n, nil
}

// inlineConstSubqueries replaces, in the argument n of a view's LIMIT or
// OFFSET, each scalar subquery that is a bare SELECT of one expression
// (no FROM, WHERE, grouping, ordering or set operation; no aggregate,
// window or set-returning call) by that expression, which is its value.
// It returns the location of the first subquery it cannot inline, or -1.
func inlineConstSubqueries(n *pg_query.Node) int32 {
	first := int32(-1)
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n == nil || first >= 0 {
			return
		}
		if sl := n.GetSubLink(); sl != nil {
			if x := trivialSubquery(sl); x != nil {
				n.Node = x.Node
				walk(n)
				return
			}
			first = sl.Location
			return
		}
		forEachChild(n, walk)
	}
	walk(n)
	return first
}

// trivialSubquery returns the expression of sl when sl is (SELECT x) with
// nothing else, x calling no aggregate, window or set-returning function.
func trivialSubquery(sl *pg_query.SubLink) *pg_query.Node {
	sel := sl.Subselect.GetSelectStmt()
	if sl.SubLinkType != pg_query.SubLinkType_EXPR_SUBLINK || sel == nil || sel.Op != pg_query.SetOperation_SETOP_NONE ||
		len(sel.TargetList) != 1 || len(sel.FromClause) > 0 || sel.WhereClause != nil || len(sel.GroupClause) > 0 ||
		sel.HavingClause != nil || len(sel.WindowClause) > 0 || len(sel.DistinctClause) > 0 || len(sel.SortClause) > 0 ||
		sel.LimitCount != nil || sel.LimitOffset != nil || sel.WithClause != nil || len(sel.ValuesLists) > 0 ||
		len(sel.LockingClause) > 0 || sel.IntoClause != nil {
		return nil
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Val == nil || rt.Val.GetColumnRef() != nil || hasAggregate(rt.Val) || hasWindowCall(rt.Val) || hasSRF(rt.Val) {
		return nil
	}
	return rt.Val
}
