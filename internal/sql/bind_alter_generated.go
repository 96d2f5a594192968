package sql

import (
	"fmt"
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/pgerr"
)

// ALTER TABLE over stored generated columns, as PostgreSQL 15: DROP
// EXPRESSION makes a generated column a plain one keeping its values; a
// column an expression reads keeps its type and is dropped with the
// generated columns over it (CASCADE), renamed with the expressions
// following it.

// genExpr returns the GENERATED … STORED constraint of column cd, nil
// for a column that is not generated.
func genExpr(cd *pg_query.ColumnDef) *pg_query.Constraint {
	for _, n := range cd.Constraints {
		if c := n.GetConstraint(); c.GetContype() == pg_query.ConstrType_CONSTR_GENERATED {
			return c
		}
	}
	return nil
}

// genReaders are the generated columns of w whose expressions read col.
func (w *alterWork) genReaders(col string) []string {
	var out []string
	for _, cd := range w.cols() {
		if g := genExpr(cd); g != nil && cd.Colname != col && refersTo(g.RawExpr, col) {
			out = append(out, cd.Colname)
		}
	}
	return out
}

// alterGenerated runs the part of an ALTER TABLE command that concerns
// generated columns; done is set when the command is wholly handled.
func (b *binder) alterGenerated(w *alterWork, at *AlterTable, cmd *pg_query.AlterTableCmd) (done bool, err error) {
	switch cmd.Subtype {
	case pg_query.AlterTableType_AT_DropExpression:
		cd, _ := w.col(cmd.Name)
		if cd == nil {
			return true, colErr(pgerr.UndefinedColumn, "column %q of relation %q does not exist", cmd.Name, w.name)
		}
		if genExpr(cd) == nil {
			if cmd.MissingOk {
				at.Notices = append(at.Notices, fmt.Sprintf("column %q of relation %q is not a stored generated column, skipping", cmd.Name, w.name))
				return true, nil
			}
			return true, colErr("55000", "column %q of relation %q is not a stored generated column", cmd.Name, w.name)
		}
		if rel, ok := b.cat.Relation(w.name); ok && at.Only && len(rel.Inherit) > 0 {
			return true, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE / DROP EXPRESSION must be applied to child tables too")
		}
		cd.Constraints = slices.DeleteFunc(cd.Constraints, func(n *pg_query.Node) bool {
			return n.GetConstraint().GetContype() == pg_query.ConstrType_CONSTR_GENERATED
		})
		// The inheritance descendants drop theirs too, as in PostgreSQL.
		at.ColumnCmds = append(at.ColumnCmds, "ALTER COLUMN "+QuoteIdent(cmd.Name)+" DROP EXPRESSION IF EXISTS")
		return true, nil
	case pg_query.AlterTableType_AT_SetExpression:
		return true, pgerr.New(pgerr.FeatureNotSupported, "ALTER TABLE … ALTER COLUMN … SET EXPRESSION is not supported").
			WithHint("PostgreSQL 15 has none: drop the column and add it again with ADD COLUMN … GENERATED ALWAYS AS (…) STORED")
	case pg_query.AlterTableType_AT_ColumnDefault:
		if cd, _ := w.col(cmd.Name); cd != nil && genExpr(cd) != nil {
			err := colErr(pgerr.SyntaxError, "column %q of relation %q is a generated column", cmd.Name, w.name)
			if cmd.Def == nil {
				err = err.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION instead.")
			}
			return true, err
		}
	case pg_query.AlterTableType_AT_AlterColumnType:
		if r := w.genReaders(cmd.Name); len(r) > 0 {
			return true, pgerr.New(pgerr.FeatureNotSupported, "cannot alter type of a column used by a generated column").
				WithDetail("Column %q is used by generated column %q.", cmd.Name, r[0])
		}
	case pg_query.AlterTableType_AT_DropColumn:
		return false, w.dropGenReaders(at, cmd)
	}
	return false, nil
}

// dropGenReaders drops, with CASCADE, the generated columns that read
// the column cmd drops, and refuses the command without (2BP01).
func (w *alterWork) dropGenReaders(at *AlterTable, cmd *pg_query.AlterTableCmd) error {
	r := w.genReaders(cmd.Name)
	if len(r) == 0 {
		return nil
	}
	lines := make([]string, len(r))
	for i, c := range r {
		lines[i] = fmt.Sprintf("column %s of table %s depends on column %s of table %s", c, w.name, cmd.Name, w.name)
	}
	if cmd.Behavior != pg_query.DropBehavior_DROP_CASCADE {
		return pgerr.New(pgerr.DependentObjects, "cannot drop column %s of table %s because other objects depend on it", cmd.Name, w.name).
			WithDetail("%s", strings.Join(lines, "\n")).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	}
	if len(r) == 1 {
		at.Notices = append(at.Notices, fmt.Sprintf("drop cascades to column %s of table %s", r[0], w.name))
	} else {
		at.Notices = append(at.Notices, fmt.Sprintf("drop cascades to %d other objects\nDETAIL: drop cascades to column %s of table %s", len(r),
			strings.Join(r, " of table "+w.name+"\ndrop cascades to column "), w.name))
	}
	for _, c := range r {
		_, i := w.col(c)
		w.cs.TableElts = slices.DeleteFunc(w.cs.TableElts, func(el *pg_query.Node) bool {
			if cd := el.GetColumnDef(); cd != nil {
				return cd.Colname == c
			}
			k := el.GetConstraint()
			return k != nil && (slices.Contains(keyNames(k), c) || refersTo(k.RawExpr, c))
		})
		w.origin = slices.Delete(w.origin, i, i+1)
		at.Dropped = append(at.Dropped, c)
	}
	return nil
}

// renameGenerated renames the references to column from in the
// generation expressions of w's columns.
func (w *alterWork) renameGenerated(from, to string) {
	for _, cd := range w.cols() {
		if g := genExpr(cd); g != nil {
			columnRefs(g.RawExpr, func(cr *pg_query.ColumnRef) {
				if s := cr.Fields[len(cr.Fields)-1].GetString_(); s != nil && s.Sval == from {
					s.Sval = to
				}
			})
		}
	}
}
