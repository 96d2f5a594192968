package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindColumnSize binds pg_column_size(x) (expr.ColumnSize). A column of a
// table or a materialized view is a stored value, read with the other
// columns of its row; any other expression a computed one. A column of a
// subquery, a view, a CTE or a function of a type whose size depends on
// how it was stored is refused (0A000): PostgreSQL passes a stored value
// through them as it was stored.
func (b *binder) bindColumnSize(s *scope, f *pg_query.FuncCall) (expr.Expr, error) {
	if len(f.Args) != 1 {
		return nil, b.stmt.errf(f.Location, pgerr.UndefinedFunction, "function pg_column_size with %d arguments does not exist", len(f.Args)).
			WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
	}
	e, err := b.bindExpr(s, f.Args[0])
	if err != nil {
		return nil, err
	}
	if c, ok := e.(*expr.Const); ok && c.T.Kind == value.Unknown {
		// A literal of unknown type is a C string: its bytes and a NUL.
		if c.V.IsNull() {
			return &expr.Const{V: value.Null, T: value.Int4Type}, nil
		}
		return &expr.Const{V: value.NewInt(value.Int4, int64(len(c.V.Str())+1)), T: value.Int4Type}, nil
	}
	if b.forView && !isFixedWidth(e.Type().Kind) && !fixedWidthRow(e.Type()) {
		// A row that PostgreSQL would compress makes the call fail,
		// which would fail the writes of the view's tables.
		return nil, b.refuse(f.Location, "pg_column_size of a value of type %s cannot be maintained in a view", e.Type()).
			WithHint("call it in a query of the view's rows")
	}
	args := []expr.Expr{e, &expr.Const{V: value.NewBool(false), T: value.BoolType}}
	if f.Args[0].GetColumnRef() != nil {
		sc, idxs := b.columnOf(s, e)
		fixed := isFixedWidth(e.Type().Kind)
		switch {
		case sc != nil && sc.origin != "" && b.storedRelation(sc.origin):
			args[1] = &expr.Const{V: value.NewBool(true), T: value.BoolType}
			for _, i := range idxs {
				args = append(args, i)
			}
		case !fixed:
			return nil, b.refuse(f.Location, "pg_column_size of a column of a subquery, a view, a CTE or a function is not supported").
				WithHint("PostgreSQL gives the size the value had where it was stored; call it on a table's column")
		}
	}
	return &expr.Func{Def: expr.ColumnSize, Args: args, T: value.Int4Type}, nil
}

// columnOf is the scope column a column reference e reads, and
// references to the columns of its row (the same relation's columns in
// its scope); nil when e reads none.
func (b *binder) columnOf(s *scope, e expr.Expr) (*scopeCol, []expr.Expr) {
	var cols []scopeCol
	var idx int
	mk := func(i int, c scopeCol) expr.Expr { return &expr.Col{Idx: i, T: c.typ, Name: c.name} }
	switch c := e.(type) {
	case *expr.Col:
		cols, idx = s.cols, c.Idx
	case *expr.Outer:
		if c.Depth < 1 || c.Depth > len(b.outers) {
			return nil, nil
		}
		cols, idx = b.outers[c.Depth-1].cols, c.Idx
		mk = func(i int, sc scopeCol) expr.Expr {
			return &expr.Outer{Depth: c.Depth, Idx: i, T: sc.typ, Name: sc.name}
		}
	default:
		return nil, nil
	}
	if idx >= len(cols) {
		return nil, nil
	}
	sc := &cols[idx]
	var row []expr.Expr
	for i, c := range cols {
		if i != idx && c.origin == sc.origin && c.qual == sc.qual && !c.system && c.originCol >= 0 {
			row = append(row, mk(i, c))
		}
	}
	return sc, row
}

// storedRelation reports whether the relation keyed name keeps its rows:
// a table or a materialized view.
func (b *binder) storedRelation(name string) bool {
	rel, ok := b.cat.Relation(name)
	return ok && (rel.Kind == KindTable || rel.Kind == KindMatView)
}

// isFixedWidth reports whether values of k have one size, however
// stored.
func isFixedWidth(k value.Kind) bool {
	switch k {
	case value.Text, value.Varchar, value.Char, value.Bytea, value.XML, value.JSON, value.JSONB, value.Numeric, value.Record,
		value.Bit, value.Varbit, value.Inet, value.Cidr, value.Path, value.Polygon, value.TSVector, value.TSQuery, value.JSONPath, value.HStore, value.CIText:
		return false
	}
	return !k.IsArray() && k != value.Unknown && !k.IsRange() && !k.IsMultirange()
}

// fixedWidthRow reports whether t is a row type whose fields are all of
// fixed-width types: its size (expr.ColumnSize) depends on its values'
// NULLs only, never on how PostgreSQL stored them.
func fixedWidthRow(t value.Type) bool {
	d := t.RecordDesc()
	if t.Kind != value.Record || d == nil || len(d.Fields) == 0 {
		return false
	}
	for _, f := range d.Fields {
		if !isFixedWidth(f.Type.Kind) {
			return false
		}
	}
	return true
}
