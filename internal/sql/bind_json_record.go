package sql

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// bindJSONRecordFunc binds json(b)_to_record(set) in FROM, whose columns
// the column definition list coldefs gives (42601 without one, as in
// PostgreSQL). The functions are immutable, so a view maintains them per
// row of their argument.
func (b *binder) bindJSONRecordFunc(name string, f *pg_query.FuncCall, coldefs []*pg_query.Node) (*expr.SRF, error) {
	var names []string
	var cols []value.Type
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	if expr.IsJSONPopulateFunc(name) {
		if len(coldefs) > 0 {
			return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is only allowed for functions returning \"record\"")
		}
		rel, err := b.populateBase(name, f, fargs)
		if err != nil {
			return nil, err
		}
		for _, c := range rel.Cols {
			names = append(names, c.Name)
			cols = append(cols, c.Type)
		}
		fargs = fargs[1:2]
	} else if len(coldefs) == 0 {
		return nil, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
	}
	for _, n := range coldefs {
		cd := n.GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, b.refuse(f.Location, "this column definition is not supported")
		}
		t, err := b.typeFromName(cd.TypeName)
		if err != nil {
			return nil, err
		}
		names = append(names, cd.Colname)
		cols = append(cols, t)
	}
	args := make([]expr.Expr, len(fargs))
	for i, a := range fargs {
		e, err := b.bindExpr(&scope{}, a)
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	srf, err := expr.ResolveJSONRecord(name, args, names, cols)
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return srf, nil
}

// populateBase is the relation whose row type the first argument of
// json(b)_populate_record(set) names: NULL::t of a table or view t. A
// base record with values, whose fields would fill the missing keys, is
// not supported (0A000).
//
// The json variants take a third argument, use_json_as_text, which
// PostgreSQL ignores; it must be a boolean.
func (b *binder) populateBase(name string, f *pg_query.FuncCall, args []*pg_query.Node) (*Relation, error) {
	var tc *pg_query.TypeCast
	if len(args) > 0 {
		tc = args[0].GetTypeCast()
	}
	var rel *Relation
	if tc != nil && tc.TypeName != nil && len(tc.TypeName.Names) == 1 && len(tc.TypeName.ArrayBounds) == 0 {
		rel, _ = b.cat.Relation(tc.TypeName.Names[0].GetString_().Sval)
	}
	if n := len(args); n != 2 && (n != 3 || strings.HasPrefix(name, "jsonb")) || !b.useJSONAsText(args) {
		bound := make([]expr.Expr, len(args))
		for i, a := range args {
			if i == 0 && rel != nil {
				continue // named by rel
			}
			e, err := b.bindExpr(&scope{}, a)
			if err != nil {
				return nil, err
			}
			bound[i] = e
		}
		first := ""
		if rel != nil {
			first, bound = rel.Name, bound[1:]
		}
		return nil, pgerr.Wrap(expr.NoSuchFunctionOf(name, first, bound)).At(b.stmt.SQL, int(f.Location))
	}
	if c := args[0].GetAConst(); c != nil {
		if c.Isnull {
			return nil, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
		}
		return nil, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "first argument of %s must be a row type", name)
	}
	if tc == nil || tc.TypeName == nil {
		return nil, b.refuse(f.Location, "%s is supported with a first argument NULL::t of a table or view t", name)
	}
	if rel == nil {
		if _, err := b.typeFromName(tc.TypeName); err != nil {
			return nil, err
		}
		return nil, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "first argument of %s must be a row type", name)
	}
	if c := tc.Arg.GetAConst(); c == nil || !c.Isnull {
		return nil, b.refuse(f.Location, "%s with a base record other than NULL is not supported", name).
			WithHint("use coalesce on the columns of %s(NULL::t, …)", name)
	}
	return rel, nil
}

// bindJSONPopulateRecord binds json(b)_populate_record(NULL::t, j) as a
// value: a record of t's row type.
func (b *binder) bindJSONPopulateRecord(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, error) {
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	rel, err := b.populateBase(name, f, fargs)
	if err != nil {
		return nil, err
	}
	arg, err := b.bindExpr(s, fargs[1])
	if err != nil {
		return nil, err
	}
	e, err := expr.JSONPopulateRecord(name, arg, relRowType(rel))
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return e, nil
}

// relRowType is the row type of table or view rel: named after it, its
// columns as fields.
func relRowType(rel *Relation) value.Type {
	fields := make([]value.RecordField, len(rel.Cols))
	for i, c := range rel.Cols {
		fields[i] = value.RecordField{Name: c.Name, Type: c.Type}
	}
	return value.RecordTypeOf(rel.Name, fields)
}

// useJSONAsText reports whether the third argument of
// json_populate_record(set), if there is one, is a boolean (or an untyped
// literal); without one it is true.
func (b *binder) useJSONAsText(args []*pg_query.Node) bool {
	if len(args) < 3 {
		return true
	}
	e, err := b.bindExpr(&scope{}, args[2])
	if err != nil {
		return true // reported by the caller's binding
	}
	k := e.Type().Kind
	return k == value.Bool || k == value.Unknown
}
