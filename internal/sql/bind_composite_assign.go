package sql

import (
	"slices"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// Values stored into columns (or attributes) of a named row type: a
// composite type's or a table's. An assignment converts a value as
// PostgreSQL's assignment does, an assignment to one field (SET r.a = v)
// rebuilds the record around it, and a record read from text has its
// fields checked against the attributes' domains.

// assignRecord converts e for a column (or attribute) of a named row type
// t, or of an array of one, as PostgreSQL's assignment does: a row
// constructor casts field by field and a string literal is read as the
// record's text (castToRowType), any other anonymous record is 42846 and
// a value of another type 42804. ok is false when t is no such type or
// the ordinary conversion applies (a literal read as an array of them).
func (b *binder) assignRecord(e expr.Expr, t value.Type, col string, loc int32) (out expr.Expr, ok bool, err error) {
	d := t.RecordDesc()
	if d == nil || d.Name == "" || e.Type() == t {
		return nil, false, nil
	}
	if e.Type().Kind == value.Unknown && t.Kind.IsArray() {
		// A literal or a parameter reads as an array.
		rel, found := b.rowTypeNamed(d.Name)
		if !found {
			return nil, false, nil
		}
		out, err := expr.Coerce(e, t, true)
		if err != nil {
			return nil, true, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return withFieldDomains(out, rel), true, nil
	}
	if t.Kind == value.Record {
		rc, isRow := e.(*expr.RowCons)
		if isRow && rc.T.IsAnonymousRecord() || e.Type().Kind == value.Unknown {
			rel, found := b.rowTypeNamed(d.Name)
			if !found {
				return nil, true, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", d.Name)
			}
			out, err := b.castToRowType(e, nil, rel, loc, rowCast{assign: true})
			return out, true, err
		}
		if e.Type().IsAnonymousRecord() {
			return nil, true, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type record to %s", d.Name)
		}
	}
	return nil, true, b.stmt.errf(loc, pgerr.DatatypeMismatch, "column %q is of type %s but expression is of type %s", col, t, e.Type()).
		WithHint("You will need to rewrite or cast the expression.")
}

// fieldAssigner binds the assignment to field of column name, of the
// named row type t (SET r.a = v, INSERT INTO u (r.a)): the column's new
// value is its record with that field replaced (a record of NULLs but it
// when the column is NULL), as PostgreSQL's FieldStore.
func (b *binder) fieldAssigner(name string, t value.Type, field string, loc int32) (subscriptAssigner, error) {
	d := t.RecordDesc()
	_, at := d.Field(field)
	if at < 0 {
		return nil, b.stmt.errf(loc, pgerr.UndefinedColumn, "cannot assign to field %q of column %q because there is no such column in data type %s", field, name, t)
	}
	rel, found := b.rowTypeNamed(d.Name)
	if !found {
		return nil, pgerr.New(pgerr.UndefinedObject, "type %q does not exist", d.Name)
	}
	return func(base, v expr.Expr, vloc int32) (expr.Expr, error) {
		ft := d.Fields[at].Type
		nv, err := b.assignCast(v, ft, name, vloc)
		if pgerr.Code(err) == pgerr.DatatypeMismatch {
			return nil, b.stmt.errf(loc, pgerr.DatatypeMismatch, "subfield %q is of type %s but expression is of type %s", field, ft, v.Type()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		if err != nil {
			return nil, err
		}
		if dom := fieldDomain(rel, at); dom != nil {
			nv = &expr.DomainCheck{E: nv, Domain: dom}
		}
		args := make([]expr.Expr, len(d.Fields))
		names := make([]string, len(d.Fields))
		for i, f := range d.Fields {
			names[i] = f.Name
			args[i] = &expr.FieldSelect{E: base, Idx: i, Name: f.Name, T: f.Type}
		}
		args[at] = nv
		rc := expr.NewRecordCons(args, names, "", d.Name, false)
		rc.T = t
		return rc, nil
	}, nil
}

// withFieldDomains checks, when e is evaluated, the fields of its record
// (or of each record of its array) against the domains of rel's columns:
// a record read from text or a parameter, whose fields no cast checked.
func withFieldDomains(e expr.Expr, rel *Relation) expr.Expr {
	if rel.Def == nil || !slices.ContainsFunc(rel.Def.Cols, func(c ColumnDef) bool { return c.Domain != nil }) {
		return e
	}
	return &expr.Func{Def: &expr.FuncDef{Name: "domain_check", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		recs := []value.Value{a[0]}
		if a[0].Kind().IsArray() {
			recs = a[0].Elems()
		}
		for _, r := range recs {
			if err := checkFieldDomains(rel, r); err != nil {
				return value.Null, err
			}
		}
		return a[0], nil
	}, Print: func(args []expr.Expr) string { return args[0].String() }}, Args: []expr.Expr{e}, T: e.Type()}
}
