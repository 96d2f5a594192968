package sql

import (
	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/plan"
	"github.com/deltaview/deltaview/internal/value"
)

// catalogTableOID returns the scan p of the catalog table rel followed by
// its tableoid system column, the catalog's fixed oid, when the statement
// names a system column: psql's queries join pg_description on
// classoid = x.tableoid. The catalogs' other system columns are not
// there (their rows are computed, not stored). ok is false for a system
// view, which has no system columns, as in PostgreSQL.
func (b *binder) catalogTableOID(rel *Relation, p plan.Node) (plan.Node, bool) {
	if rel.CatalogOID == 0 || !b.stmt.SystemColumns && !mentionsSystemColumn(b.stmt.SQL) {
		return nil, false
	}
	tableoid := plan.SystemColumns[plan.RowSystemColumns]
	cols := append(append(make([]plan.Column, 0, len(rel.Cols)+1), rel.Cols...), tableoid)
	exprs := make([]expr.Expr, len(cols))
	for i, c := range rel.Cols {
		exprs[i] = &expr.Col{Idx: i, T: c.Type, Name: c.Name}
	}
	exprs[len(rel.Cols)] = &expr.Const{V: value.NewOid(rel.CatalogOID), T: value.OidType}
	return &plan.Project{Input: p, Exprs: exprs, Cols: cols}, true
}
