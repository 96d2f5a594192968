package sql

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// valuesHaveSubLinks reports whether an item of a VALUES list holds a
// subquery.
func valuesHaveSubLinks(lists []*pg_query.Node) bool {
	for _, l := range lists {
		for _, it := range l.GetList().GetItems() {
			if hasSubLink(it) {
				return true
			}
		}
	}
	return false
}

// bindValuesSubqueries binds a VALUES list whose items hold subqueries
// (VALUES (1), ((SELECT max(c) FROM u)), and in LATERAL, correlated ones):
// in each row, the items with subqueries as a select list without FROM,
// where subqueries bind as they do in any select list, the others as
// VALUES binds them (an untyped literal stays untyped until the column's
// type is known); the rows converted to their columns' common type as
// VALUES converts them, and appended in order.
func (b *binder) bindValuesSubqueries(lists []*pg_query.Node) (plan.Node, error) {
	width := len(lists[0].GetList().GetItems())
	rows := make([]plan.Node, len(lists))
	empty := &scope{}
	for r, l := range lists {
		items := l.GetList().GetItems()
		if len(items) != width {
			return nil, b.stmt.errf(nodeLoc(items[0], -1), pgerr.SyntaxError, "VALUES lists must all be the same length")
		}
		sel := &pg_query.SelectStmt{Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
		exprs := make([]expr.Expr, width)
		for c, it := range items {
			if !hasSubLink(it) {
				e, err := b.bindExpr(empty, it)
				if err != nil {
					return nil, err
				}
				exprs[c] = e
				continue
			}
			sel.TargetList = append(sel.TargetList, &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
				Name: fmt.Sprintf("column%d", c+1), Val: it, Location: nodeLoc(it, -1)}}})
		}
		var in plan.Node = &plan.Values{Rows: [][]expr.Expr{{}}}
		if len(sel.TargetList) > 0 {
			p, err := b.bindSimpleSelect(sel)
			if err != nil {
				return nil, err
			}
			in = p
		}
		proj := &plan.Project{Input: in}
		k := 0
		for c, e := range exprs {
			if e == nil {
				ic := in.Columns()[k]
				e = &expr.Col{Idx: k, T: ic.Type, Name: ic.Name}
				k++
			}
			proj.Exprs = append(proj.Exprs, e)
			proj.Cols = append(proj.Cols, plan.Column{Name: fmt.Sprintf("column%d", c+1), Type: e.Type()})
		}
		rows[r] = proj
	}
	cols := make([]plan.Column, width)
	for c := range width {
		ts := make([]value.Type, len(rows))
		for r, p := range rows {
			ts[r] = p.Columns()[c].Type
		}
		t, err := expr.CommonType(ts, "VALUES")
		if err != nil {
			// PostgreSQL points at the first item that does not match
			// the ones before it.
			at := 0
			for at+1 < len(ts) {
				if _, e := expr.CommonType(ts[:at+2], "VALUES"); e != nil {
					at++
					break
				}
				at++
			}
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(lists[at].GetList().Items[c], -1)))
		}
		if t.Kind == value.Unknown {
			t = value.TextType
		}
		cols[c] = plan.Column{Name: fmt.Sprintf("column%d", c+1), Type: t}
	}
	out := &plan.UnionAll{Cols: cols}
	for r, p := range rows {
		proj := p.(*plan.Project)
		proj.Cols = cols
		for c, e := range proj.Exprs {
			e, err := b.coerceCommon(e, cols[c].Type, "VALUES", lists[r].GetList().Items[c], -1)
			if err != nil {
				return nil, err
			}
			proj.Exprs[c] = e
		}
		out.Inputs = append(out.Inputs, proj)
	}
	return out, nil
}
