package sql

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Column definition lists of functions in FROM: f(…) AS x(a int, b text),
// or ROWS FROM (f(…) AS (a int), g(…)). Only a function returning the
// pseudo-type record takes one (json(b)_to_record(set), and unnest and
// json(b)_populate_record(set) of anonymous records), and it must: the
// errors are PostgreSQL's, at the list.

// coldefPlacement checks a column definition list written after the whole
// FROM item: it must belong to its one function, which unnest of several
// arrays is not (it is one function per array), and cannot be combined
// with WITH ORDINALITY.
func (b *binder) coldefPlacement(rf *pg_query.RangeFunction) error {
	if len(rf.Coldeflist) == 0 {
		return nil
	}
	loc := coldefLoc(rf.Coldeflist)
	if len(rf.Functions) > 1 {
		return b.stmt.errf(loc, pgerr.SyntaxError, "ROWS FROM() with multiple functions cannot have a column definition list").
			WithHint("Put a separate column definition list for each function inside ROWS FROM().")
	}
	if !rf.IsRowsfrom && len(rf.Functions) == 1 {
		if f := rf.Functions[0].GetList().GetItems()[0].GetFuncCall(); f != nil && opName(f.Funcname) == "unnest" && len(f.Args) > 1 {
			return b.stmt.errf(loc, pgerr.SyntaxError, "UNNEST() with multiple arguments cannot have a column definition list").
				WithHint("Use separate UNNEST() calls inside ROWS FROM(), and attach a column definition list to each one.")
		}
	}
	if rf.Ordinality {
		return b.stmt.errf(loc, pgerr.SyntaxError, "WITH ORDINALITY cannot be used with a column definition list").
			WithHint("Put the column definition list inside ROWS FROM().")
	}
	return nil
}

// coldefLoc is the position of a column definition list: its first
// column's.
func coldefLoc(coldefs []*pg_query.Node) int32 {
	if cd := coldefs[0].GetColumnDef(); cd != nil {
		return cd.Location
	}
	return -1
}

// bindColdefs binds a column definition list: its columns' names and
// types.
func (b *binder) bindColdefs(coldefs []*pg_query.Node) (names []string, cols []value.Type, err error) {
	for _, n := range coldefs {
		cd := n.GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, nil, b.refuse(coldefLoc(coldefs), "this column definition is not supported")
		}
		if cd.TypeName.Setof {
			return nil, nil, b.stmt.errf(cd.Location, "42P16", "column \"%s\" cannot be declared SETOF", cd.Colname)
		}
		t, ok, err := b.coldefRowType(cd.TypeName)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			if t, err = b.typeFromName(cd.TypeName); err != nil {
				return nil, nil, err
			}
		}
		if cc := cd.CollClause; cc != nil {
			if !isString(t.Kind) && !(t.Kind.IsArray() && isString(t.Kind.Elem())) {
				return nil, nil, b.stmt.errf(cc.Location, pgerr.DatatypeMismatch, "collations are not supported by type %s", t)
			}
			var coll []string
			for _, s := range cc.Collname {
				coll = append(coll, s.GetString_().Sval)
			}
			if len(coll) == 2 && coll[0] == "pg_catalog" {
				coll = coll[1:]
			}
			if err := b.checkCollation(coll, cc.Location); err != nil {
				return nil, nil, err
			}
		}
		names = append(names, cd.Colname)
		cols = append(cols, t)
	}
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return nil, nil, b.stmt.errf(-1, pgerr.DuplicateColumn, "column name \"%s\" specified more than once", n)
		}
	}
	return names, cols, nil
}

// coldefRowType resolves a column definition's type that names a table's
// or view's row type, or the anonymous record, or an array of them
// (jsonb_to_record(j) AS x(a t, b t[], c record)). PostgreSQL accepts a
// record column, and fails only when it fills one with a value.
func (b *binder) coldefRowType(tn *pg_query.TypeName) (value.Type, bool, error) {
	var names []string
	for _, n := range tn.Names {
		names = append(names, n.GetString_().GetSval())
	}
	if len(names) == 2 && names[0] == "pg_catalog" {
		names = names[1:]
	}
	var t value.Type
	switch {
	case len(names) != 1:
		return value.Type{}, false, nil
	case names[0] == "record":
		t = value.RecordType
		if len(tn.Typmods) > 0 {
			name := "record"
			if len(tn.ArrayBounds) > 0 {
				name = "record[]"
			}
			return t, true, b.stmt.errf(tn.Location, pgerr.SyntaxError, "type modifier is not allowed for type \"%s\"", name)
		}
	case len(tn.Typmods) > 0 || len(tn.Names) != 1:
		return value.Type{}, false, nil
	default:
		if _, err := value.TypeFromName(names[0], nil); err == nil {
			return value.Type{}, false, nil
		}
		rel, found := b.rowTypeNamed(names[0])
		if !found {
			return value.Type{}, false, nil
		}
		t = relRowType(rel)
	}
	if len(tn.ArrayBounds) > 0 {
		t = value.ArrayTypeOf(t)
	}
	return t, true, nil
}

// withColdefs applies the column definition list coldefs to srf: the
// fields of the anonymous records it returns become the list's columns.
// A function of other columns takes no list.
func (b *binder) withColdefs(srf *expr.SRF, f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	loc := coldefLoc(coldefs)
	switch {
	case len(srf.Cols) == 1 && srf.Names == nil && srf.Cols[0].IsAnonymousRecord():
		names, cols, err := b.bindColdefs(coldefs)
		if err != nil {
			return nil, err
		}
		return expr.RecordColumns(srf, recordFields(srf.Cols[0], f, cols), names, cols), nil
	case len(srf.Cols) > 1:
		return nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is redundant for a function with OUT parameters")
	case len(srf.Cols) == 1 && srf.Cols[0].Kind == value.Record:
		return nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type")
	}
	return nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\"")
}

// recordFields returns the types of the fields of rec, the records unnest
// (f) returns, nil when they are not known. PostgreSQL leaves the string
// literals and NULLs of a row constructor untyped (unknown) in the
// record, where the binder made them text: those of the first row of
// unnest(ARRAY[ROW(…), …]) (NULL elements aside) are unknown. When the array's element type
// does not say the other fields' (a NULL element beside the rows), they
// are taken to be the list's, cols.
func recordFields(rec value.Type, f *pg_query.FuncCall, cols []value.Type) []value.Type {
	var got []value.Type
	if d := rec.RecordDesc(); d != nil {
		for _, fd := range d.Fields {
			got = append(got, fd.Type)
		}
	}
	if len(f.Args) != 1 || f.Args[0].GetAArrayExpr() == nil {
		return got
	}
	var row *pg_query.RowExpr
	for _, e := range f.Args[0].GetAArrayExpr().Elements {
		if c := e.GetAConst(); c == nil || !c.Isnull {
			row = e.GetRowExpr() // the first record, NULLs aside
			break
		}
	}
	if row == nil {
		return got
	}
	untyped := func(n *pg_query.Node) bool {
		c := n.GetAConst()
		return c != nil && (c.Isnull || c.GetSval() != nil)
	}
	if !slices.ContainsFunc(row.Args, untyped) || got != nil && len(got) != len(row.Args) {
		return got
	}
	if got == nil {
		got = make([]value.Type, len(row.Args))
		copy(got, cols)
	}
	for i, n := range row.Args {
		if untyped(n) {
			got[i] = value.UnknownType
		}
	}
	return got
}

// recordColdefs binds the column definition list of a call of a function
// returning record, which must have one (42601 at loc).
func (b *binder) recordColdefs(coldefs []*pg_query.Node, loc int32) ([]string, []value.Type, error) {
	if len(coldefs) == 0 {
		return nil, nil, b.stmt.errf(loc, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
	}
	return b.bindColdefs(coldefs)
}
