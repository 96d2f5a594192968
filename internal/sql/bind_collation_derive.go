package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/value"
)

// Collation derivation for explicit ICU collations. An explicit COLLATE
// inside an operator's operands or a function's arguments is the
// collation of the result, as in PostgreSQL: upper(s COLLATE "en-x-icu")
// sorts under en-x-icu. A value carries its collation (expr.Collate), but
// a function builds a new string without it; deriveCollation gives the
// result back the collation its arguments had.

// deriveCollation wraps e, bound from n, in the ICU collation that an
// explicit COLLATE among n's operands gives it, when e is a string that
// does not apply it itself.
func (b *binder) deriveCollation(n *pg_query.Node, e expr.Expr) expr.Expr {
	if n.GetCollateClause() != nil {
		return e // bindCollate applied it
	}
	switch k := e.Type().Kind; k {
	case value.Text, value.Varchar, value.Char:
	default:
		return e
	}
	if c, ok := e.(*expr.Collate); ok && c.ID != 0 {
		return e
	}
	name := derivedCollation(n)
	if name == "" {
		return e
	}
	if c := value.LookupCollation(name); c != nil {
		return &expr.Collate{E: e, ID: c.ID, Name: c.Name, Derived: true}
	}
	if uc := b.userCollationOf([]string{name}); uc != nil && uc.ID != 0 {
		return &expr.Collate{E: e, ID: uc.ID, Name: uc.Name, Derived: true}
	}
	return e
}

// collationMismatch refuses an operator or a function call whose operands
// carry different explicit collations (42P21), as PostgreSQL does, at the
// second one's COLLATE.
func (b *binder) collationMismatch(n *pg_query.Node) error {
	var ops []*pg_query.Node
	switch {
	case n.GetAExpr() != nil:
		ops = []*pg_query.Node{n.GetAExpr().Lexpr, n.GetAExpr().Rexpr}
	case n.GetFuncCall() != nil:
		ops = n.GetFuncCall().Args
	default:
		return nil
	}
	first := ""
	for _, op := range ops {
		cc := explicitCollateClause(op)
		if cc == nil {
			continue
		}
		names := cc.Collname
		name := names[len(names)-1].GetString_().Sval
		switch {
		case first == "":
			first = name
		case name != first:
			return b.stmt.errf(cc.Location, "42P21", "collation mismatch between explicit collations \"%s\" and \"%s\"", first, name)
		}
	}
	return nil
}

// explicitCollateClause is the COLLATE clause explicitCollation finds in
// n, nil without one.
func explicitCollateClause(n *pg_query.Node) *pg_query.CollateClause {
	switch {
	case n == nil:
		return nil
	case n.GetCollateClause() != nil:
		return n.GetCollateClause()
	case n.GetAExpr() != nil:
		if c := explicitCollateClause(n.GetAExpr().Lexpr); c != nil {
			return c
		}
		return explicitCollateClause(n.GetAExpr().Rexpr)
	case n.GetFuncCall() != nil:
		for _, a := range n.GetFuncCall().Args {
			if c := explicitCollateClause(a); c != nil {
				return c
			}
		}
	case n.GetTypeCast() != nil:
		return explicitCollateClause(n.GetTypeCast().Arg)
	}
	return nil
}

// derivedCollation is explicitCollation extended to the values COALESCE,
// GREATEST/LEAST and CASE choose among, whose explicit collation is the
// result's too: without it some rows would carry the collation and others
// not, and a sort of them would mix two orders.
func derivedCollation(n *pg_query.Node) string {
	var args []*pg_query.Node
	switch {
	case n.GetCoalesceExpr() != nil:
		args = n.GetCoalesceExpr().Args
	case n.GetMinMaxExpr() != nil:
		args = n.GetMinMaxExpr().Args
	case n.GetCaseExpr() != nil:
		for _, w := range n.GetCaseExpr().Args {
			args = append(args, w.GetCaseWhen().GetResult())
		}
		args = append(args, n.GetCaseExpr().Defresult)
	default:
		return explicitCollation(n)
	}
	for _, a := range args {
		if c := explicitCollation(a); c != "" {
			return c
		}
	}
	return ""
}
