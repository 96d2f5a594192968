package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindCollationFor binds COLLATION FOR (x), pg_collation_for(x): the name
// of x's collation, quoted as PostgreSQL quotes an identifier, known when
// binding. An explicit COLLATE in x (on x, or on an operand of the
// operators and functions it is made of) names it, else the implicit one
// its columns and aggregates derive (of an array, its elements'), NULL
// for two that conflict; any other string, or array of strings, has the
// collation "default"; a value of a type without
// collations fails when the call runs (42804), as in PostgreSQL. Strings compare byte by byte whatever the name
// (bindCollate).
func (b *binder) bindCollationFor(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	args, err := b.namedArgs("pg_collation_for", f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	if len(args) != 1 {
		return b.callFunc(s, "pg_collation_for", args, nil, f.Location)
	}
	e, err := b.bindExpr(s, args[0])
	if err != nil {
		return nil, err
	}
	k := e.Type().Kind
	if k.IsArray() {
		k = k.Elem()
	}
	if k == value.Unknown {
		// An untyped literal has no collation: NULL, as in PostgreSQL.
		return &expr.Const{V: value.Null, T: value.TextType}, nil
	}
	if !isString(k) {
		// PostgreSQL's error, when the call runs.
		t := e.Type()
		def := &expr.FuncDef{Name: "pg_collation_for", Result: value.TextType, Eval: func([]value.Value) (value.Value, error) {
			return value.Null, pgerr.New(pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
		}}
		return &expr.Func{Def: def, Args: []expr.Expr{e}, T: value.TextType}, nil
	}
	name, id := "default", uint8(0)
	if c := explicitCollation(args[0]); c != "" {
		name = c
	} else if st := b.scopedCollation(s, e); st.strength == collConflict || st.uncollated {
		// Two implicit collations that nothing had to choose between,
		// or a column without one: none, NULL in PostgreSQL.
		return collationName(e, value.Null), nil
	} else if st.named() {
		name, id = st.name, st.id // a column's, an aggregate's, an array's element's
	} else if c := b.columnCollationName(s, e); c != "" {
		name = c // a column's byte-wise collation ("C", "POSIX")
	}
	return collationName(e, value.NewText(value.Text, b.collationForName(s, args[0], e, name, id))), nil
}

// collationName is COLLATION FOR (e) answering v, known when binding: a
// constant, unless e reads columns, which then stay its argument so that
// a grouped query still refuses an ungrouped one (42803), as PostgreSQL
// does.
func collationName(e expr.Expr, v value.Value) expr.Expr {
	if !readsColumns(e) {
		return &expr.Const{V: v, T: value.TextType}
	}
	def := &expr.FuncDef{Name: "pg_collation_for", Result: value.TextType, Eval: func([]value.Value) (value.Value, error) {
		return v, nil
	}}
	return &expr.Func{Def: def, Args: []expr.Expr{e}, T: value.TextType}
}

// columnCollationName is the collation a table's column declares (a
// materialized view's, its query derives) when e is a reference of it,
// or the byte-wise one a subquery's, WITH query's or view's column
// derives; "" otherwise or for none.
func (b *binder) columnCollationName(s *scope, e expr.Expr) string {
	c, ok := e.(*expr.Col)
	if !ok || c.Idx < 0 || c.Idx >= len(s.cols) {
		return ""
	}
	sc := &s.cols[c.Idx]
	if sc.bytewise != "" {
		return sc.bytewise // a subquery's, a WITH query's or a view's
	}
	if sc.origin == "" {
		return ""
	}
	rel, ok := b.cat.Relation(sc.origin)
	if ok && rel.Kind == KindMatView && sc.originCol >= 0 && sc.originCol < len(rel.ColCollations) {
		return rel.ColCollations[sc.originCol].Name // from its query
	}
	if !ok || rel.Def == nil || sc.originCol < 0 || sc.originCol >= len(rel.Def.Cols) {
		return ""
	}
	return rel.Def.Cols[sc.originCol].CollationName()
}

// explicitCollation is the collation an explicit COLLATE gives n: its
// own, or the first found among the operands of its operators and the
// arguments of its function calls (not inside subqueries); "" without
// one.
func explicitCollation(n *pg_query.Node) string {
	switch {
	case n == nil:
		return ""
	case n.GetCollateClause() != nil:
		names := n.GetCollateClause().Collname
		return names[len(names)-1].GetString_().Sval
	case n.GetAExpr() != nil:
		if c := explicitCollation(n.GetAExpr().Lexpr); c != "" {
			return c
		}
		return explicitCollation(n.GetAExpr().Rexpr)
	case n.GetFuncCall() != nil:
		for _, a := range n.GetFuncCall().Args {
			if c := explicitCollation(a); c != "" {
				return c
			}
		}
	case n.GetTypeCast() != nil:
		return explicitCollation(n.GetTypeCast().Arg)
	}
	return ""
}

// quoteIdent quotes an identifier as PostgreSQL's quote_identifier does:
// only when it is not all lower-case letters, digits and underscores
// (not starting with a digit), or is a reserved word such as default.
func quoteIdent(s string) string {
	plain := s != "" && !(s[0] >= '0' && s[0] <= '9') && s != "default"
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			plain = false
		}
	}
	if plain {
		return s
	}
	out := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' {
			out = append(out, '"')
		}
		out = append(out, s[i])
	}
	return string(append(out, '"'))
}
