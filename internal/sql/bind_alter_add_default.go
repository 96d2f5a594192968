package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// PostgreSQL runs an ALTER TABLE's subcommands in passes: DROP DEFAULT
// before ADD COLUMN, ADD COLUMN before SET DEFAULT. So a column the
// statement adds cannot have its default dropped by the same statement
// (42703), and a SET DEFAULT of it gives the column its default for
// later rows only: the existing rows take the ADD COLUMN's own default.

// addedColumnDefault notes, before a SET or DROP DEFAULT of a column the
// statement adds, the column as ADD COLUMN wrote it, whose default fills
// the existing rows (alterDone); nothing for a column the table had.
func (w *alterWork) addedColumnDefault(cmd *pg_query.AlterTableCmd, cd *pg_query.ColumnDef, i int) error {
	if w.origin[i] >= 0 {
		return nil
	}
	if cmd.Def == nil {
		return colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
	}
	if w.added == nil {
		w.added = map[string]*pg_query.ColumnDef{}
	}
	if _, ok := w.added[cd.Colname]; !ok {
		w.added[cd.Colname] = proto.Clone(cd).(*pg_query.ColumnDef)
	}
	return nil
}

// addedFill is the value the existing rows take in the added column name
// when a SET DEFAULT of the same statement changed its default: the ADD
// COLUMN's default (or its domain's), bound alone; ok is false when
// there was no such SET DEFAULT.
func (w *alterWork) addedFill(b *binder, name string) (e expr.Expr, ok bool, err error) {
	cd, ok := w.added[name]
	if !ok {
		return nil, false, nil
	}
	// Only the default decides the value: the column's other
	// constraints are the table's, checked on the rows after.
	cd.Constraints = keepDefault(cd.Constraints)
	cd.IsNotNull = false
	cs := &pg_query.CreateStmt{Relation: w.cs.Relation, Oncommit: w.cs.Oncommit,
		TableElts: []*pg_query.Node{{Node: &pg_query.Node_ColumnDef{ColumnDef: cd}}}}
	sub := &binder{cat: b.cat, stmt: &Stmt{}}
	nb, err := sub.bindCreateTable(cs)
	if err != nil {
		return nil, true, err
	}
	return nb.(*CreateTable).Cols[0].DefaultExpr(), true, nil
}

func keepDefault(cons []*pg_query.Node) []*pg_query.Node {
	var out []*pg_query.Node
	for _, n := range cons {
		if n.GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_DEFAULT {
			out = append(out, n)
		}
	}
	return out
}
