package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// bindHypothetical binds a hypothetical-set aggregate, f(a1, …, an)
// WITHIN GROUP (ORDER BY k1, …, kn): each ai and ki are brought to their
// common type, as PostgreSQL matches its VARIADIC "any" arguments, and
// the direct arguments make the row (a RowCons in call.Direct) whose place
// among the group's rows, ordered by the keys, is the result.
func (b *binder) bindHypothetical(as *aggScope, call *plan.AggCall, f *pg_query.FuncCall) error {
	in := as.input
	if f.AggDistinct {
		return b.stmt.errf(f.Location, pgerr.SyntaxError, "cannot use DISTINCT with WITHIN GROUP")
	}
	if len(f.Args) != len(f.AggOrder) {
		return b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function %s(%s) does not exist", call.Name, b.hypotheticalSignature(in, f)).
			WithHint("To use the hypothetical-set aggregate %s, the number of hypothetical direct arguments (here %d) must match the number of ordering columns (here %d).", call.Name, len(f.Args), len(f.AggOrder))
	}
	direct := make([]expr.Expr, len(f.Args))
	for i, a := range f.Args {
		sb := f.AggOrder[i].GetSortBy()
		d, err := b.bindExpr(in, a)
		if err != nil {
			return err
		}
		if err := b.directGrouped(as, d, a); err != nil {
			return err
		}
		k, err := b.bindExpr(in, sb.Node)
		if err != nil {
			return err
		}
		t, err := expr.CommonType([]value.Type{d.Type(), k.Type()}, "WITHIN GROUP")
		if err != nil {
			return pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
		}
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		if direct[i], err = b.coerce(d, t, nodeLoc(a, f.Location)); err != nil {
			return err
		}
		if k, err = b.coerce(k, t, nodeLoc(sb.Node, f.Location)); err != nil {
			return err
		}
		desc, nullsFirst, err := b.sortDirection(sb)
		if err != nil {
			return err
		}
		call.OrderBy = append(call.OrderBy, plan.SortKey{Expr: k, Desc: desc, NullsFirst: nullsFirst})
	}
	call.Arg = call.OrderBy[0].Expr
	call.Direct = expr.NewRowCons(direct)
	return nil
}

// hypotheticalSignature is f's arguments' types as PostgreSQL prints them
// in an error: the direct ones, then the sorted ones.
func (b *binder) hypotheticalSignature(in *scope, f *pg_query.FuncCall) string {
	sig := ""
	add := func(n *pg_query.Node) {
		t := "unknown"
		if e, err := b.bindExpr(in, n); err == nil {
			t = e.Type().String()
		}
		if sig != "" {
			sig += ", "
		}
		sig += t
	}
	for _, a := range f.Args {
		add(a)
	}
	for _, o := range f.AggOrder {
		add(o.GetSortBy().Node)
	}
	return sig
}

// directGrouped checks that d, an ordered-set aggregate's direct argument
// bound over the input rows (n its syntax), reads the input only through
// the query's GROUP BY: PostgreSQL evaluates it once per group, over the
// grouped row (42803 otherwise, at the first column that is not grouped).
func (b *binder) directGrouped(as *aggScope, d expr.Expr, n *pg_query.Node) error {
	grouped := func(c int) bool {
		for _, g := range as.groups {
			if gc, ok := g.(*expr.Col); ok && gc.Idx == c {
				return true
			}
		}
		return false
	}
	for _, g := range as.groups {
		if exprKey(g) == exprKey(d) {
			return nil
		}
	}
	var bad error
	walkNodes(n.ProtoReflect(), func(m *pg_query.Node) {
		cr := m.GetColumnRef()
		if cr == nil || bad != nil {
			return
		}
		e, err := b.bindExpr(as.input, m)
		if c, ok := e.(*expr.Col); err == nil && ok && !grouped(c.Idx) {
			bad = b.stmt.errf(cr.Location, pgerr.GroupingError, "column %q must appear in the GROUP BY clause or be used in an aggregate function", as.input.exprName(e))
		}
	})
	return bad
}
