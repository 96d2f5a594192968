package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
)

// indexScope is the scope of an index's expressions and predicate: the
// table's columns.
func indexScope(name string, rel *Relation) *scope {
	sc := &scope{}
	for _, c := range rel.Cols {
		sc.cols = append(sc.cols, scopeCol{qual: name, name: c.Name, typ: c.Type})
	}
	return sc
}

// indexExpr binds an index key's expression over the table's row, as
// PostgreSQL only with immutable functions (its type's operator class
// is the access method's to check: indexKeyClass), and returns its text as
// pg_get_indexdef prints it pretty: a function call bare, anything else
// in parentheses.
func (b *binder) indexExpr(sc *scope, n *pg_query.Node, loc int32) (expr.Expr, string, error) {
	e, err := b.bindExpr(sc, n)
	if err != nil {
		return nil, "", err
	}
	if notImmutable(e) {
		return nil, "", pgerr.New(pgerr.InvalidObjectDef, "functions in index expression must be marked IMMUTABLE")
	}
	text, err := deparseExpr(n)
	if err != nil {
		return nil, "", pgerr.New(pgerr.Internal, "cannot write an index expression: %v", err)
	}
	if n.GetFuncCall() == nil {
		text = "(" + text + ")"
	}
	return e, text, nil
}

// indexWhere binds a partial index's predicate.
func (b *binder) indexWhere(sc *scope, n *pg_query.Node, loc int32) (expr.Expr, string, error) {
	e, err := b.bindExpr(sc, n)
	if err != nil {
		return nil, "", err
	}
	if e, err = b.toBool(e, "WHERE", nodeLoc(n, loc)); err != nil {
		return nil, "", err
	}
	if notImmutable(e) {
		return nil, "", pgerr.New(pgerr.InvalidObjectDef, "functions in index predicate must be marked IMMUTABLE")
	}
	text, err := deparseExpr(n)
	if err != nil {
		return nil, "", pgerr.New(pgerr.Internal, "cannot write an index predicate: %v", err)
	}
	return e, text, nil
}

// indexName is the name PostgreSQL gives an index the statement does not
// name: the table's name, the key's column names (an expression's first
// function name, or "expr"), and "idx" or "key".
func indexName(table string, names []string) string {
	return strings.Join(append([]string{table}, names...), "_") + "_idx"
}

// bindConflictTarget binds ON CONFLICT's target: ON CONSTRAINT name, or
// columns and expressions with an optional WHERE, which the engine
// matches against the table's unique indexes as PostgreSQL infers its
// arbiters.
func (b *binder) bindConflictTarget(in *pg_query.InferClause, rel *Relation, tableScope *scope, out *OnConflict) error {
	if in.Conname != "" {
		out.Constraint = in.Conname
		return nil
	}
	for _, n := range in.IndexElems {
		ie := n.GetIndexElem()
		if ie == nil {
			return b.refuse(in.Location, "this ON CONFLICT target is not supported")
		}
		if ie.Name == "" {
			_, text, err := b.indexExpr(tableScope, ie.Expr, in.Location)
			if err != nil {
				return err
			}
			out.Arbiter, out.ArbiterSQL = append(out.Arbiter, -1), append(out.ArbiterSQL, text)
			continue
		}
		i := colIndex(rel.Cols, ie.Name)
		if i < 0 {
			return b.stmt.errf(in.Location, pgerr.UndefinedColumn, "column %q does not exist", ie.Name)
		}
		out.Arbiter, out.ArbiterSQL = append(out.Arbiter, i), append(out.ArbiterSQL, "")
	}
	if in.WhereClause != nil {
		pred, _, err := b.indexWhere(tableScope, in.WhereClause, in.Location)
		if err != nil {
			return err
		}
		out.ArbiterPred = pred
		conj, err := conjunctTexts(in.WhereClause)
		if err != nil {
			return err
		}
		out.ArbiterWhere = conj
	}
	return nil
}

// conjunctTexts returns the texts of the top-level AND's arguments of n
// (n's own text when it is no AND), for partial indexes' inference.
func conjunctTexts(n *pg_query.Node) ([]string, error) {
	if be := n.GetBoolExpr(); be != nil && be.Boolop == pg_query.BoolExprType_AND_EXPR {
		var out []string
		for _, a := range be.Args {
			c, err := conjunctTexts(a)
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
		}
		return out, nil
	}
	text, err := deparseExpr(n)
	if err != nil {
		return nil, pgerr.New(pgerr.Internal, "cannot write a predicate: %v", err)
	}
	return []string{text}, nil
}

// validateConstraint is ALTER TABLE … VALIDATE CONSTRAINT name: a CHECK
// added NOT VALID becomes valid, and the table's rows are checked
// against it as the new definition's (23514 when one fails, as in
// PostgreSQL); a constraint that is valid already is left as it is.
func (w *alterWork) validateConstraint(name string) error {
	for _, c := range w.constraints() {
		if w.constraintName(c) == name {
			c.SkipValidation = false
			return nil
		}
	}
	return pgerr.New(pgerr.UndefinedObject, "constraint %q of relation %q does not exist", name, w.name)
}
