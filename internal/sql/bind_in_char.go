package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// hasChar reports whether any of es is char(n), whose comparisons with
// varchar depend on how an IN list is resolved.
func hasChar(es []expr.Expr) bool {
	for _, e := range es {
		if e.Type().Kind == value.Char {
			return true
		}
	}
	return false
}

// charIn binds x IN (items), all[0] being x, as PostgreSQL's
// transformAExprIn does: the items that read no column of this query,
// when there are at least two, are compared in one list of their common
// type with x; every other item by its own = operator. The two differ
// for char(n) beside varchar: char(n) = varchar compares as char(n),
// without trailing spaces, while a list whose common type is varchar
// compares as text.
func (b *binder) charIn(all []expr.Expr, nodes []*pg_query.Node, not bool, loc int32) (expr.Expr, error) {
	l, items := all[0], all[1:]
	var vars, consts []int
	for i, e := range items {
		if len(expr.Columns(e)) > 0 {
			vars = append(vars, i)
		} else {
			consts = append(consts, i)
		}
	}
	var parts []expr.Expr
	single := vars
	if len(consts) > 1 {
		es := []expr.Expr{l}
		ns := []*pg_query.Node{nodes[0]}
		for _, i := range consts {
			es = append(es, items[i])
			ns = append(ns, nodes[i+1])
		}
		if _, err := b.coerceAllCommon(es, ns, "IN", loc); err != nil {
			return nil, err
		}
		parts = append(parts, &expr.InList{E: es[0], List: es[1:], Not: not})
	} else {
		single = make([]int, len(items)) // every item in order, as written
		for i := range single {
			single[i] = i
		}
	}
	op := "="
	if not {
		op = "<>"
	}
	for _, i := range single {
		c, err := b.binaryOp(op, l, items[i], loc)
		if err != nil {
			return nil, err
		}
		parts = append(parts, c)
	}
	switch {
	case len(parts) == 1:
		return parts[0], nil
	case not:
		return &expr.And{Args: parts}, nil
	}
	return &expr.Or{Args: parts}, nil
}
