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
// PostgreSQL), and json(b)_populate_record(set), whose columns are its
// base record's fields; rowType is that base's type (the zero Type for
// json(b)_to_record(set)). The functions are immutable, so a view
// maintains them per row of their arguments.
func (b *binder) bindJSONRecordFunc(name string, f *pg_query.FuncCall, coldefs []*pg_query.Node) (srf *expr.SRF, rowType value.Type, err error) {
	if expr.IsJSONPopulateFunc(name) {
		return b.bindJSONPopulateFunc(name, f, coldefs, true)
	}
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, rowType, err
	}
	if len(coldefs) == 0 {
		return nil, rowType, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
	}
	names, cols, err := b.bindColdefs(coldefs)
	if err != nil {
		return nil, rowType, err
	}
	args := make([]expr.Expr, len(fargs))
	for i, a := range fargs {
		e, err := b.bindExpr(b.argScope(), a)
		if err != nil {
			return nil, rowType, err
		}
		args[i] = e
	}
	srf, err = expr.ResolveJSONRecord(name, args, names, cols, b.inputClock())
	if err != nil {
		return nil, rowType, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return srf, rowType, nil
}

// bindJSONPopulateFunc binds json(b)_populate_record(set) as a function
// of rows (its arguments read the FROM items before it): one column per
// field of its base record's type rowType. In FROM (inFrom) an anonymous
// base takes its columns from the column definition list coldefs, and
// must have one; the base's fields, when its type knows them, name the
// keys read and must match the list (expr.RowMismatch). rowType is then
// the zero Type: the rows are anonymous records.
func (b *binder) bindJSONPopulateFunc(name string, f *pg_query.FuncCall, coldefs []*pg_query.Node, inFrom bool) (srf *expr.SRF, rowType value.Type, err error) {
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, rowType, err
	}
	base, rowType, err := b.populateBase(b.argScope(), name, f, fargs, inFrom)
	if err != nil {
		return nil, rowType, err
	}
	if inFrom {
		switch anon := rowType.IsAnonymousRecord(); {
		case anon && len(coldefs) == 0:
			return nil, rowType, b.stmt.errf(f.Location, pgerr.SyntaxError, "a column definition list is required for functions returning \"record\"")
		case !anon && len(coldefs) > 0:
			return nil, rowType, b.stmt.errf(coldefLoc(coldefs), pgerr.SyntaxError, "a column definition list is redundant for a function returning a named composite type")
		}
	}
	arg, err := b.bindExpr(b.argScope(), fargs[1])
	if err != nil {
		return nil, rowType, err
	}
	var names, listNames []string
	var cols, listCols []value.Type
	if d := rowType.RecordDesc(); d != nil {
		for _, fd := range d.Fields {
			names = append(names, fd.Name)
			cols = append(cols, fd.Type)
		}
	}
	if len(coldefs) > 0 {
		if listNames, listCols, err = b.bindColdefs(coldefs); err != nil {
			return nil, rowType, err
		}
		if rowType.RecordDesc() == nil {
			names, cols = listNames, listCols
		}
	}
	srf, err = expr.ResolveJSONPopulate(name, base, []expr.Expr{arg}, names, cols, b.inputClock())
	if err != nil {
		return nil, rowType, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	if len(coldefs) > 0 {
		// PostgreSQL checks the base's type when the function returns
		// a record of it: _record whenever its base is not NULL,
		// _recordset whenever its document is not NULL.
		set := strings.HasSuffix(name, "set")
		srf = expr.Renamed(srf, listNames, listCols, expr.RowMismatch(cols, listCols), func(a []value.Value) bool {
			return set && !a[0].IsNull() || !set && len(a) > 1 && !a[1].IsNull()
		})
		rowType = value.Type{}
	}
	return srf, rowType, nil
}

// populateBase binds the first argument of json(b)_populate_record(set),
// the base record, in scope s. Its type, a record whose type knows its
// fields (a table's or view's row type, or the anonymous record of ROW(…)
// or of a subquery's row), is the result's; the base's fields fill the
// keys the object lacks. base is nil for a NULL constant of that type
// (NULL::t), whose fields are all NULL. With anyRecord (in FROM, where a
// column definition list may give the fields) a record whose fields are
// not known is accepted too.
//
// The json variants take a third argument, use_json_as_text, which
// PostgreSQL ignores; it must be a boolean.
func (b *binder) populateBase(s *scope, name string, f *pg_query.FuncCall, args []*pg_query.Node, anyRecord bool) (base expr.Expr, rowType value.Type, err error) {
	if n := len(args); n != 2 && (n != 3 || strings.HasPrefix(name, "jsonb")) || !b.useJSONAsText(args) {
		bound := make([]expr.Expr, len(args))
		for i, a := range args {
			e, err := b.bindExpr(s, a)
			if err != nil {
				return nil, rowType, err
			}
			bound[i] = e
		}
		first := ""
		if len(bound) > 0 && bound[0].Type().Kind == value.Record && !bound[0].Type().IsAnonymousRecord() {
			first, bound = bound[0].Type().RecordDesc().Name, bound[1:] // printed by its row type's name
		}
		return nil, rowType, pgerr.Wrap(expr.NoSuchFunctionOf(name, first, bound)).At(b.stmt.SQL, int(f.Location))
	}
	if c := args[0].GetAConst(); c != nil {
		if c.Isnull {
			return nil, rowType, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "could not determine polymorphic type because input has type unknown")
		}
		return nil, rowType, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "first argument of %s must be a row type", name)
	}
	e, err := b.bindExpr(s, args[0])
	if err != nil {
		return nil, rowType, err
	}
	rowType = e.Type()
	if rowType.Kind != value.Record {
		return nil, rowType, b.stmt.errf(f.Location, pgerr.DatatypeMismatch, "first argument of %s must be a row type", name)
	}
	if rowType.RecordDesc() == nil && !anyRecord {
		return nil, rowType, b.stmt.errf(f.Location, pgerr.FeatureNotSupported, "could not determine row type for result of %s", name).
			WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list.")
	}
	if c, ok := e.(*expr.Const); ok && c.V.IsNull() {
		return nil, rowType, nil
	}
	return e, rowType, nil
}

// bindJSONPopulateRecord binds json(b)_populate_record(base, j) as a
// value: a record of base's type.
func (b *binder) bindJSONPopulateRecord(s *scope, name string, f *pg_query.FuncCall) (expr.Expr, error) {
	fargs, err := b.namedArgs(name, f.Args, f.Location)
	if err != nil {
		return nil, err
	}
	base, rowType, err := b.populateBase(s, name, f, fargs, false)
	if err != nil {
		return nil, err
	}
	arg, err := b.bindExpr(s, fargs[1])
	if err != nil {
		return nil, err
	}
	e, err := expr.JSONPopulateRecord(name, base, arg, rowType, b.inputClock())
	if err != nil {
		return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(f.Location))
	}
	return e, nil
}

// relRowType is the row type of table or view rel: named after it, its
// columns as fields.
func relRowType(rel *Relation) value.Type {
	if rel.Kind == KindComposite {
		return rel.RowType
	}
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
	e, err := b.bindExpr(b.argScope(), args[2])
	if err != nil {
		return true // reported by the caller's binding
	}
	k := e.Type().Kind
	return k == value.Bool || k == value.Unknown
}
