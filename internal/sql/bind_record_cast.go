package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"

	"github.com/deltaview/deltaview/internal/expr"
	"github.com/deltaview/deltaview/internal/pgerr"
	"github.com/deltaview/deltaview/internal/value"
)

// rowTypeCast binds x::t where t names a table or view rather than a type:
// a cast to t's row type. ok is false when the type name is not a
// relation's (or is a type's: PostgreSQL's types come first). As in
// PostgreSQL's coerce_record_to_complex, only a row constructor and the
// whole row of a FROM item whose row is an anonymous record (a subquery,
// a CTE, VALUES, a function with a column definition list) cast field by
// field: ROW(…)::t and s::t cast each field to t's column type,
// explicitly, column by column, and need as many fields as t has columns
// (42846 otherwise, naming the first column that fails). NULL::t is a
// NULL of t's type; a string literal, or a string, is read as the
// record's text form; a record of t's type is itself. Any other record, a scalar subquery's or
// a function's, and a record of another row type cannot be cast (42846),
// as in PostgreSQL.
func (b *binder) rowTypeCast(s *scope, c *pg_query.TypeCast) (e expr.Expr, ok bool, err error) {
	tn := c.TypeName
	if tn == nil || len(tn.Names) != 1 || len(tn.Typmods) > 0 || len(tn.ArrayBounds) > 0 {
		return nil, false, nil
	}
	name := tn.Names[0].GetString_().Sval
	if name == "record" {
		e, err := b.anonymousRecordCast(s, c)
		return e, true, err
	}
	if _, err := value.TypeFromName(name, nil); err == nil {
		return nil, false, nil
	}
	if _, isCTE := b.lookupCTE(name); isCTE {
		return nil, false, nil
	}
	rel, found := b.rowTypeNamed(name)
	if !found {
		return nil, false, nil
	}
	arg, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, true, err
	}
	e, err = b.castToRowType(arg, c.Arg, rel, c.Location, rowCast{})
	return e, true, err
}

// rowCast is how castToRowType converts a record's fields: as an
// assignment does (assign) rather than as an explicit cast, and for a
// row nested in another (nested), whose field that cannot be converted
// is where the error points, as PostgreSQL's coerce_record_to_complex
// called without a location.
type rowCast struct{ assign, nested bool }

// castToRowType casts arg, bound from argNode (nil when not at hand), to
// the row type of rel at loc, as rowTypeCast describes.
func (b *binder) castToRowType(arg expr.Expr, argNode *pg_query.Node, rel *Relation, loc int32, how rowCast) (expr.Expr, error) {
	t := relRowType(rel)
	d := t.RecordDesc()
	if arg.Type() == t {
		return arg, nil
	}
	if at := arg.Type(); at.Kind == value.Record && !at.IsAnonymousRecord() {
		return nil, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", at, t)
	}
	var err error
	switch a := arg.(type) {
	case *expr.RowCons:
		if argNode == nil {
			argNode = b.rowNodes[a]
		}
		args := make([]expr.Expr, len(d.Fields))
		names := make([]string, len(d.Fields))
		for i, f := range d.Fields {
			if i >= len(a.Args) {
				return nil, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type record to %s", t).WithDetail("Input has too few columns.")
			}
			if inner, ok := b.nestedRow(a.Args[i], f.Type); ok {
				// A row constructor for a field of a row type converts
				// field by field too, its errors at its own position
				// (PostgreSQL coerces it without a cast's location).
				at := rowArgLoc(argNode, len(a.Args), i, loc)
				if args[i], err = b.castToRowType(a.Args[i], nil, inner, at, rowCast{assign: how.assign, nested: true}); err != nil {
					return nil, err
				}
			} else if k, ok := a.Args[i].(*expr.Const); ok && i < len(a.Untyped) && a.Untyped[i] {
				// A string literal is of type unknown: read as the
				// field's type, an error at the literal.
				if args[i], err = expr.Coerce(&expr.Const{V: k.V, T: value.UnknownType}, f.Type, true); err != nil {
					return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(rowArgLoc(argNode, len(a.Args), i, loc)))
				}
			} else if args[i], err = b.castField(a.Args[i], f, how.assign); err != nil {
				at := loc
				if r := argNode.GetRowExpr(); how.nested && r != nil && len(r.Args) == len(a.Args) {
					if l := leftmostLoc(r.Args[i]); l >= 0 {
						at = l // an operator from its leftmost token
					}
				}
				return nil, b.stmt.errf(at, pgerr.CannotCoerce, "cannot cast type record to %s", t).
					WithDetail("Cannot cast type %s to %s in column %d.", typeNameNoMod(a.Args[i].Type()), typeNameNoMod(f.Type), i+1)
			}
			args[i] = b.intervalInput(a.Args[i], f.Type, args[i])
			if dom := fieldDomain(rel, i); dom != nil {
				args[i] = &expr.DomainCheck{E: args[i], Domain: dom}
			}
			names[i] = f.Name
		}
		if len(a.Args) > len(d.Fields) {
			return nil, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type record to %s", t).WithDetail("Input has too many columns.")
		}
		rc := expr.NewRecordCons(args, names, "", d.Name, false)
		rc.T = t // a composite type's keeps its object numbers
		return rc, nil
	case *expr.Const:
		if a.V.IsNull() && a.T.Kind == value.Unknown {
			return &expr.Const{V: value.Null, T: t}, nil
		}
		if a.T.Kind == value.Unknown {
			v, err := value.ParseRecord(a.V.Str(), t)
			if err != nil {
				return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(argNode, loc)))
			}
			if err := checkFieldDomains(rel, v); err != nil {
				return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(nodeLoc(argNode, loc)))
			}
			if b.inputClock() == nil || !holdsIntervalField(t) {
				return &expr.Const{V: v, T: t}, nil
			}
			// Its intervals read in the style of the session running it.
			return withFieldDomains(b.recordIn(arg, t, d.Name), rel), nil
		}
	}
	if arg.Type().Kind.IsString() {
		// The record's text form, read when the cast is evaluated.
		return withFieldDomains(b.recordIn(arg, t, d.Name), rel), nil
	}
	if arg.Type().Kind == value.Unknown {
		// A parameter, which takes the type.
		e, err := expr.Coerce(arg, t, true)
		if err != nil {
			return nil, pgerr.Wrap(err).At(b.stmt.SQL, int(loc))
		}
		return withFieldDomains(e, rel), nil
	}
	return nil, b.stmt.errf(loc, pgerr.CannotCoerce, "cannot cast type %s to %s", arg.Type(), t)
}

// castField converts e to field f's type, as an assignment does when
// assign (a value of another enum, or text for an enum, is refused) and
// as an explicit cast otherwise.
func (b *binder) castField(e expr.Expr, f value.RecordField, assign bool) (expr.Expr, error) {
	if !assign {
		return expr.Coerce(e, f.Type, true)
	}
	return b.assignCast(e, f.Type, f.Name, -1)
}

// nestedRow reports whether e, a field's value, is an anonymous record
// for a field of named row type t, and t's relation: PostgreSQL converts
// it as it converts the whole row (coerce_record_to_complex).
func (b *binder) nestedRow(e expr.Expr, t value.Type) (*Relation, bool) {
	d := t.RecordDesc()
	if t.Kind != value.Record || d == nil || d.Name == "" || !e.Type().IsAnonymousRecord() {
		return nil, false
	}
	return b.rowTypeNamed(d.Name)
}

// anonymousRecordCast binds x::record, a cast to PostgreSQL's pseudo-type
// record: a record stays what it is, of its own type (a table's row keeps
// its row type, as in PostgreSQL), NULL is a NULL record; a string literal is
// 0A000 (PostgreSQL cannot read an anonymous record's text either) and any
// other type 42846.
func (b *binder) anonymousRecordCast(s *scope, c *pg_query.TypeCast) (expr.Expr, error) {
	arg, err := b.bindExpr(s, c.Arg)
	if err != nil {
		return nil, err
	}
	at := arg.Type()
	switch {
	case at.Kind == value.Record:
		return arg, nil
	case at.Kind == value.Unknown:
		if k, isConst := arg.(*expr.Const); isConst && k.V.IsNull() {
			return &expr.Const{V: value.Null, T: value.RecordType}, nil
		}
		return nil, b.stmt.errf(nodeLoc(c.Arg, c.Location), pgerr.FeatureNotSupported, "input of anonymous composite types is not implemented")
	}
	return nil, b.stmt.errf(c.Location, pgerr.CannotCoerce, "cannot cast type %s to record", at)
}

// typeNameNoMod is format_type_be's name of t: without its modifier, a
// row type by its name.
func typeNameNoMod(t value.Type) string {
	if t.Kind == value.Record || t.Kind == value.ArrayOf(value.Record) || t.Enum() != nil {
		return t.String()
	}
	return t.Kind.String()
}

// recordIn reads arg, a record's text form, as a record of type t (named
// name) when evaluated: its intervals in the IntervalStyle of the session
// running an ad-hoc statement, in the postgres style in a view.
func (b *binder) recordIn(arg expr.Expr, t value.Type, name string) expr.Expr {
	clock := b.inputClock()
	return &expr.Func{Def: &expr.FuncDef{Name: "record_in", Strict: true, Eval: func(a []value.Value) (value.Value, error) {
		st := value.IntervalPostgres
		if clock != nil {
			st = clock.TextStyle
		}
		return value.ParseRecordIn(a[0].Str(), t, st)
	}, Print: func(args []expr.Expr) string { return args[0].String() + "::" + name }}, Args: []expr.Expr{arg}, T: t}
}

// rowArgLoc is the position of field i of row constructor n, of width
// fields (def when t.* expanded into several of them).
func rowArgLoc(n *pg_query.Node, width, i int, def int32) int32 {
	r := n.GetRowExpr()
	if r == nil || len(r.Args) != width {
		return def
	}
	return nodeLoc(r.Args[i], def)
}
