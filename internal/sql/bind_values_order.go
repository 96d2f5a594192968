package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// valuesOrderedByExpr reports whether a VALUES list is ordered by
// something other than its columns' names and positions (ORDER BY
// column1 + 1, ORDER BY -column2), which PostgreSQL evaluates over the
// list's columns.
func valuesOrderedByExpr(sel *pg_query.SelectStmt) bool {
	for _, n := range sel.SortClause {
		k := n.GetSortBy().GetNode()
		if c := k.GetColumnRef(); c != nil && len(c.Fields) == 1 && c.Fields[0].GetString_() != nil {
			continue
		}
		if c := k.GetAConst(); c != nil && c.GetIval() != nil {
			continue
		}
		return true
	}
	return false
}

// orderedValuesAsSelect rewrites VALUES … ORDER BY … LIMIT … as SELECT * FROM
// (VALUES …) AS "*VALUES*" ORDER BY … LIMIT …, the same rows and names,
// so that the ordering expressions bind over the list's columns as in
// any query. The statement's tree is left as it was: it may be bound
// again.
func orderedValuesAsSelect(sel *pg_query.SelectStmt) *pg_query.SelectStmt {
	c := proto.Clone(sel).(*pg_query.SelectStmt)
	inner := &pg_query.SelectStmt{ValuesLists: c.ValuesLists, Op: pg_query.SetOperation_SETOP_NONE, LimitOption: pg_query.LimitOption_LIMIT_OPTION_DEFAULT}
	star := &pg_query.Node{Node: &pg_query.Node_ResTarget{ResTarget: &pg_query.ResTarget{
		Val: &pg_query.Node{Node: &pg_query.Node_ColumnRef{ColumnRef: &pg_query.ColumnRef{
			Fields: []*pg_query.Node{{Node: &pg_query.Node_AStar{AStar: &pg_query.A_Star{}}}}, Location: -1}}},
		Location: -1}}}
	from := &pg_query.Node{Node: &pg_query.Node_RangeSubselect{RangeSubselect: &pg_query.RangeSubselect{
		Subquery: &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: inner}},
		Alias:    &pg_query.Alias{Aliasname: "*VALUES*"}}}}
	c.ValuesLists = nil
	c.TargetList = []*pg_query.Node{star}
	c.FromClause = []*pg_query.Node{from}
	c.WithClause = nil // already in scope: bindSelect pushed it
	return c
}

// setOpOrderError is PostgreSQL's error for an ORDER BY item of a set
// operation that is not one of its output columns: an unknown name is
// 42703, a qualified one 42P01 (the result has no tables), and any
// other expression 0A000 with PostgreSQL's detail and hint.
func (b *binder) setOpOrderError(n *pg_query.Node, loc int32) error {
	at := nodeLoc(n, loc)
	if c := n.GetColumnRef(); c != nil {
		names := make([]string, 0, len(c.Fields))
		for _, f := range c.Fields {
			if s := f.GetString_(); s != nil {
				names = append(names, s.Sval)
			}
		}
		switch {
		case len(names) == 1 && len(c.Fields) == 1:
			return b.stmt.errf(at, pgerr.UndefinedColumn, "column %q does not exist", names[0])
		case len(names) > 1:
			return b.stmt.errf(at, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", names[len(names)-2])
		case len(names) == 1:
			return b.stmt.errf(at, pgerr.UndefinedTable, "missing FROM-clause entry for table %q", strings.Join(names, "."))
		}
	}
	return b.stmt.errf(at, pgerr.FeatureNotSupported, "invalid UNION/INTERSECT/EXCEPT ORDER BY clause").
		WithDetail("Only result column names can be used, not expressions or functions.").
		WithHint("Add the expression/function to every SELECT, or move the UNION into a FROM clause.")
}
